"""Fairway's settings: everything comes from the environment, with safe local defaults.

Locally (`make run`) nothing needs setting: SQLite under var/, the in-memory channel
layer and console email. Production sets DEBUG=false, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL and REDIS_URL (see README.md).
"""

from __future__ import annotations

import ipaddress
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from config import vapid

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("FAIRWAY_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

DEV_SECRET_KEY = "django-insecure-fairway-local-development-only"
SECRET_KEY = os.environ.get("SECRET_KEY", DEV_SECRET_KEY)
if not DEBUG and (SECRET_KEY == DEV_SECRET_KEY or len(SECRET_KEY) < 50):
    raise ImproperlyConfigured(
        "Set SECRET_KEY to a long random value (50+ characters) when DEBUG is off."
    )

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS (comma-separated) when DEBUG is off.")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "servestatic.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "leagues",
    # Before django_tasks_db: its `db_worker` command is games' (games.tasks).
    "games",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    # Counts and times every request for the metrics (config/metrics.py): first, so that
    # it times the rest.
    "config.metrics.request_metrics",
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",
    "servestatic.middleware.ServeStaticMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Turns a refused log-in into the lockout page (leagues.accounts.logins.lockout_response).
    "axes.middleware.AxesMiddleware",
]

# Only the site's own scripts, styles and images, and no inline script, style attribute
# or eval anywhere: markup that slips into a page cannot run. connect-src also names the
# host's WebSocket origin (config/csp.py). Images may be data: URLs too: the tab's icon
# with its count of tables waiting is drawn by a script (static/js/turn-count.js).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.turns_waiting",
            ],
            "builtins": ["template_partials.templatetags.partials"],
        },
    },
    {
        # The live parts of a table (games/live.py), rendered for every viewer on every move.
        "NAME": "jinja2",
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "APP_DIRS": True,
        "OPTIONS": {"environment": "games.live.environment"},
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
    )
}
if (
    DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    and not DATABASES["default"]["CONN_MAX_AGE"]
    and env_bool("DB_POOL", True)
):
    # Django closes its connection after each use under ASGI (each consumer call, each
    # request): a per-process pool makes that cheap instead of a new connection each time.
    # Enough for the move threads, the database thread and the driver at once.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DB_POOL_SIZE", "8")),
        "timeout": 10,
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # The statements of every move (`games.store.bound_cursor`) are planned once per
    # connection. Django's own cursors quote values into the text, and prepare nothing.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 2)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    # Live play writes from several threads; wait for the lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    # A transaction takes the write lock as it begins: one that read first and wrote
    # later (a row "locked" for update, then a write) could not wait for it, and failed
    # at once with "database is locked" while another request wrote.
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis's pub/sub layer keeps one connection per process instead of
            # a pool that runs dry under bursts of connections; config/seams.py
            # shortens its path for announcements.
            "BACKEND": "config.seams.PubSubChannelLayer",
            # Redis's pub/sub channels ignore the database number in REDIS_URL: two
            # sites (or test runs) sharing one Redis keep apart by their prefix.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": os.environ.get("REDIS_PREFIX", "asgi")},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Counts that every worker must share (the table-code box's limit on guesses) live in
# the cache: Redis when the site runs several workers, else the process's own memory.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("REDIS_PREFIX", "asgi"),
        }
    }

# A WebSocket client that leaves over 64 KiB unread this long is dropped (it reconnects
# and resyncs) rather than have the server buffer its frames without bound; 0: never.
FAIRWAY_WS_SLOW_SECONDS = float(os.environ.get("FAIRWAY_WS_SLOW_SECONDS", "10"))

# Live play: how long a bot waits before its move and the end of a hole stays shown.
FAIRWAY_BOT_DELAY = float(os.environ.get("FAIRWAY_BOT_DELAY", "0.8"))
FAIRWAY_HOLE_PAUSE = float(os.environ.get("FAIRWAY_HOLE_PAUSE", "4"))
# The most live tables one player may host at once, open or in play (league tables aside).
FAIRWAY_MAX_HOSTED_TABLES = int(os.environ.get("FAIRWAY_MAX_HOSTED_TABLES", "5"))
# The most turn-based tables one player may host at once: a match over days keeps many.
FAIRWAY_MAX_TURN_BASED_TABLES = int(os.environ.get("FAIRWAY_MAX_TURN_BASED_TABLES", "50"))
# Hours without a move after which a match in play is abandoned (games.services).
try:
    FAIRWAY_IDLE_HOURS = float(os.environ.get("FAIRWAY_IDLE_HOURS") or "24")
except ValueError:
    FAIRWAY_IDLE_HOURS = float("nan")
if not 0 < FAIRWAY_IDLE_HOURS < float("inf"):
    raise ImproperlyConfigured("FAIRWAY_IDLE_HOURS must be a number of hours above 0.")
# Threads per process that apply moves on PostgreSQL (see games.moves).
FAIRWAY_MOVE_THREADS = int(os.environ.get("FAIRWAY_MOVE_THREADS", "4"))
# Moves in the middle of a hole written from the event loop on PostgreSQL (games.loop_writes).
FAIRWAY_LOOP_WRITES = os.environ.get("FAIRWAY_LOOP_WRITES", "true").lower() in {"1", "true", "yes"}
# Each finished hole's players' reviews are queued as a task once it ends (games.reviews);
# off: worked out on their first look, or by `review_holes`.
FAIRWAY_REVIEW_AFTER_HOLE = env_bool("FAIRWAY_REVIEW_AFTER_HOLE", True)
# Playouts per action in a stored review: enough to rank a blunder, cheap enough to
# review a hole in seconds (fewer: quicker and rougher reviews on a small machine).
FAIRWAY_REVIEW_SAMPLES = int(os.environ.get("FAIRWAY_REVIEW_SAMPLES", "8"))
if FAIRWAY_REVIEW_SAMPLES < 1:
    raise ImproperlyConfigured("FAIRWAY_REVIEW_SAMPLES must be at least 1.")
# /readyz (config/health.py): seconds each check may take before the worker counts as
# not ready.
FAIRWAY_READY_TIMEOUT = float(os.environ.get("FAIRWAY_READY_TIMEOUT", "2"))
# /metrics (config/metrics.py) answers these addresses and networks only (loopback by
# default); the reverse proxy never forwards it (deploy/nginx.conf).
try:
    METRICS_ALLOW = [
        ipaddress.ip_network(network, strict=False)
        for network in env_list("METRICS_ALLOW", "127.0.0.1,::1")
    ]
except ValueError as error:
    raise ImproperlyConfigured(f"METRICS_ALLOW: {error}.") from None
# Background work (reviews, league mail, re-rating after a late correction) runs as tasks
# of Django's task framework, queued in the site's database and worked out by
# `manage.py db_worker` processes (games.tasks). "immediate" runs each task as it is
# queued, in the process that queued it (no worker needed: the test suite's default).
TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
}
TASKS_BACKEND = os.environ.get("TASKS_BACKEND", "database")
if TASKS_BACKEND not in TASK_BACKENDS:
    raise ImproperlyConfigured(f"TASKS_BACKEND must be one of {', '.join(TASK_BACKENDS)}.")
TASKS = {"default": {"BACKEND": TASK_BACKENDS[TASKS_BACKEND]}}
# A failed task is tried again this many times in all, first after this many seconds,
# then twice as long after each try; then it is kept failed, with its error, in the admin.
FAIRWAY_TASK_ATTEMPTS = int(os.environ.get("FAIRWAY_TASK_ATTEMPTS", "3"))
FAIRWAY_TASK_RETRY_SECONDS = float(os.environ.get("FAIRWAY_TASK_RETRY_SECONDS", "30"))
# A task running longer than this lost its worker (killed, or its machine gone): it is
# queued again. Every task is far shorter (a review takes seconds).
FAIRWAY_TASK_LEASE_SECONDS = float(os.environ.get("FAIRWAY_TASK_LEASE_SECONDS", "600"))
# How often each worker looks for such tasks.
FAIRWAY_TASK_RECOVER_SECONDS = float(os.environ.get("FAIRWAY_TASK_RECOVER_SECONDS", "30"))
# A task worker answers Prometheus on this port (0: not at all), on this address.
FAIRWAY_TASK_METRICS_PORT = int(os.environ.get("FAIRWAY_TASK_METRICS_PORT", "0"))
FAIRWAY_TASK_METRICS_BIND = os.environ.get("FAIRWAY_TASK_METRICS_BIND", "127.0.0.1")
# Seconds between the server's collections of young objects (config.gc_pacing; 0: off).
FAIRWAY_GC_INTERVAL = float(os.environ.get("FAIRWAY_GC_INTERVAL", "0.05"))

AUTH_USER_MODEL = "leagues.Player"
# django-axes refuses a log-in that is locked out before the password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"

# Log-in lockouts (leagues/accounts/logins.py): failures within the cool-off, counted in the
# database, so across every process, per username and, separately, per address (a club
# night puts many players behind one address: it is allowed more).
LOGIN_FAILURES_PER_USERNAME = 5
LOGIN_FAILURES_PER_ADDRESS = 30
# A reverse proxy writes the client's address into X-Forwarded-For (deploy/nginx.conf);
# without one, that header is the client's own text and is ignored.
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
AXES_HANDLER = "leagues.accounts.logins.LoginLimitsHandler"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_FAILURE_LIMIT = 1  # limits reached (leagues.accounts.logins.LoginLimitsHandler), not failures
AXES_COOLOFF_TIME = timedelta(minutes=15)
# A refused attempt does not restart the cool-off: "try again in 15 minutes" holds.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "leagues.accounts.logins.attempted_username"
AXES_CLIENT_IP_CALLABLE = "leagues.accounts.logins.client_address"
AXES_LOCKOUT_CALLABLE = "leagues.accounts.logins.lockout_response"
# Failures are what counts; a log of every successful log-in is not needed.
AXES_DISABLE_ACCESS_LOG = True

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", VAR_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "servestatic.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Whether a club a player makes waits for a superuser's approval before it may run
# (off: a new club runs at once).
FAIRWAY_CLUBS_NEED_APPROVAL = env_bool("FAIRWAY_CLUBS_NEED_APPROVAL", False)
# How many days an invitation by mail stays good.
FAIRWAY_INVITATION_DAYS = int(os.environ.get("FAIRWAY_INVITATION_DAYS", "30"))

# Email: the console locally, SMTP when EMAIL_HOST is set.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Fairway <fairway@localhost>")
# The site's address as members reach it, for the links in league mail sent by cron.
FAIRWAY_SITE_URL = os.environ.get("FAIRWAY_SITE_URL", "http://127.0.0.1:8000")

# Web Push of "your turn" notices (leagues/notify/push.py): the VAPID key pair that signs
# each push (`manage.py vapid_keys` prints a fresh one) and a contact address for the push
# services. None set: push is off (no control on the account page, nothing sent).
FAIRWAY_VAPID_PRIVATE_KEY = os.environ.get("FAIRWAY_VAPID_PRIVATE_KEY", "")
FAIRWAY_VAPID_PUBLIC_KEY = os.environ.get("FAIRWAY_VAPID_PUBLIC_KEY", "")
FAIRWAY_VAPID_SUBJECT = os.environ.get("FAIRWAY_VAPID_SUBJECT", "")
#: The push services a device may name (a host or what it ends with): a subscription
#: names the address the server posts to, and no other host is posted to.
FAIRWAY_PUSH_SERVICES = [
    host.strip().lower()
    for host in os.environ.get(
        "FAIRWAY_PUSH_SERVICES",
        "fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com",
    ).split(",")
    if host.strip()
]
try:
    vapid.check(FAIRWAY_VAPID_PRIVATE_KEY, FAIRWAY_VAPID_PUBLIC_KEY, FAIRWAY_VAPID_SUBJECT)
except ValueError as error:
    raise ImproperlyConfigured(f"FAIRWAY_VAPID_*: {error}.") from None

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}

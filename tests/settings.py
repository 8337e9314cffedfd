"""The site's settings for the test suite: config.settings with a quick password hasher,
tasks run as they are queued, and reviews on their first look.

Django's default hasher takes most of a second per password on purpose; the suite makes
players by the thousand and tests who may sign in, not how slowly a password hashes.
The daphne servers that tests start inherit DJANGO_SETTINGS_MODULE, so they read the
same hashes.
"""

import os
from urllib.parse import urlsplit

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# A task runs as it is queued, in the process that queued it (once its transaction
# commits: games.tasks), in the test process as in the daphne servers tests start: a test
# that does not care sees its effect at once, with no worker. A test of the queue itself
# switches to the database backend and runs real workers (tests/conftest.py,
# `task_workers`); a worker it starts is told so through TASKS_BACKEND.
if "TASKS_BACKEND" not in os.environ:
    TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
# Reviews are worked out on their first look: a test that wants them queued after each
# hole turns it on (tests/conftest.py, `reviews_after_hole`).
FAIRWAY_REVIEW_AFTER_HOLE = False

# Each test clears the cache (tests/conftest.py), which on Redis empties its database:
# every pytest worker (and the servers it starts, which inherit its environment) keeps
# its cache in a Redis database of its own, so that one worker's clearing never wipes
# the counts another's test is making. The channel layer's pub/sub ignores the number.
if REDIS_URL:  # noqa: F405
    _worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    _database = 1 + int(_worker) % 15 if _worker.isdecimal() else 1
    CACHES["default"]["LOCATION"] = urlsplit(REDIS_URL)._replace(path=f"/{_database}").geturl()  # noqa: F405

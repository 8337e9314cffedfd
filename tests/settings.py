"""The site's settings for the test suite: config.settings with a quick password hasher,
reviews' playouts at normal priority, and reviews on their first look.

Django's default hasher takes most of a second per password on purpose; the suite makes
players by the thousand and tests who may sign in, not how slowly a password hashes.
The daphne servers that tests start inherit DJANGO_SETTINGS_MODULE, so they read the
same hashes.
"""

import os
from urllib.parse import urlsplit

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# At idle priority the playouts wait for a core nothing else wants: with a test process
# per core, or on a shared machine, a review would wait tens of seconds for one.
FAIRWAY_REVIEW_IDLE_PRIORITY = False
# Tests keep their processes busy: reviews there never wait (test_review.py tests it).
FAIRWAY_REVIEW_BUSY_CPU = None
# Reviews are worked out on their first look, in the test process as in the daphne
# servers tests start (which then start no reviews' child process each): a test that
# wants the worker turns it on (tests/conftest.py, `reviews_after_hole`).
FAIRWAY_REVIEW_AFTER_HOLE = False

# Each test clears the cache (tests/conftest.py), which on Redis empties its database:
# every pytest worker (and the servers it starts, which inherit its environment) keeps
# its cache in a Redis database of its own, so that one worker's clearing never wipes
# the counts another's test is making. The channel layer's pub/sub ignores the number.
if REDIS_URL:  # noqa: F405
    _worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    _database = 1 + int(_worker) % 15 if _worker.isdecimal() else 1
    CACHES["default"]["LOCATION"] = urlsplit(REDIS_URL)._replace(path=f"/{_database}").geturl()  # noqa: F405

"""The site's settings for the test suite: config.settings with a quick password hasher,
and reviews' playouts at normal priority.

Django's default hasher takes most of a second per password on purpose; the suite makes
players by the thousand and tests who may sign in, not how slowly a password hashes.
The daphne servers that tests start inherit DJANGO_SETTINGS_MODULE, so they read the
same hashes.
"""

from config.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

# At idle priority the playouts wait for a core nothing else wants: with a test process
# per core, or on a shared machine, a review would wait tens of seconds for one.
FAIRWAY_REVIEW_IDLE_PRIORITY = False
# Tests keep their processes busy: reviews there never wait (test_review.py tests it).
FAIRWAY_REVIEW_BUSY_CPU = None

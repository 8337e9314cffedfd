"""The drill's site: three hosts made for one test and taken down after it, passed or not."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
from django.db import connection

from tests import services
from tests.conftest import database_url, require
from tests.drill.site import APPLICATION_NAME, SECRET_KEY, Site


@pytest.fixture
def drill_needs() -> None:
    """Skip (under CI: fail) before anything is made where the hosts cannot be."""
    for need in ("namespaces", "nginx", "postgres", "redis"):
        require(need)


@pytest.fixture
def site(drill_needs, transactional_db, settings) -> Iterator[Site]:
    """Two app hosts and a front host serving the test database, their processes
    started (`await site.ready()` waits for them). The test signs its players'
    sessions with the app hosts' secret key."""
    url, redis_url = database_url(), os.environ.get("REDIS_URL", "")
    if not url.startswith("postgres") or not redis_url:
        problem = "the drill runs on PostgreSQL and Redis (DATABASE_URL, REDIS_URL)"
        if services.in_ci():
            pytest.fail(f"{problem}: CI needs it.")
        pytest.skip(problem)
    settings.SECRET_KEY = SECRET_KEY
    drill = Site(url, redis_url)
    try:
        drill.open()
        yield drill
    finally:
        problems = drill.close()
        _sessions_closed(seconds=10)
        assert not problems, f"taking the hosts down: {problems}"


def _sessions_closed(seconds: float) -> None:
    """Wait until PostgreSQL has seen the app hosts' connections close: the test
    database is dropped at the end of the run, and not while others use it."""
    deadline = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [APPLICATION_NAME],
            )
            if not cursor.fetchone()[0]:
                return
            time.sleep(0.1)

"""Whether this worker can serve: the checks behind `/readyz` (`config.ops` answers it).

A worker is ready when its database answers, every migration the code knows of is
applied there, and its channel layer carries a message from this process to itself
and back (through Redis in production, so a worker cut off from Redis is not ready:
its viewers would miss the news of other workers' moves). Each check is bounded by
FAIRWAY_READY_TIMEOUT seconds: a database or Redis that hangs makes the worker not
ready, not the check wait.

The database is asked on a thread of its own, one question at a time, so that checks
never take a thread live play wants; the migrations the code knows of are read from
disk once per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import secrets
from concurrent.futures import ThreadPoolExecutor

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

#: The one thread that asks the database for the checks: a database that hangs holds
#: it, and the checks behind it time out.
CHECKS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readiness")

#: How long a channel's cancelled receive is given to let the channel go.
LET_GO_SECONDS = 0.05


async def off_the_loop(func, *args, thread: ThreadPoolExecutor = CHECKS):
    """`func(*args)` on `thread` (the checks' by default), its database connection
    handled as a request's is (closed if broken or past its age)."""

    def call():
        close_old_connections()
        try:
            return func(*args)
        finally:
            close_old_connections()

    return await asyncio.get_running_loop().run_in_executor(thread, call)


async def readiness() -> dict[str, bool]:
    """Each check by name, and whether it passed."""
    timeout = settings.FAIRWAY_READY_TIMEOUT
    (answers, migrated), carried = await asyncio.gather(
        _database(timeout), channel_layer_carries(timeout)
    )
    return {"database": answers, "migrations": migrated, "channel_layer": carried}


async def _database(timeout: float) -> tuple[bool, bool]:
    try:
        return await asyncio.wait_for(off_the_loop(database_state), timeout)
    except TimeoutError:
        return False, False


def database_state() -> tuple[bool, bool]:
    """Whether the database answers, and whether every migration is applied there."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        applied = set(MigrationRecorder(connection).applied_migrations())
    except DatabaseError:
        return False, False
    return True, all(
        key in applied or (replaces and set(replaces) <= applied)
        for key, replaces in known_migrations()
    )


@functools.cache
def known_migrations() -> tuple[tuple[tuple[str, str], tuple[tuple[str, str], ...]], ...]:
    """Every migration of the code as (its key, the keys it replaces): a squashed
    migration is recorded as the migrations it replaces."""
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    return tuple((key, tuple(graph.nodes[key].replaces or ())) for key in graph.nodes)


async def channel_layer_carries(timeout: float) -> bool:
    """Whether a message sent to a new channel of this process comes back within
    `timeout` seconds."""
    layer = get_channel_layer()
    if layer is None:
        return False
    token = secrets.token_hex(8)
    channel, stage, carried = None, "new", False
    try:
        async with asyncio.timeout(timeout):
            channel = await layer.new_channel("readyz.")
            stage = "send"
            await layer.send(channel, {"type": "ready.check", "token": token})
            stage = "receive"
            carried = (await layer.receive(channel)).get("token") == token
            stage = "done"
    except Exception:  # Redis refusing, gone or too slow: not ready
        carried = False
    if stage in ("send", "done"):
        await _let_go(layer, channel)
    return carried


async def _let_go(layer, channel: str) -> None:
    """End `channel`. A layer has no call for it; a receive that is cancelled does it
    (channels-redis unsubscribes from Redis, the in-memory layer drops its queue), so
    one is started and cut short. A receive cut short by the check's own timeout has
    ended its channel already."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(layer.receive(channel), LET_GO_SECONDS)

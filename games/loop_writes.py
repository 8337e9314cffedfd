"""Moves written from the event loop (PostgreSQL): the seam of the hot path's one write.

A move on a version this process holds needs no read: the event loop derives it,
renders its frames ahead and writes it with the one statement of `store.write` over an
asynchronous connection of the loop's own pool, then announces it. Handing it to a move
thread instead cost every move several thread switches and GIL hand-overs, which the
load benchmark showed as 10-15% of the server's CPU at 150-200 tables.

Only a move in the middle of a hole takes this way; `moves` chooses, and says why.
A move that ends the hole (its scores, a league's standings), a deal, a seat changing
hands, a version the process does not hold, a move the kept copy refuses, a write that
finds the table moved on, or no connection free within `CONNECTION_WAIT`: each is
written by `services._change` on a move thread, which reads the table and decides.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import weakref

from django.conf import settings
from django.db import connections
from psycopg import AsyncConnection, AsyncCursor
from psycopg_pool import AsyncConnectionPool, PoolClosed, PoolTimeout

from . import store

#: Seconds a move waits for one of the loop's connections before it takes a move thread
#: (the database restarting, or every connection busy).
CONNECTION_WAIT = 1.0

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncConnectionPool] = (
    weakref.WeakKeyDictionary()
)
_connections: weakref.WeakSet = weakref.WeakSet()


class Unavailable(Exception):
    """No connection of the loop's could be had: nothing was sent."""


def enabled() -> bool:
    """Whether moves may be written from the loop: on PostgreSQL, unless turned off."""
    return settings.FAIRWAY_LOOP_WRITES and _on_postgresql()


@functools.cache
def _on_postgresql() -> bool:
    # The database's backend is the process's for its lifetime; the connection handler's
    # per-context lookup costs each move as much as a small render.
    return connections["default"].vendor == "postgresql"


class _Connection(AsyncConnection):
    """One of the loop's connections, with the one cursor its moves are written with: it
    keeps its types' adapters from one move to the next (a new cursor looks them up)."""

    @functools.cached_property
    def writer(self) -> AsyncCursor:
        return self.cursor()


async def _opened(connection) -> None:
    _connections.add(connection)


async def _pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    pool = _pools.get(loop)
    if pool is None:
        # As Django connects (its adapters, prepared statements), in autocommit.
        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)
        params["autocommit"] = True
        pool = _pools[loop] = AsyncConnectionPool(
            connection_class=_Connection,
            kwargs=params,
            min_size=settings.FAIRWAY_MOVE_THREADS,
            open=False,
            configure=_opened,
            name="loop-writes",
        )
        await pool.open()
    return pool


async def write(change: store.Change) -> int | None:
    """`store.write(change)` from the event loop: the id of the hole written, or None when
    the table is no longer at `change.version`. A connection that breaks raises Django's
    error (the move may or may not have been made); Unavailable when none was had."""
    sql, values = store.write_statement(change)
    pool = await _pool()
    try:
        conn = await pool.getconn(timeout=CONNECTION_WAIT)
    except (PoolTimeout, PoolClosed) as error:
        raise Unavailable from error
    try:
        with connections["default"].wrap_database_errors:
            await conn.writer.execute(sql, values, prepare=True)
            row = await conn.writer.fetchone()
    finally:
        await pool.putconn(conn)  # a broken one is dropped, and replaced
    return row[0] if row else None


async def check() -> None:
    """After a connection turned out broken (PostgreSQL restarted): test the loop's idle
    connections and replace those that fail (as `store.discard_broken_connections`)."""
    pool = _pools.get(asyncio.get_running_loop())
    if pool is not None:
        await pool.check()


async def close() -> None:
    """Close the running loop's pool (the server stops)."""
    pool = _pools.pop(asyncio.get_running_loop(), None)
    if pool is not None:
        await pool.close()


def forget() -> None:
    """Drop every loop's pool and close its connections at once, whether its loop still
    runs or not (a test's loop is gone, and the test database must be let go)."""
    for loop, pool in list(_pools.items()):
        if not loop.is_closed() and not loop.is_running():
            with contextlib.suppress(Exception):
                loop.run_until_complete(pool.close(timeout=1.0))
    _pools.clear()
    for connection in list(_connections):
        connection.pgconn.finish()
    _connections.clear()

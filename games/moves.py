"""Where a change in play is written: the one seam between the event loop and the
database.

A consumer or the driver, on the event loop, changes a table in play only through
these coroutines; each derives, writes and announces through `services`, and the
choice of where the write runs is made here alone:

- a player's move in the middle of a hole, on the version this process holds
  (`services.loop_step`), is written from the event loop (`loop_writes`) on
  PostgreSQL: it needs no read, and handing it to a thread cost every move several
  thread switches and GIL hand-overs, 10-15% of the server's CPU at 150-200 tables in
  the load benchmark;
- anything else (a move that ends a hole or the match, a deal, a bot's or the timer's
  move, a version this process does not hold, a move the kept copy refuses, a write
  from the loop that found the table moved on or had no connection within
  `loop_writes.CONNECTION_WAIT`) is written by `services`' one way on a move thread
  (`on_move_thread`), which reads the table when it must and decides;
- on SQLite, everything runs on the database thread: one writer at a time.

A connection that breaks in the middle (PostgreSQL restarting) raises Django's error;
`recover` then lets go of the broken connections on both paths.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.db import connections

from . import loop_writes, services, store
from .services import KeptCopy, MoveResult

_move_threads: ThreadPoolExecutor | None = None


@functools.cache
def on_move_thread(func: Callable) -> Callable:
    """`func` (a service that changes a table) as a coroutine: on PostgreSQL on a few
    threads of its own (FAIRWAY_MOVE_THREADS), each with its own connection, so that a
    move waits neither for other tables' moves nor for the reads on the one database
    thread (the version keeps two moves of a table from both landing); on SQLite, one
    writer at a time, on the database thread."""
    global _move_threads
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    if _move_threads is None:
        _move_threads = ThreadPoolExecutor(
            max_workers=settings.FAIRWAY_MOVE_THREADS, thread_name_prefix="moves"
        )
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_move_threads)


async def play(
    *, table_id: int, player, action: dict, version: int, kept: KeptCopy | None = None
) -> MoveResult:
    """`player`'s action on the table at `version` (`services.apply_move`), written from
    the event loop when it may be, else on a move thread.

    `kept`: the table at `version` as this process holds it (`frames.kept_copy`).
    """
    if kept is not None and player is not None and loop_writes.enabled():
        step = services.loop_step(kept, player=player, action=action, version=version)
        if step is not None:
            kept.ahead(step)
            with contextlib.suppress(loop_writes.Unavailable):  # then on a move thread
                if await loop_writes.write(services.rows(step)) is not None:
                    return services.written(step)
                kept = None  # moved on meanwhile: the table as it stands decides
    return await on_move_thread(services.apply_move)(
        table_id=table_id, player=player, action=action, version=version, kept=kept
    )


async def next_hole(
    *, table_id: int, version: int, by=None, kept: KeptCopy | None = None
) -> MoveResult:
    """Deal the next hole (`services.next_hole`), on a move thread."""
    return await on_move_thread(services.next_hole)(
        table_id=table_id, version=version, by=by, kept=kept
    )


async def act(*, table_id: int, version: int, now: datetime | None = None) -> MoveResult:
    """What the table waits for, if due by `now` (`services.act_for_table`), on a move
    thread."""
    return await on_move_thread(services.act_for_table)(table_id=table_id, version=version, now=now)


async def recover() -> None:
    """After a connection broke (PostgreSQL restarted): test the idle connections of
    both paths and replace those that fail."""
    await database_sync_to_async(store.discard_broken_connections)()
    await loop_writes.check()


async def close() -> None:
    """The server stops: let go of the event loop's connections."""
    await loop_writes.close()

"""What the server plays itself: bots' turns, timed-out turns and the next deals.

The per-process driver keeps tables moving.

It holds no game state. It asks the database which tables wait on the server and acts
through the services with the version it read, so two processes (or a process and a
player) never apply the same move twice. The server starts it at start-up
(`config.asgi`), consumers poke it after every change, and a periodic sweep catches the
rest, such as tables left waiting by a server that was stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Collection
from datetime import datetime, timedelta

from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import idle, moves, services, store
from .plays import pending

logger = logging.getLogger(__name__)

#: Every table that waits on the server is looked at this often; a table that changed
#: is looked at once poked, and a table found waiting when it falls due.
SWEEP_SECONDS = 2.0
#: Turn-based tables whose deadline falls within this many seconds are read by a sweep
#: and acted for when it falls; the rest wait in the database.
DEADLINE_HORIZON = 30.0
#: Matches left idle (FAIRWAY_IDLE_HOURS) are looked for this often.
IDLE_SWEEP_SECONDS = 60.0


class Driver:
    """One asyncio task per event loop that acts for tables when their wait is due."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()
        #: Tables changed since the last look.
        self.changed: set[int] = set()
        #: When each table found waiting falls due (the loop's clock).
        self.due: dict[int, float] = {}
        self.next_sweep = 0.0
        self.next_idle_sweep = 0.0
        # Set when the server stops: it acts for no more tables, even in a look under way.
        self.halted = threading.Event()
        self.task = asyncio.get_running_loop().create_task(self.run())

    def poke(self, table_id: int | None = None) -> None:
        """Look again now: the table `table_id` changed (None: any may have)."""
        if table_id is None:
            self.next_sweep = 0.0
        else:
            self.changed.add(table_id)
        self.wake.set()

    async def look(self, table_ids: set[int] | None) -> dict[int, float]:
        """Act at every due table of `table_ids` (None: all): the reading on the database
        thread, the acting on the move threads, several tables at once."""
        if table_ids is None and not self.halted.is_set():
            await self.sweep_idle()
        waits, due = await database_sync_to_async(due_tables)(table_ids=table_ids)
        now = timezone.now()

        async def act_at(table_id: int, version: int) -> None:
            if self.halted.is_set():
                return
            # GameError: another process acted first, or the table moved on.
            with contextlib.suppress(services.GameError):
                await moves.act(table_id=table_id, version=version, now=now)

        await asyncio.gather(*(act_at(table_id, version) for table_id, version in due))
        return waits

    async def sweep_idle(self) -> None:
        """Abandon the matches left idle too long (`idle.abandon_idle_tables`), at
        most once every IDLE_SWEEP_SECONDS of the periodic sweeps."""
        now = asyncio.get_running_loop().time()
        if now < self.next_idle_sweep:
            return
        self.next_idle_sweep = now + IDLE_SWEEP_SECONDS
        await database_sync_to_async(idle.abandon_idle_tables)()

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            now = loop.time()
            self.wake.clear()
            if now >= self.next_sweep:
                # Every table: those no connection here pokes for, or left by a server
                # that stopped.
                look_at, self.next_sweep = None, now + SWEEP_SECONDS
            else:
                look_at = self.changed | {t for t, at in self.due.items() if at <= now}
            self.changed = set()
            try:
                if look_at is None or look_at:
                    found = await self.look(look_at)
                    if look_at is None:
                        self.due.clear()
                    else:
                        for table_id in look_at:
                            self.due.pop(table_id, None)
                    now = loop.time()
                    self.due.update((t, now + wait) for t, wait in found.items())
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.exception("The table driver failed; it retries at the next sweep.")
                if isinstance(error, (OperationalError, InterfaceError)):
                    # PostgreSQL restarted: the pool's other idle connections are broken too.
                    with contextlib.suppress(Exception):
                        await database_sync_to_async(store.discard_broken_connections)()
                self.due.clear()
                self.next_sweep = loop.time() + SWEEP_SECONDS
            if self.changed:
                continue
            wait = min([self.next_sweep, *self.due.values()]) - loop.time()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=wait)


_drivers: dict[asyncio.AbstractEventLoop, Driver] = {}


def ensure_started() -> Driver:
    """The running loop's driver, started on first use."""
    loop = asyncio.get_running_loop()
    driver = _drivers.get(loop)
    if driver is None or driver.task.done():
        for old in [key for key in _drivers if key.is_closed()]:
            del _drivers[old]
        driver = _drivers[loop] = Driver()
    return driver


async def stop() -> None:
    """Stop the running loop's driver (the server is stopping, or a test ends): it acts
    for no more tables."""
    driver = _drivers.pop(asyncio.get_running_loop(), None)
    if driver is not None:
        driver.halted.set()
        driver.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await driver.task


# --- acting for the tables that are due ---------------------------------------------


def due_tables(
    now: datetime | None = None, table_ids: Collection[int] | None = None
) -> tuple[dict[int, float], list[tuple[int, int]]]:
    """Of the playing tables (or `table_ids`), those that wait on the server: the seconds
    until each falls due (0 when due), and the (table, version) of those due now."""
    now = now or timezone.now()
    waits: dict[int, float] = {}
    due = []
    # A turn-based table is read once its deadline is near: looked at when it falls due.
    horizon = now + timedelta(seconds=DEADLINE_HORIZON)
    for table, hole in store.waiting_tables(table_ids, due_by=horizon):
        waiting = pending(table, hole, table.bot_seats)
        if waiting is None:
            continue
        waits[table.pk] = max(0.0, (waiting.due - now).total_seconds())
        if waiting.due <= now:
            due.append((table.pk, table.version))
    return waits, due

"""The per-process driver that keeps tables moving: bots' turns, the turn timer, next deals.

It holds no game state. It asks the database which tables wait on the server and acts
through the services with the version it read, so two processes (or a process and a
player) never apply the same move twice. Consumers start it lazily and poke it after
every change; a periodic sweep catches the rest, such as tables left waiting by a
server that was stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading

from channels.db import database_sync_to_async

from . import services

logger = logging.getLogger(__name__)

SWEEP_SECONDS = 2.0


class Driver:
    """One asyncio task per event loop that acts for tables when their wait is due."""

    def __init__(self) -> None:
        self.wake = asyncio.Event()
        # Set when the server stops: a sweep under way on the database thread ends early.
        self.halted = threading.Event()
        self.task = asyncio.get_running_loop().create_task(self.run())

    def poke(self) -> None:
        """Look again now: something changed."""
        self.wake.set()

    async def run(self) -> None:
        while True:
            try:
                keep_going = lambda: not self.halted.is_set()  # noqa: E731
                wait = await database_sync_to_async(services.drive_due)(keep_going=keep_going)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("The table driver failed; it retries at the next sweep.")
                wait = SWEEP_SECONDS
            wait = SWEEP_SECONDS if wait is None else min(max(wait, 0.0), SWEEP_SECONDS)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=wait)
            self.wake.clear()


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

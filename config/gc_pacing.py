"""Short, frequent collections of young objects, and none that walks the old ones.

Python collects its youngest generation once 700 more container objects were made
than freed. The server replaces what it holds (a table's newest version takes the
place of the one before), so it frees about as many objects as it makes: the count
hardly moves while the young generation grows. Left alone, the young generation held
some 25,000 objects by the time it was collected, every second or two under load,
and the server stood still for 10-15 ms each time (a move's p99 doubled). Collecting
it on a clock keeps it small and each pause well under a millisecond.

What outlives a young collection used to be walked again and again by the older
collections: every connection's consumer, session and player, and each connection's
wait for its next message, which lives about a second. At 250 tables on one process
the middle collections took 8-20 ms and the full ones 150-260 ms (two in 30 seconds),
with the server standing still (the moves around them went past 100 ms). So what
outlives a young collection is frozen (`gc.freeze()`): no later collection walks it.
A frozen object that becomes garbage is still freed at once by its reference count;
only garbage in cycles waits, and the server makes little of it but for a closed
connection's (about 70 objects each, in daphne's and Twisted's protocol objects).
Those are swept as Python sweeps them in a full collection, but later: once the frozen
objects doubled since the last sweep (`SWEEP_GROWTH`, and by at least `SWEEP_AT_LEAST`),
everything is unfrozen, collected in full and frozen again. That one pause is as long
as a full collection's (130-260 ms at 250 tables), so it comes at most every five
minutes (`SWEEP_SPACING`), not every few seconds: a server filling up doubles its
frozen objects several times, while the garbage it waits to sweep is only what
connections closed in those minutes left.
"""

from __future__ import annotations

import gc
import logging
import threading
import time

logger = logging.getLogger(__name__)

#: Seconds between two collections of the young generation.
INTERVAL = 0.05
#: A sweep of everything once the frozen objects grew by this share since the last one
#: (Python's own rule for its full collections is a quarter: this trades memory, at
#: most as much again in garbage, for far fewer pauses)...
SWEEP_GROWTH = 1.0
#: ...and by at least this many.
SWEEP_AT_LEAST = 50_000
#: Seconds at least from the start, or the last sweep, to the next one.
SWEEP_SPACING = 300.0
#: Seconds between two counts of the frozen objects (a walk of them all: a few ms).
COUNT_EVERY = 5.0

_started = threading.Lock()
_thread: threading.Thread | None = None


def _run(interval: float) -> None:
    middle = gc.get_threshold()[1]
    swept = gc.get_freeze_count()
    next_count = time.monotonic() + max(COUNT_EVERY, SWEEP_SPACING)
    while True:
        time.sleep(interval)
        if time.monotonic() >= next_count:
            next_count = time.monotonic() + COUNT_EVERY
            frozen = gc.get_freeze_count()
            if frozen > max(swept * (1 + SWEEP_GROWTH), swept + SWEEP_AT_LEAST):
                began = time.perf_counter()
                gc.unfreeze()
                gc.collect()
                gc.freeze()
                swept = gc.get_freeze_count()
                next_count = time.monotonic() + max(COUNT_EVERY, SWEEP_SPACING)
                logger.info(
                    "gc sweep: %d frozen objects, %d kept, in %.0f ms",
                    frozen,
                    swept,
                    (time.perf_counter() - began) * 1000,
                )
                continue
        # A young collection asked for counts towards the middle generation's turn but,
        # unlike one Python starts, never starts it: the middle one is asked for too
        # (it holds only what outlived the young ones since the last freeze).
        gc.collect(1 if gc.get_count()[1] >= middle else 0)
        gc.freeze()


def start(interval: float = INTERVAL) -> None:
    """Collect the young generation every `interval` seconds from now on and freeze what
    survives, sweeping everything as the frozen objects grow (once per process; an
    `interval` of 0 leaves the collector as it is)."""
    global _thread
    if interval <= 0:
        return
    with _started:
        if _thread is None:
            _thread = threading.Thread(target=_run, args=(interval,), name="gc-pacing", daemon=True)
            _thread.start()

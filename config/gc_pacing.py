"""Short, frequent collections of young objects instead of rare, long ones.

Python collects its youngest generation once 700 more container objects were made
than freed. The server replaces what it holds (a table's newest version takes the
place of the one before), so it frees about as many objects as it makes: the count
hardly moves while the young generation grows. Left alone, the young generation held
some 25,000 objects by the time it was collected, every second or two under load,
and the server stood still for 10-15 ms each time (a move's p99 doubled). Collecting
it on a clock keeps it small and each pause well under a millisecond.

What outlives a young collection is old before long: a table's version lives a second
or so. Python's full collection (60-90 ms here) comes once ten middle ones have run and
a quarter of the oldest generation is new, which under load came several times a minute;
it is put off to every hundred middle collections instead. A middle collection comes
after ten young ones, paced or not. Little cyclic garbage is
made (a middle collection under load finds a few objects), so memory keeps level.
"""

from __future__ import annotations

import gc
import threading
import time

#: Seconds between two collections of the young generation.
INTERVAL = 0.05
#: Middle collections between two full ones (Python's default: 10).
FULL_EVERY = 100

_started = threading.Lock()
_thread: threading.Thread | None = None


def _run(interval: float) -> None:
    middle = gc.get_threshold()[1]
    while True:
        time.sleep(interval)
        # A young collection asked for counts towards the middle generation's turn but,
        # unlike one Python starts, never starts it: left alone, the middle generation
        # waited for hundreds of young collections, and took 20 ms once it ran.
        gc.collect(1 if gc.get_count()[1] >= middle else 0)


def start(interval: float = INTERVAL) -> None:
    """Collect the young generation every `interval` seconds from now on, and the
    oldest seldom (once per process; 0 leaves the collector as it is)."""
    global _thread
    if interval <= 0:
        return
    with _started:
        if _thread is None:
            young, middle, _full = gc.get_threshold()
            gc.set_threshold(young, middle, FULL_EVERY)
            _thread = threading.Thread(target=_run, args=(interval,), name="gc-pacing", daemon=True)
            _thread.start()

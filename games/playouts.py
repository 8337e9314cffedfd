"""The reviews' child process: the engine's playouts, at the machine's idle priority.

It runs in a fresh interpreter (multiprocessing's "spawn"), so it imports nothing of
Django or of the project but the pure engine (a contract in pyproject.toml).
"""

from __future__ import annotations

import os


def lower_priority() -> None:
    """Take a core only when nothing else would run on it (Linux's idle scheduling),
    else come last by niceness: the server's moves go first."""
    if hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    elif hasattr(os, "nice"):
        os.nice(19)


def ready() -> bool:
    """Nothing: sent to start the child process before any review needs it."""
    return True

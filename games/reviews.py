"""Hole reviews: each of a player's decisions in a finished hole beside the one the
engine's evaluator rates best from the same view, worked out once and kept.

A review takes seconds of playouts, so none is worked out on the way of a move: once a
hole's end is committed, its players' reviews are queued for one worker thread of the
process (FAIRWAY_REVIEW_AFTER_HOLE). The thread reads and writes the database; the
playouts themselves run in a child process at the machine's idle priority
(`playouts`), as seconds of Python on a thread of the server would hold the
interpreter's lock from the moves. The queue is bounded and lives in memory only: a
review dropped from a full queue, or lost with a stopped server, is queued again by
its first look (worked out there if the queue is still full), and the `review_holes`
command catches up the rest.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from django.conf import settings
from django.db import close_old_connections, connections, transaction

from games.engine.evaluate import Decision, review_seat

from . import metrics, playouts, selectors
from .models import Hole, HoleReview
from .plays import GameError
from .store import SeatRow

logger = logging.getLogger(__name__)

#: Playouts per action in a stored review: enough to rank a blunder, cheap enough to
#: review a hole in seconds.
REVIEW_SAMPLES = 8


def review_hole(
    *,
    hole: Hole,
    position: int,
    samples: int = REVIEW_SAMPLES,
    judge: Callable[..., list[Decision]] = review_seat,
) -> HoleReview:
    """The review of one seat's decisions in a finished hole, worked out once and kept.

    Every decision is judged from the seat's view when it was made, never from the
    face-down cards. The judgement is seeded by the hole, so it is the same wherever
    it is computed (the worker after the hole, the `review_holes` command, or the
    first look at it). `judge` is `review_seat`, or what runs it elsewhere.
    """
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is not None:
        return stored
    if hole.finished_at is None:
        raise GameError("A hole is reviewed once it is over.")
    seats = hole.seat_positions
    made = list(hole.moves.order_by("seq"))
    moves = [(seats.index(move.seat), move.action) for move in made]
    decisions = judge(
        selectors.hole_start(hole),
        moves,
        seats.index(position),
        samples=samples,
        seed=hole.pk,
        # A bot's moves for the seat (its player away, or out of time) are not theirs.
        skip=frozenset(index for index, move in enumerate(made) if move.by_bot),
    )
    review, created = HoleReview.objects.get_or_create(
        hole=hole,
        position=position,
        defaults={
            "decisions": [
                {
                    "version": decision.version,
                    "played": decision.played.action,
                    "played_strokes": round(decision.played.strokes, 3),
                    "best": decision.best.action,
                    "best_strokes": round(decision.best.strokes, 3),
                    "cost": round(decision.cost, 3),
                }
                for decision in decisions
            ],
            "given_away": round(sum(decision.cost for decision in decisions), 3),
            "samples": samples,
        },
    )
    if created:
        metrics.reviews.inc()
    return review


# --- after the hole, on a worker thread ----------------------------------------------------

_lock = threading.Lock()
_jobs: queue.Queue[tuple[int, int]] | None = None
_playouts: ProcessPoolExecutor | None = None
#: (hole id, position) queued or being worked out in this process, and since when
#: (time.monotonic()).
_queued: dict[tuple[int, int], float] = {}
#: (hole id, position) whose review failed here: not queued again by this process.
_failed: set[tuple[int, int]] = set()


def review_after_hole(sender, hole: Hole, seats: Mapping[int, SeatRow], **kwargs) -> None:
    """`hole_finished`: once the hole's end is committed, queue the reviews of the seats
    a player holds (a bot's seat is not reviewed). Nothing more on the move's way."""
    if not settings.FAIRWAY_REVIEW_AFTER_HOLE:
        return
    positions = [p for p in hole.seat_positions if p in seats and seats[p].player_id]
    if positions:
        hole_id = hole.pk
        transaction.on_commit(lambda: schedule(hole_id, positions))


def schedule(hole_id: int, positions: Iterable[int]) -> bool:
    """Queue the reviews of `hole_id` for `positions` on this process's worker, started
    on first use. False once FAIRWAY_REVIEW_QUEUE reviews wait: those left out are
    dropped, not waited for."""
    global _jobs
    with _lock:
        if _jobs is None:
            _jobs = queue.Queue()
            threading.Thread(target=_work, args=(_jobs,), name="reviews", daemon=True).start()
        for position in positions:
            key = (hole_id, position)
            if key in _queued or key in _failed:
                continue
            if len(_queued) >= settings.FAIRWAY_REVIEW_QUEUE:
                logger.warning("Reviews queue full: hole %s is left to the catch-up.", hole_id)
                return False
            _queued[key] = time.monotonic()
            _jobs.put_nowait(key)
    return True


def queued(hole_id: int, position: int) -> bool:
    """Whether this process's worker has the review to do."""
    return (hole_id, position) in _queued


def backlog() -> tuple[int, float]:
    """The reviews this process has still to work out, and the seconds the oldest of
    them has waited (0 when none waits): the monitoring's view of the queue."""
    with _lock:
        oldest = min(_queued.values(), default=None)
        depth = len(_queued)
    return depth, 0.0 if oldest is None else time.monotonic() - oldest


def failed(hole_id: int, position: int) -> bool:
    """Whether the review failed on this process's worker (its error is logged)."""
    return (hole_id, position) in _failed


def stored_or_queued(*, hole: Hole, position: int) -> HoleReview | None:
    """The stored review, or None while the worker works it out (queued now if it had
    not been). Worked out here, at once, when no worker takes it: none is enabled, or
    its queue is full. A review that failed on the worker is not tried again on every
    look (the page would poll for it): GameError."""
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is not None:
        return stored
    if failed(hole.pk, position):
        raise GameError("This review could not be worked out.")
    if settings.FAIRWAY_REVIEW_AFTER_HOLE and schedule(hole.pk, [position]):
        return None
    return review_hole(hole=hole, position=position)


def forget() -> None:
    """Forget the reviews that failed here (tests: a rolled-back test's hole ids are
    used again by the next)."""
    with _lock:
        _failed.clear()


def wait() -> None:
    """Until every review queued in this process is stored or given up: tests wait so
    rather than for a while."""
    jobs = _jobs
    if jobs is not None:
        jobs.join()


class Stopping(Exception):
    """The server is stopping: the child takes no more reviews."""


def _child() -> ProcessPoolExecutor:
    """The reviews' child process (see `_judge_apart`), started if it is not."""
    global _playouts
    if _playouts is None:
        _playouts = ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=playouts.lower_priority if settings.FAIRWAY_REVIEW_IDLE_PRIORITY else None,
        )
    return _playouts


def start_child() -> None:
    """Start the reviews' child process with the server. A fresh interpreter takes a
    fraction of a second of a core to start, at normal priority until it lowers its
    own: started at the first hole's end, that landed on the moves made meanwhile."""
    if settings.FAIRWAY_REVIEW_AFTER_HOLE:
        with contextlib.suppress(RuntimeError):  # the server is already stopping
            _child().submit(playouts.ready)


def _judge_apart(*args, **kwargs) -> list[Decision]:
    """`review_seat` in the worker's child process, started on first use ("spawn": a
    fresh interpreter that imports the pure engine alone, not a fork of the server), at
    the machine's idle priority so that the server's moves go first."""
    global _playouts
    # The thread's connection goes back to the pool while the child works.
    connections.close_all()
    try:
        future = _child().submit(review_seat, *args, **kwargs)
    except RuntimeError:
        raise Stopping from None
    try:
        return future.result()
    except BrokenProcessPool:
        # The child died, or could not start (a main script that runs the server on
        # import): this review is worked out here, and the next one starts a child anew.
        logger.warning("The reviews' child process failed: a review runs on the thread.")
        _playouts.shutdown(wait=False)
        _playouts = None
        return review_seat(*args, **kwargs)


#: How long the worker watches this process's CPU before each review (`_busy`).
BUSY_LOOK_SECONDS = 0.5


def _cpu_seconds() -> float:
    """CPU time of this process's threads (not of its children)."""
    times = os.times()
    return times.user + times.system


def _busy() -> bool:
    """Whether this process is busier than FAIRWAY_REVIEW_BUSY_CPU of a core: a review
    then waits. The child that works it out runs at idle priority, but shares the
    machine's cores, caches and memory with the moves: the moves go first."""
    share = settings.FAIRWAY_REVIEW_BUSY_CPU
    if share is None:
        return False
    before, started = _cpu_seconds(), time.monotonic()
    time.sleep(BUSY_LOOK_SECONDS)
    return (_cpu_seconds() - before) / (time.monotonic() - started) > share


def _work(jobs: queue.Queue[tuple[int, int]]) -> None:
    """The worker: one review after another, each on a connection of its own that is
    closed when it is done, each once the process is not busy (`_busy`). A failure is
    logged, and the review left to the catch-up."""
    while True:
        hole_id, position = jobs.get()
        while _busy():
            pass  # each look waits BUSY_LOOK_SECONDS
        try:
            close_old_connections()
            hole = Hole.objects.select_related("table").filter(pk=hole_id).first()
            if hole is not None:
                review_hole(hole=hole, position=position, judge=_judge_apart)
        except Stopping:
            logger.info("Hole %s is left to the catch-up: the server is stopping.", hole_id)
        except Exception:
            logger.exception("The review of seat %s in hole %s failed.", position, hole_id)
            with _lock:
                _failed.add((hole_id, position))
        finally:
            with _lock:
                _queued.pop((hole_id, position), None)
            connections.close_all()
            jobs.task_done()

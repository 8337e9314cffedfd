"""Hole reviews: each of a player's decisions in a finished hole beside the one the
engine's evaluator rates best from the same view, worked out once and kept.

A review takes seconds of playouts, so none is worked out on the way of a move: once a
hole's end is committed, its players' reviews are queued as a task (`review_seats`,
FAIRWAY_REVIEW_AFTER_HOLE), which a task worker process works out (`manage.py
db_worker`, at a lower priority than the servers: the moves go first). The queue lives
in the database: a review survives a restart, a failed one is tried again
(`games.tasks`), and the `review_holes` command catches up the rest (holes that ended
with reviews off).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.conf import settings
from django.db.models import QuerySet
from django_tasks import TaskResultStatus, task
from django_tasks_db.models import DBTaskResult

from games.engine.evaluate import review_seat

from . import selectors
from .models import Hole, HoleReview
from .plays import GameError
from .store import SeatRow
from .tasks import enqueue_on_commit

#: Playouts per action in a stored review: enough to rank a blunder, cheap enough to
#: review a hole in seconds.
REVIEW_SAMPLES = 8


def review_hole(
    *,
    hole: Hole,
    position: int,
    samples: int = REVIEW_SAMPLES,
) -> HoleReview:
    """The review of one seat's decisions in a finished hole, worked out once and kept.

    Every decision is judged from the seat's view when it was made, never from the
    face-down cards. The judgement is seeded by the hole, so it is the same wherever
    it is computed (the task after the hole, the `review_holes` command, or the
    first look at it).
    """
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is not None:
        return stored
    if hole.finished_at is None:
        raise GameError("A hole is reviewed once it is over.")
    seats = hole.seat_positions
    made = list(hole.moves.order_by("seq"))
    moves = [(seats.index(move.seat), move.action) for move in made]
    decisions = review_seat(
        selectors.hole_start(hole),
        moves,
        seats.index(position),
        samples=samples,
        seed=hole.pk,
        # A bot's moves for the seat (its player away, or out of time) are not theirs.
        skip=frozenset(index for index, move in enumerate(made) if move.by_bot),
    )
    review, _ = HoleReview.objects.get_or_create(
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
    return review


# --- after the hole, as a task ------------------------------------------------------------


@task()
def review_seats(hole_id: int, positions: list[int]) -> int:
    """The task: the reviews of `hole_id` for `positions`, those not stored yet. Safe to
    run again (a stored review is kept). Returns how many were worked out."""
    hole = Hole.objects.select_related("table").filter(pk=hole_id).first()
    if hole is None:
        return 0  # the hole's table was deleted meanwhile
    done = set(HoleReview.objects.filter(hole=hole).values_list("position", flat=True))
    missing = [position for position in positions if position not in done]
    for position in missing:
        review_hole(hole=hole, position=position)
    return len(missing)


def review_after_hole(sender, hole: Hole, seats: Mapping[int, SeatRow], **kwargs) -> None:
    """`hole_finished`: once the hole's end is committed, queue the reviews of the seats
    a player holds (a bot's seat is not reviewed). Nothing more on the move's way."""
    if not settings.FAIRWAY_REVIEW_AFTER_HOLE:
        return
    positions = [p for p in hole.seat_positions if p in seats and seats[p].player_id]
    if positions:
        enqueue_on_commit(review_seats, hole.pk, positions)


def _tasks_of(hole: Hole) -> QuerySet[DBTaskResult]:
    """The queue's rows of `hole`'s reviews, latest first (none on another backend):
    those queued since it ended (the backend's `prune_db_task_results` keeps the rest
    of the table short)."""
    return DBTaskResult.objects.filter(
        task_path=review_seats.module_path,
        enqueued_at__gte=hole.finished_at,
        args_kwargs__args__0=hole.pk,
    ).order_by("-enqueued_at")


def stored_or_queued(*, hole: Hole, position: int) -> HoleReview | None:
    """The stored review, or None while a task works it out (queued now if none was).
    Worked out here, at once, with reviews after the hole off. A review whose task
    failed for good is not queued again on every look (the page would poll for it):
    GameError."""
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is not None:
        return stored
    if not settings.FAIRWAY_REVIEW_AFTER_HOLE:
        return review_hole(hole=hole, position=position)
    latest = _tasks_of(hole).values_list("status", flat=True).first()
    if latest == TaskResultStatus.FAILED:
        raise GameError("This review could not be worked out.")
    if latest is None or latest == TaskResultStatus.SUCCESSFUL:
        # Not queued (the hole ended with reviews off), or done before this seat was
        # a player's: queued now. The immediate backend has it stored at once.
        review_seats.enqueue(hole.pk, [position])
        return HoleReview.objects.filter(hole=hole, position=position).first()
    return None

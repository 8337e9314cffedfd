"""Hole reviews: each of a player's decisions in a finished hole beside the one the
engine's evaluator rates best from the same view, worked out once and kept."""

from __future__ import annotations

from games.engine.evaluate import review_seat

from . import selectors
from .models import Hole, HoleReview
from .plays import GameError

#: Playouts per action in a stored review: enough to rank a blunder, cheap enough to
#: review a hole in seconds.
REVIEW_SAMPLES = 8


def review_hole(*, hole: Hole, position: int, samples: int = REVIEW_SAMPLES) -> HoleReview:
    """The review of one seat's decisions in a finished hole, worked out once and kept.

    Every decision is judged from the seat's view when it was made, never from the
    face-down cards. The judgement is seeded by the hole, so it is the same wherever
    it is computed (the `review_holes` command, or the first look at it).
    """
    stored = HoleReview.objects.filter(hole=hole, position=position).first()
    if stored is not None:
        return stored
    if hole.finished_at is None:
        raise GameError("A hole is reviewed once it is over.")
    seats = hole.seat_positions
    moves = [(seats.index(move.seat), move.action) for move in hole.moves.order_by("seq")]
    decisions = review_seat(
        selectors.hole_start(hole), moves, seats.index(position), samples=samples, seed=hole.pk
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

"""Placeholder for the match rules until the full engine lands."""

from __future__ import annotations

from dataclasses import dataclass

HOLES = 9


@dataclass(frozen=True)
class MatchStatus:
    over: bool
    next_hole_is_playoff: bool
    contenders: tuple[int, ...]
    winner: int | None
    totals: tuple[int, ...]
    places: tuple[int, ...]


def match_status(hole_scores: list[list[int | None]], players: int) -> MatchStatus:
    regulation = hole_scores[:HOLES]
    totals = tuple(sum(h[s] or 0 for h in regulation) for s in range(players))
    places = tuple(1 + sum(t < totals[s] for t in totals) for s in range(players))
    over = len(regulation) == HOLES
    winner = places.index(1) if over and places.count(1) == 1 else None
    return MatchStatus(over, False, tuple(range(players)), winner, totals, places)

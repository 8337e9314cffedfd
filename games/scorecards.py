"""Scorecards: one card per seat of a match, strokes per hole, total and place.

Live tables write a hole's strokes here when the hole ends; hand-played league tables
write all their holes at once. Totals and places are always recomputed from the
holes (by the engine's match rules), never typed in.
"""

from __future__ import annotations

from django.db import transaction

from games.engine.match import MatchStatus, match_status

from .models import Scorecard, ScorecardHole, Table


def open_scorecards(*, table: Table) -> list[Scorecard]:
    """Make sure every seat of `table` has its (empty) card, named as the seat is."""
    cards = []
    for seat in table.seats.select_related("player").order_by("position"):
        card, _ = Scorecard.objects.update_or_create(
            table=table,
            position=seat.position,
            defaults={"player": seat.player, "name": seat.name[:60]},
        )
        cards.append(card)
    return cards


def hole_scores(table: Table) -> list[list[int | None]]:
    """Strokes by hole then seat position; None where a seat did not play a hole."""
    cards = list(table.scorecards.order_by("position").prefetch_related("holes"))
    numbers = sorted({h.number for card in cards for h in card.holes.all()})
    by_card = [{h.number: h.strokes for h in card.holes.all()} for card in cards]
    return [[strokes.get(number) for strokes in by_card] for number in numbers]


@transaction.atomic
def record_hole(*, table: Table, number: int, strokes: dict[int, int]) -> MatchStatus:
    """Write one hole's strokes (by seat position) and refresh totals and places."""
    cards = {card.position: card for card in table.scorecards.all()}
    for position, value in strokes.items():
        ScorecardHole.objects.update_or_create(
            scorecard=cards[position], number=number, defaults={"strokes": value}
        )
    return refresh_results(table=table)


@transaction.atomic
def refresh_results(*, table: Table) -> MatchStatus:
    """Recompute every card's total and place of `table` from its holes."""
    cards = list(table.scorecards.order_by("position"))
    status = match_status(hole_scores(table), len(cards))
    for card in cards:
        card.total = status.totals[card.position]
        card.place = status.places[card.position] if status.over else None
    Scorecard.objects.bulk_update(cards, ["total", "place"])
    return status

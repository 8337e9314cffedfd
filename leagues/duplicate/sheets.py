"""Deal sheets: a paper table's holes on a duplicate night, dealt from its deal seed as
live play deals them, so its players lay out the same courses as the live tables."""

from __future__ import annotations

from dataclasses import dataclass

from games.engine import card_text, choose_first_dealer, dealer_for_hole, new_hole
from games.engine.match import HOLES
from games.models import Table

from ..guests import as_played, guests_on
from ..models import NightTable


@dataclass
class SheetSeat:
    position: int
    name: str
    #: The course as dealt, row by row, each card's short face.
    rows: list[list[str]]
    is_dealer: bool


@dataclass
class SheetHole:
    number: int
    seats: list[SheetSeat]
    first_discard: str


def first_dealer(table: Table) -> int:
    """The table's first dealer: as live play chooses it from the deal seed."""
    if table.first_dealer is not None:
        return table.first_dealer
    return choose_first_dealer(table.rules, table.seat_count, table.deal_seed)[0]


def deal_sheet(night_table: NightTable) -> list[SheetHole]:
    """Each regulation hole of a table as its deal seed deals it: every seat's course
    (face-down cards included) and the card that starts the discard pile."""
    table = night_table.table
    rules = table.rules
    guests = guests_on([night_table.night_id])
    names = [
        as_played(seat.name, guests.get((night_table.night_id, seat.player_id)))
        for seat in table.seats.select_related("player").order_by("position")
    ]
    dealer = first_dealer(table)
    holes = []
    for number in range(1, HOLES + 1):
        hole_dealer = dealer_for_hole(dealer, number - 1, table.seat_count)
        state = new_hole(rules, table.seat_count, seed=table.hole_seed(number), dealer=hole_dealer)
        seats = [
            SheetSeat(
                position=position,
                name=names[position],
                rows=[
                    [card_text(rules, card) for card in layout[row : row + rules.cols]]
                    for row in range(0, rules.size, rules.cols)
                ],
                is_dealer=position == hole_dealer,
            )
            for position, layout in enumerate(state.layouts)
        ]
        holes.append(SheetHole(number, seats, card_text(rules, state.discard_pile[-1])))
    return holes

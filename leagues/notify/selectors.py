"""Reads of "your turn" notices: whether a turn still waits on its player, and what a
mail may say of a table (its name, the other players, the deadline: never a card)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from games import pace
from games.models import Hole, Seat, Table

from .models import TurnNotice


@dataclass(frozen=True)
class WaitingTable:
    """One table in a "your turn" mail: nothing of the hole's cards."""

    table_id: int
    name: str
    opponents: list[str]
    deadline: datetime
    path: str


def waiting(notice: TurnNotice) -> WaitingTable | None:
    """`notice`'s table as a mail shows it, or None when the turn no longer waits on its
    player (they moved, the timer's bot moved, the match ended, the seat changed hands)."""
    table = Table.objects.filter(pk=notice.table_id).first()
    if table is None or table.status != Table.Status.PLAYING:
        return None
    if table.turn_deadline != notice.deadline:
        return None  # someone new is to move: this turn is over
    seats = list(Seat.objects.filter(table=table).select_related("player"))
    mine = [seat for seat in seats if seat.position == notice.position]
    if not mine or mine[0].player_id != notice.player_id:
        return None
    hole = Hole.objects.filter(table=table).order_by("-number").first()
    bots = [seat.position for seat in seats if seat.bot_level]
    if notice.position not in pace.people_waiting(table, hole, None, bots):
        return None
    return WaitingTable(
        table_id=table.pk,
        name=str(table),
        opponents=[seat.name for seat in seats if seat.position != notice.position],
        deadline=notice.deadline,
        path=table.get_absolute_url(),
    )

"""Opening a league's table, a league night's and an event round's alike: a live table
through live play's own service (the only door to a live table), or a paper table
played with a physical deck, with empty cards to enter its results on."""

from __future__ import annotations

from collections.abc import Sequence

from games import lobby, scorecards
from games.models import Table


def open_table(
    *,
    host,
    variant: str,
    house_rules: Sequence[str],
    players: Sequence,
    live: bool,
    seed: int | None = None,
    stand_in_level: str = "",
    turn_timer: int = Table.Timer.OFF,
    tee_off: bool = False,
    pace: dict | None = None,
) -> Table:
    """A table for `players` in seat order, hosted by `host`, dealt from `seed` (None:
    a seed of its own). Live: the seating is final, the table private; a member who
    leaves mid-match has their seat played by the `stand_in_level` bot; with `tee_off`
    its first hole is dealt now (everyone has checked in); `pace` makes it turn-based
    (`lobby.create_table`'s `move_time`, `playing_hours`, `away_days`). A refusal is a `ValueError`
    whose message is a sentence for the organiser."""
    if not live:
        return scorecards.open_paper_table(
            variant=variant,
            house_rules=house_rules,
            players=players,
            host=host,
            deal_seed=seed,
        )
    table = lobby.create_table(
        host=host,
        variant=variant,
        house_rules=house_rules,
        seat_count=len(players),
        players=players,
        is_public=False,
        deal_seed=seed,
        seats_assigned=True,
        stand_in_level=stand_in_level,
        turn_timer=turn_timer,
        **(pace or {}),
    )
    if tee_off:
        lobby.start_match(table=table, by=None)
    return table

"""Reads of a duplicate night as a visitor may see them: the comparison waits while their
own table still plays the deals, and a public page waits for every table."""

from __future__ import annotations

from dataclasses import dataclass

from games import selectors as games_selectors
from games.models import Table

from ..handicaps import selectors as handicaps
from ..models import LeagueNight, NightTable, Player
from . import matchpoints


def unfinished_table_of(player: Player, night: LeagueNight) -> NightTable | None:
    """The table of `night` at which `player` sits, if it is still being played."""
    if not player.is_authenticated:
        return None
    return (
        night.tables.filter(table__seats__player=player)
        .exclude(table__status__in=[Table.Status.FINISHED, Table.Status.ABANDONED])
        .select_related("table")
        .first()
    )


@dataclass
class DealComparison:
    """What a night's deal comparison page shows a visitor."""

    #: The visitor's own table of the night while it is still being played: the
    #: comparison would tell them about deals they are still to play.
    waiting: NightTable | None
    #: On the public page, whether a table of the night is still being played: anyone
    #: may read that page, someone seated at such a table too, so it waits for all.
    in_play: bool
    comparison: matchpoints.Comparison | None
    #: Tables whose replays the visitor may open (a league table's are private).
    replayable: set[int]


def deal_comparison(night: LeagueNight, viewer: Player, *, public: bool = False) -> DealComparison:
    """A duplicate night's comparison as `viewer` may read it: on the members' page or,
    with `public`, on a public league's (no replays there: a league table's are private)."""
    league = night.season.league
    waiting = unfinished_table_of(viewer, night)
    in_play = (
        public
        and night.tables.exclude(
            table__status__in=[Table.Status.FINISHED, Table.Status.ABANDONED]
        ).exists()
    )
    comparison = None
    if waiting is None and not in_play:
        night_handicaps = handicaps.frozen(night) if league.by_net else None
        comparison = matchpoints.compare(night, handicaps=night_handicaps)
    replayable = {
        night_table.table_id
        for group in (comparison.groups if comparison and not public else [])
        for night_table in group.night_tables
        if not night_table.is_paper and games_selectors.may_watch(night_table.table, viewer)
    }
    return DealComparison(waiting, in_play, comparison, replayable)

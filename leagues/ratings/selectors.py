"""Reads of ratings: the matches that are rated, in order, and the ratings they gave."""

from __future__ import annotations

from games.models import Scorecard, Table

from ..models import League, NightTable, Player, Rating, RatingChange, Season


def counted_tables(*, league: League | None = None, season: Season | None = None):
    """Finished night tables of a league or season, oldest first (the rating order)."""
    tables = NightTable.objects.filter(table__status=Table.Status.FINISHED)
    if season is not None:
        tables = tables.filter(night__season=season)
    if league is not None:
        tables = tables.filter(night__season__league=league)
    return tables.select_related("table", "night", "night__season").order_by(
        "night__date", "night__pk", "number"
    )


def ranked_cards(night_table: NightTable) -> list[Scorecard]:
    """The cards of people (bots are not ranked) at a finished night table."""
    return [
        card
        for card in night_table.table.scorecards.order_by("position")
        if card.player_id is not None
    ]


def league_ratings(league: League) -> list[Rating]:
    """The league's ratings, best ordinal first."""
    ratings = list(league.ratings.select_related("player"))
    return sorted(ratings, key=lambda r: (-r.ordinal, r.player.name.lower()))


def rating_history(league: League, player: Player) -> list[RatingChange]:
    """The player's rating after each rated match of the league, oldest first."""
    return list(
        RatingChange.objects.filter(league=league, player=player)
        .select_related("night_table__night")
        .order_by("sequence")
    )

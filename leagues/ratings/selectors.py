"""Reads of ratings: the matches that are rated, in order, and the ratings they gave."""

from __future__ import annotations

from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games.models import Scorecard, Table

from ..models import League, NightTable, Player, Rating, RatingChange, Season

#: The task that rates a league anew (`services.rebuild_league_ratings`), as queued.
REBUILD_TASK = "leagues.ratings.services.rebuild_league_ratings"


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
    """The cards at a finished night table whose result moves their player's rating
    (people's; not a guest's, see `attendance.selectors.rated_cards`), by seat."""
    return list(
        Scorecard.objects.filter(table_id=night_table.table_id, league_result__rated=True).order_by(
            "position"
        )
    )


def ratings_being_rebuilt(league: League) -> bool:
    """Whether a task is to rate the whole league anew, or is at it (its rating rules
    changed): until then its ratings are those of the rules before. False on a task
    backend other than the database's, which runs a task at once."""
    return DBTaskResult.objects.filter(
        task_path=REBUILD_TASK,
        args_kwargs__args__0=league.pk,
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING],
    ).exists()


def league_ratings(league: League) -> list[Rating]:
    """The league's ratings, best ordinal first."""
    ratings = list(league.ratings.select_related("player"))
    return sorted(ratings, key=lambda r: (-r.ordinal, r.player.name.lower()))


def rating_history(league: League, player: Player, latest: int | None = None) -> list[RatingChange]:
    """The player's rating after each rated match of the league, oldest first: after
    each of the `latest` rated matches only, if given."""
    changes = RatingChange.objects.filter(league=league, player=player).select_related(
        "night_table__night"
    )
    if latest is None:
        return list(changes.order_by("sequence"))
    return list(changes.order_by("-sequence")[:latest])[::-1]

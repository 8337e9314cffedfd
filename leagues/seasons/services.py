"""Writes of seasons and nights: a league's seasons and nights, a night's date, time and
place, and a season's close and the next season (organisers only)."""

from __future__ import annotations

from datetime import date, datetime, time

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games.models import Table

from ..bounds import check_season_points
from ..guards import require_open, require_organiser
from ..models import FrozenStanding, League, LeagueNight, NightNotice, NightTable, Player, Season
from ..seating.online import queue_steps
from ..standings.selectors import season_standings


def create_season(*, league: League, name: str, start: date, end: date, by: Player) -> Season:
    """A new season of the league (organisers only)."""
    require_organiser(by, league.club)
    season = Season(league=league, name=name, start=start, end=end)
    season.full_clean()
    season.save()
    return season


def _check_night_date(season: Season, night_date: date) -> None:
    if not season.start <= night_date <= season.end:
        raise ValidationError(
            {"date": f"The season runs from {season.start:%d %b %Y} to {season.end:%d %b %Y}."}
        )


def create_night(
    *,
    season: Season,
    night_date: date | None,
    duplicate_deals: bool = False,
    start_time: time | None = None,
    venue: str = "",
    by: Player,
    online: bool = False,
    move_time: int | None = None,
    opens_at: datetime | None = None,
    due_at: datetime | None = None,
) -> LeagueNight:
    """A new night of the season, on a date within it, with its time and place if known
    (organisers only); `online`: an online round, with its time per move, opening and
    due time (its date is its opening's day)."""
    require_organiser(by, season.league.club)
    require_open(season)
    night = LeagueNight(
        season=season,
        date=night_date,
        duplicate_deals=duplicate_deals,
        start_time=start_time,
        venue=venue.strip(),
        online=online,
        move_time=move_time if online else None,
        opens_at=opens_at if online else None,
        due_at=due_at if online else None,
    )
    night.full_clean()
    _check_night_date(season, night.date)
    with transaction.atomic():
        night.save()
        queue_steps(night)
    return night


def _check_round_change(night: LeagueNight, before: LeagueNight) -> None:
    """What an online round keeps once under way: its kind and pace once seated (its
    tables have them), its opening once open, its due time once played out."""
    if night.tables.exists() and (night.online, night.move_time) != (
        before.online,
        before.move_time,
    ):
        raise ValidationError(
            {
                "online": "The night is seated: whether it is an online round, and its time "
                "per move, stay as they are."
            }
        )
    if before.opened_at and night.opens_at != before.opens_at:
        raise ValidationError({"opens_at": "The round is open already: its opening stays."})
    if before.played_out_at and night.due_at != before.due_at:
        raise ValidationError({"due_at": "The round was played out: its due time stays."})


def schedule_night(
    *,
    night: LeagueNight,
    night_date: date | None,
    start_time: time | None,
    venue: str,
    by: Player,
    online: bool = False,
    move_time: int | None = None,
    opens_at: datetime | None = None,
    due_at: datetime | None = None,
) -> LeagueNight:
    """Move a night to another date, time or place within its season (organisers only);
    make it an online round or change the round's times (`_check_round_change`: what a
    round under way keeps).

    A night whose tables have results keeps its date: the standings' order follows it.
    A night moved to another day is reminded of again, the day before its new date.
    """
    season = night.season
    require_organiser(by, season.league.club)
    require_open(season)
    before = LeagueNight.objects.get(pk=night.pk)
    night.date, night.start_time, night.venue = night_date, start_time, venue.strip()
    night.online = online
    night.move_time, night.opens_at, night.due_at = (
        (move_time, opens_at, due_at) if online else (None, None, None)
    )
    night.full_clean()
    _check_night_date(season, night.date)
    if (
        night.date != before.date
        and night.tables.filter(table__scorecards__holes__isnull=False).exists()
    ):
        raise ValidationError({"date": "This night has results: its date stays as it is."})
    _check_round_change(night, before)
    moved = night.date != before.date
    fields = ["date", "start_time", "venue", "online", "move_time", "opens_at", "due_at"]
    with transaction.atomic():
        night.save(update_fields=fields)
        if (night.opens_at, night.due_at) != (before.opens_at, before.due_at):
            queue_steps(night)
        if moved:
            night.notices.filter(kind=NightNotice.Kind.REMINDER).delete()
    return night


@transaction.atomic
def close_season(*, season: Season, by: Player) -> list[FrozenStanding]:
    """Close a season: its standings are frozen as they are and its leaders named champion.

    Refused while a live table of the season waits or is being played, and for a season
    with no results; a paper table without results does not count. After the close
    nothing of the season changes: no new nights, seating, results or corrections.
    """
    season = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
    require_organiser(by, season.league.club)
    require_open(season)
    playing = (
        NightTable.objects.filter(
            night__season=season,
            table__kind=Table.Kind.LIVE,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .select_related("night")
        .first()
    )
    if playing is not None:
        raise ValidationError(
            f"Table {playing.number} of {playing.night.date:%d %b %Y} is still being played: "
            "close the season once it is over."
        )
    rows = season_standings(season)
    if not rows:
        raise ValidationError("The season has no results yet: there is nothing to close.")
    check_season_points(rows)
    frozen = FrozenStanding.objects.bulk_create(
        FrozenStanding(
            season=season,
            player=row.player,
            place=row.place,
            matches=row.matches,
            holes=row.holes,
            strokes=row.strokes,
            wins=row.wins,
            points=row.points,
            order=order,
        )
        for order, row in enumerate(rows)
    )
    season.closed_at, season.closed_by = timezone.now(), by
    season.save(update_fields=["closed_at", "closed_by"])
    return frozen


def start_next_season(*, season: Season, name: str, start: date, end: date, by: Player) -> Season:
    """The league's next season, after a closed one.

    A season's settings (its game, points per place) and its members (the club's) are
    the league's, so the new season starts with them as they are.
    """
    require_organiser(by, season.league.club)
    if not season.is_closed:
        raise ValidationError("Close this season before starting the next one.")
    if start <= season.end:
        raise ValidationError(
            {"start": f"The next season starts after {season.end:%d %b %Y}, when this one ends."}
        )
    return create_season(league=season.league, name=name, start=start, end=end, by=by)

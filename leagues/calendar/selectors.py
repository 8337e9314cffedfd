"""Reads of a league's calendar: its nights in date order."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, QuerySet

from games.models import Table

from ..models import League, LeagueNight

#: A table that is over: its night waits on it no more.
OVER = [Table.Status.FINISHED, Table.Status.ABANDONED]


def league_nights(league: League) -> QuerySet[LeagueNight]:
    """Every night of the league, in date order, with its season, and how many of its
    tables it has and how many are still to finish (`tables_count`, `tables_open`)."""
    return (
        LeagueNight.objects.filter(season__league=league)
        .select_related("season")
        .annotate(
            tables_count=Count("tables"),
            tables_open=Count("tables", filter=~Q(tables__table__status__in=OVER)),
        )
        .order_by("date", "start_time", "pk")
    )


#: Past nights the calendar page lists, latest first; every night stays on its season's page.
PAST_SHOWN = 12


def nights_to_come_and_past(
    league: League, today: date, past_shown: int = PAST_SHOWN
) -> tuple[list, list, bool]:
    """The league's nights still to be played, soonest first; the latest `past_shown` of
    those played, latest first; and whether older ones were left out. A night is played
    once its date is gone, or once it had tables and every one of them is over
    (tonight's, when the last table finishes). Reads today's nights and those ahead, and
    no more of the past than it shows."""
    nights = league_nights(league)
    upcoming, played_today = [], []
    for night in nights.filter(date__gte=today):
        played = night.date < today or (night.tables_count and not night.tables_open)
        (played_today if played else upcoming).append(night)
    past = played_today[::-1][:past_shown]
    wanted = past_shown - len(past)
    earlier = []
    if wanted > 0:
        earlier = list(
            nights.filter(date__lt=today).order_by("-date", "-start_time", "-pk")[: wanted + 1]
        )
    more = len(earlier) > wanted or len(played_today) > past_shown
    return upcoming, past + earlier[:wanted], more

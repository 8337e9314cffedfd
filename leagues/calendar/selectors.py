"""Reads of a league's calendar: its nights in date order."""

from __future__ import annotations

from datetime import date, time

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
    once its last day is gone (`LeagueNight.objects.with_last_day`: an online round's
    due day), or once it had tables and every one of them is over (tonight's, when the
    last table finishes). Reads the nights not over before today, and no more of the
    past than it shows."""
    nights = league_nights(league).with_last_day()
    upcoming, played_lately = [], []
    for night in nights.filter(last_day__gte=today):
        played = night.tables_count and not night.tables_open
        (played_lately if played else upcoming).append(night)
    over = nights.filter(last_day__lt=today).order_by("-date", "-start_time", "-pk")
    earlier = list(over[: past_shown + 1]) if past_shown else []
    past = sorted(
        played_lately + earlier,
        key=lambda night: (night.date, night.start_time or time.min, night.pk),
        reverse=True,
    )
    return upcoming, past[:past_shown], len(past) > past_shown

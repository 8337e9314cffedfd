"""Reads of a league's calendar: its nights in date order."""

from __future__ import annotations

from datetime import date

from django.db.models import Count, Q, QuerySet
from django.utils import timezone

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


def nights_to_come_and_past(league: League, today: date) -> tuple[list, list]:
    """The league's nights still to be played, soonest first, and those played, latest
    first: a night is played once its date is gone (an online round's due day), or once
    it had tables and every one of them is over (tonight's, when the last table
    finishes)."""
    upcoming, past = [], []
    for night in league_nights(league):
        last_day = timezone.localdate(night.due_at) if night.online and night.due_at else night.date
        played = last_day < today or (night.tables_count and not night.tables_open)
        (past if played else upcoming).append(night)
    return upcoming, past[::-1]

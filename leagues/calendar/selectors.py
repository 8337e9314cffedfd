"""Reads of a league's calendar: its nights in date order."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import League, LeagueNight


def league_nights(league: League) -> QuerySet[LeagueNight]:
    """Every night of the league, in date order, with its season."""
    return (
        LeagueNight.objects.filter(season__league=league)
        .select_related("season")
        .order_by("date", "start_time", "pk")
    )

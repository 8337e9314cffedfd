"""Reads: who may see what, standings, played matches, ratings and a player's record.

Standings are computed from finished tables' scorecards every time: nothing here is
stored, so a correction shows at once.
"""

from __future__ import annotations

from django.db.models import QuerySet

from .models import (
    League,
    LeagueNight,
)

# --- Accounts ---------------------------------------------------------------------------


# --- Clubs and roles --------------------------------------------------------------------


# --- Matches ---------------------------------------------------------------------------


# --- Standings -------------------------------------------------------------------------


# --- Calendars, public leagues, corrections -------------------------------------------


def league_nights(league: League) -> QuerySet[LeagueNight]:
    """Every night of the league, in date order, with its season."""
    return (
        LeagueNight.objects.filter(season__league=league)
        .select_related("season")
        .order_by("date", "start_time", "pk")
    )


def public_league(league_id: int) -> League | None:
    """The league if it is public, else None (for pages read without an account)."""
    return League.objects.filter(pk=league_id, is_public=True).select_related("club").first()


# --- Ratings ---------------------------------------------------------------------------


# --- A player's record -----------------------------------------------------------------

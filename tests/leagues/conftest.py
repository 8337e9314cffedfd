"""Shared records for the league tests: a club with an organiser, a member and a night."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

import pytest

from leagues.models import Club, League, LeagueNight, NightTable, Player, Season
from tests.factories import (
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)


@dataclass
class ClubNight:
    organiser: Player
    member: Player
    others: list[Player]
    club: Club
    league: League
    season: Season
    night: LeagueNight
    night_table: NightTable


@pytest.fixture
def club_night(db) -> ClubNight:
    """A club's league night with one paper table of three, no results yet."""
    organiser = make_player("olive", display_name="Olive")
    member = make_player("mia", display_name="Mia")
    others = [make_player("noah", display_name="Noah"), make_player("pia", display_name="Pia")]
    club = make_club("Green Club", organiser=organiser, members=[member, *others])
    league = make_league(club)
    season = make_season(league)
    night = make_night(season, date(2026, 3, 1))
    night.players.set([member, *others])
    night_table = open_table(night, [member, *others])
    return ClubNight(organiser, member, others, club, league, season, night, night_table)

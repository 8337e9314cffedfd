"""The player page charts the strokes a player gave away a hole, match by match."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Hole, HoleReview
from leagues.selectors import given_away_by_match, player_record
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = pytest.mark.django_db


def _reviewed(night_table, position, given):
    for number, away in enumerate(given, start=1):
        hole = Hole.objects.create(
            table=night_table.table,
            number=number,
            dealer=0,
            seat_positions=[0, 1],
            finished_at=timezone.now(),
        )
        HoleReview.objects.create(hole=hole, position=position, given_away=away, samples=1)


def test_the_trend_is_the_mean_given_away_a_reviewed_hole_per_match(client):
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    league = make_league(make_club(organiser=make_player(), members=[ann, bea]))
    season = make_season(league)
    first = played_table(make_night(season, date(2026, 3, 1)), [ann, bea], even_holes(40, 45))
    second = played_table(make_night(season, date(2026, 3, 8)), [ann, bea], even_holes(38, 41))
    played_table(make_night(season, date(2026, 3, 15)), [ann, bea], even_holes(38, 41))
    _reviewed(first, 0, [2.0, 1.0])
    _reviewed(second, 0, [0.5])
    HoleReview.objects.create(
        hole=Hole.objects.get(table=second.table, number=1), position=1, given_away=9, samples=1
    )
    trend = given_away_by_match(player_record(league, ann))
    assert trend == [(date(2026, 3, 1), 1.5), (date(2026, 3, 8), 0.5)]
    client.force_login(ann)
    page = client.get(reverse("leagues:player", args=[league.pk, ann.pk])).content.decode()
    assert "Strokes given away per hole" in page and 'id="given-away-chart-title"' in page

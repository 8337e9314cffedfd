"""Corrections: a reason, an audit record with the old value, and standings and ratings after."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from leagues import services
from leagues.models import Rating, ScoreCorrection
from leagues.selectors import season_standings
from tests.factories import even_holes, played_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(club_night):
    """Mia 30, Noah 35, Pia 40 at one table; ratings built."""
    cn = club_night
    services.enter_hand_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    return cn


def test_a_correction_on_the_site_keeps_the_old_value_and_moves_the_standings(client, played):
    cn = played
    mia_card = cn.night_table.table.scorecards.get(player=cn.member)
    mia_before = Rating.objects.get(league=cn.league, player=cn.member).mu
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": mia_card.pk, "number": 3, "strokes": 12, "reason": "Card misread: 12 not 1"},
    )
    assert response.status_code == 302

    correction = ScoreCorrection.objects.get()
    assert (correction.scorecard, correction.hole_number) == (mia_card, 3)
    assert (correction.old_strokes, correction.new_strokes) == (1, 12)
    assert correction.corrected_by == cn.organiser
    assert correction.corrected_at is not None
    assert correction.reason == "Card misread: 12 not 1"

    # Mia 41 is now last: Noah 35 wins, Pia 40 second.
    standings = [(r.place, r.player.name, r.points) for r in season_standings(cn.season)]
    assert standings == [(1, "Noah", 6), (2, "Pia", 4), (3, "Mia", 2)]
    assert Rating.objects.get(league=cn.league, player=cn.member).mu < mia_before
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "Card misread: 12 not 1" in html


def test_a_correction_needs_a_reason_and_changes_nothing_without_one(client, played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": card.pk, "number": 3, "strokes": 12, "reason": "   "},
    )
    assert response.status_code == 400
    assert card.holes.get(number=3).strokes == 1
    assert not ScoreCorrection.objects.exists()
    with pytest.raises(ValidationError):
        services.correct_score(scorecard=card, number=3, strokes=12, reason="", by=cn.organiser)


def test_a_correction_that_would_break_the_match_is_refused(client, played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": card.pk, "number": 3, "strokes": 500, "reason": "typo"},
    )
    assert response.status_code == 400
    assert "is not a Play Nine score" in response.content.decode()
    assert card.holes.get(number=3).strokes == 1
    assert not ScoreCorrection.objects.exists()


def test_only_organisers_of_the_club_may_correct(played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    with pytest.raises(PermissionDenied):
        services.correct_score(scorecard=card, number=3, strokes=2, reason="x", by=cn.member)
    assert not ScoreCorrection.objects.exists()


def test_ratings_after_a_correction_equal_a_fresh_rebuild(played):
    cn = played
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 31))
    card = cn.night_table.table.scorecards.get(player=cn.others[1])
    services.correct_score(scorecard=card, number=1, strokes=0, reason="x", by=cn.organiser)
    after = set(Rating.objects.values_list("player", "mu", "sigma"))
    services.rebuild_ratings(league=cn.league)
    assert set(Rating.objects.values_list("player", "mu", "sigma")) == after

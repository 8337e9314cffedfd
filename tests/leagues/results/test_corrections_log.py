"""A league's corrections log comes a page at a time, newest first, so that a league
corrected every week for years opens as fast as a new one."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ScorecardHole
from leagues.deal_results import CORRECTIONS_PER_PAGE
from leagues.models import ScoreCorrection
from leagues.public.services import set_league_public
from leagues.results.services import enter_night_results
from tests.factories import even_holes

pytestmark = pytest.mark.django_db


def test_the_log_comes_a_page_at_a_time_and_a_nonsense_page_is_the_first_or_last(
    client, club_night
):
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    card = cn.night_table.table.scorecards.order_by("position").first()
    hole = ScorecardHole.objects.get(scorecard=card, number=2)
    ScoreCorrection.objects.bulk_create(
        ScoreCorrection(
            scorecard=card,
            hole_number=2,
            old_strokes=hole.strokes,
            new_strokes=hole.strokes,
            reason=f"Check {n}",
            corrected_by=cn.organiser,
        )
        for n in range(CORRECTIONS_PER_PAGE + 5)
    )
    set_league_public(league=cn.league, is_public=True, by=cn.organiser)
    client.force_login(cn.organiser)
    for name in ("corrections", "public_corrections"):
        url = reverse(f"leagues:{name}", args=[cn.league.pk])
        first = client.get(url).content.decode()
        assert first.count("<td>Check ") == CORRECTIONS_PER_PAGE, name
        assert f"Check {CORRECTIONS_PER_PAGE + 4}<" in first  # the newest
        assert 'rel="next"' in first and 'rel="prev"' not in first
        second = client.get(url, {"page": 2}).content.decode()
        assert second.count("<td>Check ") == 5
        assert "Check 0<" in second and 'rel="prev"' in second
        for nonsense in ("²", "-1", "x", "999"):
            response = client.get(url, {"page": nonsense})
            assert response.status_code == 200, (name, nonsense)

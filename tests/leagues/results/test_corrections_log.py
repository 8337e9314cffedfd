"""A league's corrections log comes a page at a time, newest first, so that a league
corrected every week for years opens as fast as a new one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.urls import reverse

from games.models import ScorecardHole
from leagues.deal_results import CORRECTIONS_PER_PAGE
from leagues.models import ScoreCorrection
from leagues.public.services import set_league_public
from leagues.results.selectors import corrections_in
from leagues.results.services import enter_night_results
from tests.factories import even_holes

pytestmark = pytest.mark.django_db

#: The log's rows as the template drew them before `correction_rows`: the reference.
DRAWN_BY_TEMPLATE = (Path(__file__).parent / "corrections_drawn_by_template.html").read_text()


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
            league=cn.league,
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


@pytest.mark.parametrize("public", [False, True])
def test_the_rows_written_in_python_read_as_the_template_drew_them(club_night, public):
    """`correction_rows` against the template it replaced: a hole changed, a playoff hole
    removed, a reason to escape, and a correction whose organiser's account is gone."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    card = cn.night_table.table.scorecards.order_by("position").first()
    ScoreCorrection.objects.bulk_create(
        [
            ScoreCorrection(
                scorecard=card, league=cn.league, hole_number=2, old_strokes=3, new_strokes=4,
                reason='Added up <wrong> & "twice"', corrected_by=cn.organiser,
            ),
            ScoreCorrection(
                scorecard=card, league=cn.league, hole_number=10, old_strokes=5,
                new_strokes=None,
                reason="Playoff not needed", corrected_by=None,
            ),
        ]
    )  # fmt: skip
    log = list(corrections_in(cn.league))
    assert len(log) == 2
    context = Context({"corrections": log, "public": public})
    drawn = Template(DRAWN_BY_TEMPLATE).render(context)
    written = Template("{% load corrections %}{% correction_rows corrections %}").render(context)

    def plain(html: str) -> str:
        return re.sub(r">\s+<", "><", html).strip()

    assert plain(written) == plain(drawn)
    assert "Added up &lt;wrong&gt; &amp; &quot;twice&quot;" in written
    assert "removed" in written and "–" in written

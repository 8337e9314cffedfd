"""A playoff hole has one name everywhere: hole 10 is "Playoff 1", hole 11 "Playoff 2"."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from games import lobby
from games.models import ScorecardHole, hole_heading, hole_name
from leagues.results.services import correct_score, enter_night_results
from tests import driving
from tests.factories import even_holes, make_player
from tests.games.helpers import finish_hole

pytestmark = pytest.mark.django_db


def test_hole_names():
    assert [hole_name(n) for n in (1, 9, 10, 11)] == ["Hole 1", "Hole 9", "Playoff 1", "Playoff 2"]
    assert [hole_heading(n) for n in (1, 9, 10, 11)] == ["1", "9", "Playoff 1", "Playoff 2"]


@pytest.fixture
def playoff_night(club_night):
    """Mia and Noah level on 30 after nine; Noah wins the second playoff hole."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table,
        hole_scores=even_holes(30, 30, 40, playoff=[[4, 4, None], [5, 3, None]]),
        by=cn.organiser,
    )
    return cn


def test_the_night_page_and_the_csv_name_the_playoff_holes(client, playoff_night):
    cn = playoff_night
    client.force_login(cn.member)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert '<th scope="col" class="num playoff">Playoff 1</th>' in html
    assert '<th scope="col" class="num playoff">Playoff 2</th>' in html
    assert ">P1<" not in html and "Playoff 10" not in html
    response = client.get(reverse("leagues:night_scorecards_csv", args=[cn.night.pk]))
    header = next(csv.reader(io.StringIO(response.content.decode())))
    assert header[-4:] == ["playoff_1", "playoff_2", "total", "place"]


def test_the_results_form_names_playoff_rows_cells_and_problems(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    url = reverse("leagues:table_results", args=[cn.night_table.pk])
    html = client.get(url).content.decode()
    assert '<th scope="row">Playoff 1</th>' in html
    assert '<th scope="row">Playoff 3</th>' in html
    assert "Mia, playoff 2" in html
    assert "Playoff 10" not in html and "hole 10" not in html
    holes = even_holes(30, 30, 40, playoff=[[4, None, None]])
    data = {
        f"h{n + 1}_s{p}": "" if s is None else str(s)
        for n, row in enumerate(holes)
        for p, s in enumerate(row)
    }
    html = client.post(url, data).content.decode()
    assert "Playoff 1: enter strokes for Noah." in html


def test_the_correction_form_and_log_name_the_playoff_holes(client, playoff_night):
    cn = playoff_night
    noah_card = cn.night_table.table.scorecards.get(player=cn.others[0])
    client.force_login(cn.organiser)
    url = reverse("leagues:table_correct", args=[cn.night_table.pk])
    html = client.get(url).content.decode()
    assert '<option value="10">Playoff 1</option>' in html
    assert '<option value="11">Playoff 2</option>' in html
    assert '<option value="9">Hole 9</option>' in html
    response = client.post(
        url, {"scorecard": noah_card.pk, "number": 11, "strokes": 2, "reason": "Misread"}
    )
    assert response.status_code == 302
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "<td>Playoff 2</td>" in html


def test_the_replay_page_names_a_playoff_hole(client):
    host = make_player()
    table = lobby.create_table(
        host=host, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=table, by=host)
    driving.play_out(table_id=table.pk)
    if not table.holes.filter(number=10).exists():
        # The same hole filed as the first playoff hole, as a tie would have dealt it.
        table.holes.filter(number=9).update(number=10)
    client.force_login(make_player())
    html = client.get(reverse("games:replay", args=[table.pk, 10])).content.decode()
    assert "<title>Replay of playoff 1 · Fairway</title>" in html
    assert "<h1>Playoff 1 replay" in html
    assert 'aria-current="page">Playoff 1</a>' in html
    html = client.get(reverse("games:replay", args=[table.pk, 3])).content.decode()
    assert "<h1>Hole 3 replay" in html


def test_the_admin_names_the_playoff_holes(client, playoff_night):
    cn = playoff_night
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(make_player(is_staff=True, is_superuser=True))
    html = client.get(reverse("admin:leagues_leaguescorecard_change", args=[card.pk])).content
    assert b"Playoff 2" in html
    correct_score(scorecard=card, number=11, strokes=4, reason="x", by=cn.organiser)
    html = client.get(reverse("admin:leagues_scorecorrection_changelist")).content
    assert b"Playoff 2" in html


def test_the_live_table_names_a_playoff_hole_as_every_other_page_does(client):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=table, by=ana)
    finish_hole(table.pk, {0: ana, 1: ben})
    # The finished hole and its strokes filed as the first playoff hole, as a tie after
    # nine would have dealt and scored it: the match is still in play.
    table.holes.filter(number=1).update(number=10)
    ScorecardHole.objects.filter(scorecard__table=table, number=1).update(number=10)
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "<strong>Playoff 1</strong>" in html  # the status line
    assert "<strong>Playoff 1 over.</strong>" in html  # the banner
    assert "Playoff 1 over: Ana " in html  # the turn's sentence
    # The scorecard's column, marked as the hole in play.
    assert '<th scope="col" class="num"><span class="now">Playoff 1</span></th>' in html
    assert 'aria-label="Replay playoff 1: ' in html
    assert "Playoff hole" not in html and "Hole 10" not in html and "hole 10" not in html
    assert '<span class="now">10</span>' not in html

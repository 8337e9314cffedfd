"""Entering a paper table's results on the site: bad input is named and nothing saved."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import ScorecardHole, Table
from leagues.models import Rating
from tests.factories import even_holes

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def form_data(holes):
    return {
        f"h{n + 1}_s{p}": "" if s is None else str(s)
        for n, row in enumerate(holes)
        for p, s in enumerate(row)
    }


def post(client, cn, data):
    client.force_login(cn.organiser)
    return client.post(reverse("leagues:table_results", args=[cn.night_table.pk]), data)


def assert_nothing_saved(cn):
    table = Table.objects.get(pk=cn.night_table.table.pk)
    assert table.status == Table.Status.PLAYING
    assert not ScorecardHole.objects.filter(scorecard__table=table).exists()
    assert not Rating.objects.exists()


def test_the_form_has_a_cell_per_player_and_hole_labelled_for_screen_readers(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:table_results", args=[cn.night_table.pk])).content.decode()
    assert len(re.findall(r'name="h\d+_s\d"', html)) == 3 * 12
    assert "Mia, hole 1" in html
    assert "Pia, playoff 1" in html


def test_good_results_are_saved_and_the_night_shows_them(client, club_night):
    cn = club_night
    response = post(client, cn, form_data(even_holes(30, 35, 40)))
    assert response.status_code == 302
    assert response["Location"] == cn.night.get_absolute_url()
    table = Table.objects.get(pk=cn.night_table.table.pk)
    assert table.status == Table.Status.FINISHED
    assert list(table.scorecards.values_list("total", "place")) == [(30, 1), (35, 2), (40, 3)]
    assert Rating.objects.filter(league=cn.league).count() == 3
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "Correct a score" in html


def test_a_missing_hole_is_a_wrong_hole_count(client, club_night):
    cn = club_night
    response = post(client, cn, form_data(even_holes(30, 35, 40)[:8]))
    assert response.status_code == 400
    assert "A match has 9 holes; 8 were entered." in response.content.decode()
    assert_nothing_saved(cn)


def test_a_blank_cell_is_named(client, club_night):
    cn = club_night
    holes = even_holes(30, 35, 40)
    holes[4][1] = None
    response = post(client, cn, form_data(holes))
    assert response.status_code == 400
    assert "Hole 5: enter strokes for Noah." in response.content.decode()
    assert_nothing_saved(cn)


def test_out_of_range_strokes_are_refused_with_the_variants_limits(client, club_night):
    cn = club_night
    holes = even_holes(30, 35, 40)
    holes[2][0] = 93
    holes[3][2] = -41
    response = post(client, cn, form_data(holes))
    html = response.content.decode()
    assert response.status_code == 400
    assert "Hole 3: 93 is not a Play Nine score (a hole scores -40 to 92)." in html
    assert "Hole 4: -41 is not a Play Nine score" in html
    assert 'aria-invalid="true"' in html
    assert_nothing_saved(cn)


def test_non_numbers_are_refused(client, club_night):
    cn = club_night
    data = form_data(even_holes(30, 35, 40))
    data["h1_s0"] = "five"
    data["h2_s1"] = "3.5"
    response = post(client, cn, data)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Hole 1: strokes for Mia must be a whole number." in html
    assert "Hole 2: strokes for Noah must be a whole number." in html
    assert 'value="five"' in html
    assert_nothing_saved(cn)


def test_a_playoff_without_a_tie_is_refused(client, club_night):
    cn = club_night
    response = post(client, cn, form_data(even_holes(30, 35, 40, playoff=[[4, 5, None]])))
    assert response.status_code == 400
    assert "a playoff is played only on a tie for the lowest total" in response.content.decode()
    assert_nothing_saved(cn)


def test_results_already_in_send_the_organiser_to_corrections(client, club_night):
    cn = club_night
    post(client, cn, form_data(even_holes(30, 35, 40)))
    response = client.get(reverse("leagues:table_results", args=[cn.night_table.pk]))
    assert response["Location"] == reverse("leagues:table_correct", args=[cn.night_table.pk])
    response = post(client, cn, form_data(even_holes(20, 35, 40)))
    assert response.status_code == 302
    assert Table.objects.get(pk=cn.night_table.table.pk).scorecards.get(position=0).total == 30


def test_a_tie_needs_a_playoff_among_the_tied_players_only(client, club_night):
    cn = club_night
    response = post(client, cn, form_data(even_holes(30, 30, 40)))
    assert response.status_code == 400
    assert "Mia and Noah are tied after hole 9" in response.content.decode()
    response = post(client, cn, form_data(even_holes(30, 30, 40, playoff=[[4, 3, 5]])))
    assert "Playoff 1: only the tied players (Mia and Noah) play the playoff." in (
        response.content.decode()
    )
    assert_nothing_saved(cn)


def test_a_playoff_hole_decides_a_tie(client, club_night):
    cn = club_night
    response = post(client, cn, form_data(even_holes(30, 30, 40, playoff=[[4, 4], [5, 3]])))
    assert response.status_code == 302
    cards = Table.objects.get(pk=cn.night_table.table.pk).scorecards.order_by("position")
    assert list(cards.values_list("total", "place")) == [(30, 2), (30, 1), (40, 3)]


def test_a_blank_form_names_its_problem_once(client, club_night):
    cn = club_night
    response = post(client, cn, form_data([[None] * 3 for _ in range(9)]))
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count("A match has 9 holes; 0 were entered.") == 1
    assert "Nothing was saved." in html
    assert_nothing_saved(cn)


def test_a_paper_table_waiting_for_its_results_says_so(client, club_night):
    cn = club_night
    client.force_login(cn.member)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    badge = '<span class="badge status-playing">{}</span>'
    assert badge.format("Results to enter") in html
    assert badge.format("Playing") not in html
    post(client, cn, form_data(even_holes(30, 35, 40)))
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert '<span class="badge status-finished">Finished</span>' in html
    assert "Results to enter" not in html


def totals_shown(html: str) -> list[str]:
    return re.findall(r'<output id="total-\d" data-total-for="\d">([^<]*)</output>', html)


def test_the_grid_shows_each_players_running_total_without_inline_script(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:table_results", args=[cn.night_table.pk])).content.decode()
    assert totals_shown(html) == ["0", "0", "0"]
    assert re.search(r'<script src="[^"]*js/results[^"]*\.js" defer></script>', html)
    assert "<script>" not in html and 'style="' not in html and "oninput=" not in html

    # Sent back with a mistake: the totals add up what was typed, playoffs and the bad
    # cell left out.
    holes = even_holes(30, 35, 40, playoff=[[9, 9, 9]])
    data = form_data(holes)
    data["h4_s1"] = "x"
    data["h5_s2"] = "-5"
    response = post(client, cn, data)
    assert response.status_code == 400
    assert totals_shown(response.content.decode()) == ["30", "34", "34"]

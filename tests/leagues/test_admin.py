"""The admin for a non-superuser organiser: only their own clubs, and corrections with reasons."""

from __future__ import annotations

import re

import pytest

from leagues.models import NightHandicap, ScoreCorrection
from leagues.results.services import enter_night_results
from leagues.seasons.services import close_season
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


@pytest.fixture
def two_clubs(club_night):
    """club_night's club with a played table, and a rival club with its own records."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    rival_organiser = make_player("rex", display_name="Rex")
    zed = make_player("zed", display_name="Zed")
    rival = make_club("Rival Club", organiser=rival_organiser, members=[zed])
    rival_league = make_league(rival)
    rival_league.name = "Rival League"
    rival_league.save()
    rival_season = make_season(rival_league)
    rival_night = make_night(rival_season)
    played_table(rival_night, [zed, rival_organiser], even_holes(30, 31))
    return cn, rival, rival_league


CHANGELISTS = [
    ("club", "Green Club", "Rival Club"),
    ("league", "Green Club", "Rival League"),
    ("season", "Green Club", "Rival Club"),
    ("leaguenight", "Green Club", "Rival Club"),
    ("nighttable", "Mia", "Zed"),
    ("leaguescorecard", "Mia", "Zed"),
    ("rating", "Mia", "Zed"),
]


@pytest.mark.parametrize(("model", "own", "other"), CHANGELISTS)
def test_an_organiser_sees_only_their_clubs_records(client, two_clubs, model, own, other):
    cn, _, _ = two_clubs
    assert cn.organiser.is_staff and not cn.organiser.is_superuser
    client.force_login(cn.organiser)
    response = client.get(f"/admin/leagues/{model}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert own in html
    # As a word: a random CSRF token on the page may hold the letters.
    assert not re.search(rf"\b{other}\b", html)


def test_the_admin_index_shows_the_organisers_models_only(client, two_clubs):
    cn, _, _ = two_clubs
    client.force_login(cn.organiser)
    html = client.get("/admin/").content.decode()
    assert "/admin/leagues/league/" in html
    assert "/admin/leagues/player/" not in html
    assert "/admin/games/" not in html


def test_another_clubs_record_cannot_be_opened_or_changed(client, two_clubs):
    cn, rival, rival_league = two_clubs
    client.force_login(cn.organiser)
    url = f"/admin/leagues/league/{rival_league.pk}/change/"
    assert client.get(url).status_code == 302  # "does not exist", back to the index
    client.post(
        url, {"club": rival.pk, "name": "Taken", "variant": "golf-6", "points_per_place": "1"}
    )
    rival_league.refresh_from_db()
    assert rival_league.name == "Rival League"


def test_foreign_key_choices_are_limited_to_the_organisers_clubs(client, two_clubs):
    cn, rival, _ = two_clubs
    client.force_login(cn.organiser)
    html = client.get("/admin/leagues/league/add/").content.decode()
    assert f'value="{cn.club.pk}"' in html
    assert "Rival Club" not in html
    response = client.post(
        "/admin/leagues/league/add/",
        {"club": rival.pk, "name": "Planted", "variant": "golf-6", "points_per_place": "1"},
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not rival.leagues.filter(name="Planted").exists()


def test_organisers_cannot_add_clubs(client, two_clubs):
    cn, _, _ = two_clubs
    client.force_login(cn.organiser)
    assert client.get("/admin/leagues/club/add/").status_code == 403


def scorecard_form(card, strokes: dict[int, int], reasons: dict[int, str] | None = None):
    holes = list(card.holes.order_by("number"))
    data = {
        "holes-TOTAL_FORMS": str(len(holes)),
        "holes-INITIAL_FORMS": str(len(holes)),
        "holes-MIN_NUM_FORMS": "0",
        "holes-MAX_NUM_FORMS": "1000",
    }
    for i, hole in enumerate(holes):
        data[f"holes-{i}-id"] = str(hole.pk)
        data[f"holes-{i}-scorecard"] = str(card.pk)
        data[f"holes-{i}-strokes"] = str(strokes.get(hole.number, hole.strokes))
        data[f"holes-{i}-reason"] = (reasons or {}).get(hole.number, "")
    return data


def test_a_hole_changed_in_the_admin_is_a_correction_that_needs_a_reason(client, two_clubs):
    cn, _, _ = two_clubs
    card = cn.night_table.table.scorecards.get(player=cn.member)
    url = f"/admin/leagues/leaguescorecard/{card.pk}/change/"
    client.force_login(cn.organiser)
    assert client.get(url).status_code == 200

    response = client.post(url, scorecard_form(card, {2: 9}))
    assert response.status_code == 200
    assert "A correction needs a reason." in response.content.decode()
    assert card.holes.get(number=2).strokes == 1

    response = client.post(url, scorecard_form(card, {2: 9}, {2: "Wrong column"}))
    assert response.status_code == 302
    correction = ScoreCorrection.objects.get()
    assert (correction.old_strokes, correction.new_strokes) == (1, 9)
    assert correction.corrected_by == cn.organiser
    card.refresh_from_db()
    assert card.total == 38


def test_the_admin_refuses_a_correction_that_breaks_the_match(client, two_clubs):
    cn, _, _ = two_clubs
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        f"/admin/leagues/leaguescorecard/{card.pk}/change/",
        scorecard_form(card, {2: 400}, {2: "typo"}),
    )
    assert response.status_code == 200
    assert "is not a Play Nine score" in response.content.decode()
    assert not ScoreCorrection.objects.exists()


def test_a_superuser_sees_every_club(client, two_clubs):
    client.force_login(make_player(is_staff=True, is_superuser=True))
    html = client.get("/admin/leagues/league/").content.decode()
    assert "Rival League" in html


def test_the_admin_sends_a_correction_that_ends_a_playoff_to_the_nights_page(client, two_clubs):
    cn, _, _ = two_clubs
    table = played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 30, playoff=[[4, 6]]))
    card = table.table.scorecards.get(player=cn.others[0])
    client.force_login(cn.organiser)
    response = client.post(
        f"/admin/leagues/leaguescorecard/{card.pk}/change/",
        scorecard_form(card, {2: 0}, {2: "Misread"}),
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Playoff 1 was entered, but the match was decided after hole 9" in html
    assert "use “Correct a score” on the night&#x27;s page" in html
    assert card.holes.get(number=2).strokes == 1


def test_the_admin_refuses_a_correction_in_a_closed_season(client, two_clubs):
    cn, _, _ = two_clubs
    close_season(season=cn.season, by=cn.organiser)
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        f"/admin/leagues/leaguescorecard/{card.pk}/change/",
        scorecard_form(card, {2: 9}, {2: "Late claim"}),
    )
    assert response.status_code == 200
    assert "is closed" in response.content.decode()
    assert card.holes.get(number=2).strokes == 1
    assert not ScoreCorrection.objects.exists()


def test_a_night_s_frozen_handicaps_are_shown_read_only_on_its_admin_page(client, two_clubs):
    cn, _, _ = two_clubs
    NightHandicap.objects.update_or_create(
        night=cn.night, player=cn.member, defaults={"numerator": -3, "denominator": 2}
    )
    client.force_login(cn.organiser)
    url = f"/admin/leagues/leaguenight/{cn.night.pk}/change/"
    html = client.get(url).content.decode()
    assert "Frozen handicaps" in html and "-1.5" in html
    assert 'name="handicaps-0-numerator"' not in html

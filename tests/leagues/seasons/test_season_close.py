"""Closing a season: standings frozen, the champion named, the next season started."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games.models import ScorecardHole
from leagues.attendance import services as attendance
from leagues.models import LeagueNight, Season
from leagues.results.services import correct_score, enter_night_results
from leagues.seasons.services import close_season, create_night
from leagues.standings.selectors import champions, season_standings
from tests.factories import even_holes, make_night, open_table, played_table

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def lines(season):
    return [(r.place, r.player.name, r.points, r.strokes) for r in season_standings(season)]


@pytest.fixture
def played(club_night):
    """Mia 30, Noah 35, Pia 40."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    return cn


def test_closing_freezes_the_standings_and_names_the_champion(client, played):
    cn = played
    before = lines(cn.season)
    client.force_login(cn.organiser)
    response = client.post(reverse("leagues:season_close", args=[cn.season.pk]), follow=True)
    assert "closed. Champion: Mia." in response.content.decode()
    cn.season.refresh_from_db()
    assert cn.season.is_closed and cn.season.closed_by == cn.organiser
    assert champions(cn.season) == [cn.member]
    assert lines(cn.season) == before
    html = client.get(cn.season.get_absolute_url()).content.decode()
    assert "Champion: Mia" in html and "Start the next season" in html
    assert "New night" not in html


def test_nothing_of_a_closed_season_changes(client, played):
    cn = played
    close_season(season=cn.season, by=cn.organiser)
    before = lines(cn.season)
    card = cn.night_table.table.scorecards.get(player=cn.member)
    with pytest.raises(ValidationError, match="closed"):
        correct_score(scorecard=card, number=3, strokes=9, reason="x", by=cn.organiser)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": card.pk, "number": 3, "strokes": 9, "reason": "Late claim"},
    )
    assert response.status_code == 400 and "is closed" in response.content.decode()
    response = client.post(
        reverse("leagues:night_create", args=[cn.season.pk]), {"date": "2026-05-01"}
    )
    assert response.status_code == 400
    assert client.post(reverse("leagues:season_close", args=[cn.season.pk])).status_code == 302
    assert ScorecardHole.objects.get(scorecard=card, number=3).strokes == 1
    assert LeagueNight.objects.count() == 1
    assert lines(cn.season) == before


def test_frozen_standings_ignore_later_changes_to_the_cards(played):
    cn = played
    close_season(season=cn.season, by=cn.organiser)
    # Even a change that bypasses the services (the admin's raw tools) leaves them be.
    ScorecardHole.objects.filter(scorecard__player=cn.member).update(strokes=9)
    assert lines(cn.season)[0][:2] == (1, "Mia")


def test_players_level_at_the_top_are_joint_champions(club_night):
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    played_table(cn.night, [cn.others[0], cn.member], even_holes(30, 35))
    # Mia: 6 + 4, Noah: 4 + 6; one win each, 65 strokes over 18 holes each.
    close_season(season=cn.season, by=cn.organiser)
    assert {p.name for p in champions(cn.season)} == {"Mia", "Noah"}


def test_a_season_without_results_or_with_a_table_in_play_is_not_closed(client, club_night):
    cn = club_night
    with pytest.raises(ValidationError, match="no results"):
        close_season(season=cn.season, by=cn.organiser)
    client.force_login(cn.organiser)
    response = client.post(reverse("leagues:season_close", args=[cn.season.pk]), follow=True)
    assert "nothing to close" in response.content.decode()
    live = open_table(cn.night, [cn.member, cn.others[0]])
    live.table.kind, live.table.status = live.table.Kind.LIVE, live.table.Status.PLAYING
    live.table.save()
    with pytest.raises(ValidationError, match="still being played"):
        close_season(season=cn.season, by=cn.organiser)
    cn.season.refresh_from_db()
    assert not cn.season.is_closed


def test_only_organisers_close_a_season(client, played):
    cn = played
    url = reverse("leagues:season_close", args=[cn.season.pk])
    client.force_login(cn.member)
    assert client.post(url).status_code == 403
    cn.season.refresh_from_db()
    assert not cn.season.is_closed


def test_the_next_season_starts_after_the_closed_one(client, played):
    cn = played
    url = reverse("leagues:season_next", args=[cn.season.pk])
    client.force_login(cn.organiser)
    data = {"name": "Next", "start": "2027-01-01", "end": "2027-06-30"}
    response = client.post(url, data)
    assert response.status_code == 400 and "Close this season" in response.content.decode()
    close_season(season=cn.season, by=cn.organiser)
    form = client.get(cn.season.get_absolute_url()).context["next_form"]
    assert form.initial["start"] == date(2027, 1, 1)
    assert form.initial["end"] == date(2027, 12, 31)
    response = client.post(url, {**data, "start": "2026-06-01"})
    assert response.status_code == 400 and "starts after" in response.content.decode()
    response = client.post(url, data)
    new = Season.objects.get(name="Next")
    assert response.status_code == 302 and response["Location"] == new.get_absolute_url()
    assert new.league == cn.league and not new.is_closed
    # The club's members and the league's settings carry on: the new season's first night.
    night = create_night(season=new, night_date=date(2027, 1, 7), by=cn.organiser)
    attendance.set_night_players(night=night, players=[cn.member, *cn.others], by=cn.organiser)
    make_night(new, date(2027, 1, 14))
    # Past seasons stay browsable, with their champion.
    html = client.get(cn.league.get_absolute_url()).content.decode()
    assert cn.season.name in html and "champion: Mia" in html
    assert client.get(cn.season.get_absolute_url()).status_code == 200

"""A team league's pages: the organiser manages teams, a captain sets their own team's
line-up, and nobody else changes either; the season's page shows team standings."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from leagues.models import LineUp, Team
from leagues.seating.services import seat_night
from leagues.teams import services
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
def league():
    olive = make_player("olive", display_name="Olive")
    people = {
        n: make_player(n.lower(), display_name=n)
        for n in ("Ann", "Bea", "Cat", "Dan", "Eve", "Fay")
    }
    club = make_club("Green Club", organiser=olive, members=people.values())
    league = make_league(club)
    services.set_team_rules(league=league, team_size=4, team_score="sum", team_counted=2, by=olive)
    season = make_season(league)
    night = make_night(season, date(2026, 3, 1))
    eagles = services.create_team(
        league=league,
        name="Eagles",
        members=[people["Ann"], people["Bea"]],
        captain=people["Ann"],
        by=olive,
    )
    hawks = services.create_team(
        league=league,
        name="Hawks",
        members=[people["Cat"], people["Dan"]],
        captain=people["Cat"],
        by=olive,
    )
    return {
        "olive": olive,
        **people,
        "league": league,
        "season": season,
        "night": night,
        "eagles": eagles,
        "hawks": hawks,
    }


def teams_url(t):
    return reverse("leagues:teams", args=[t["league"].pk])


def line_up_url(t, team="eagles"):
    return reverse("leagues:line_up", args=[t["night"].pk, t[team].pk])


def test_the_teams_page_opens_for_members_only(client, league):
    t = league
    assert client.get(teams_url(t)).status_code == 302  # to log in
    client.force_login(make_player("stranger"))
    assert client.get(teams_url(t)).status_code == 404
    client.force_login(t["Eve"])
    html = client.get(teams_url(t)).content.decode()
    assert "Eagles" in html and "Hawks" in html and "captain" in html
    assert "New team" not in html


def test_an_organiser_makes_a_team_on_the_page(client, league):
    t = league
    client.force_login(t["olive"])
    response = client.post(
        reverse("leagues:team_create", args=[t["league"].pk]),
        {
            "team-name": "Owls",
            "team-members": [t["Eve"].pk, t["Fay"].pk],
            "team-captain": t["Fay"].pk,
        },
    )
    assert response.status_code == 302
    owls = Team.objects.get(name="Owls")
    assert owls.members.get(is_captain=True).player == t["Fay"]


def test_a_team_of_five_or_of_someone_on_another_team_is_refused_on_the_page(client, league):
    t = league
    client.force_login(t["olive"])
    url = reverse("leagues:team_create", args=[t["league"].pk])
    five = [t[n].pk for n in ("Ann", "Bea", "Cat", "Dan", "Eve")]
    response = client.post(
        url, {"team-name": "Owls", "team-members": five, "team-captain": five[0]}
    )
    assert response.status_code == 400
    assert "has 2 to 4 members, not 5" in response.content.decode()
    taken = [t["Bea"].pk, t["Eve"].pk]
    response = client.post(
        url, {"team-name": "Owls", "team-members": taken, "team-captain": taken[1]}
    )
    assert response.status_code == 400 and "Bea is on Eagles already" in response.content.decode()
    stranger = make_player("sam")
    response = client.post(
        url,
        {
            "team-name": "Owls",
            "team-members": [t["Eve"].pk, stranger.pk],
            "team-captain": t["Eve"].pk,
        },
    )
    assert response.status_code == 400
    assert not Team.objects.filter(name="Owls").exists()


def test_members_do_not_manage_teams(client, league):
    t = league
    client.force_login(t["Ann"])  # Eagles' captain, not an organiser
    posts = [
        (reverse("leagues:team_create", args=[t["league"].pk]), {"team-name": "Owls"}),
        (reverse("leagues:team_member_add", args=[t["eagles"].pk]), {"player": t["Eve"].pk}),
        (reverse("leagues:team_captain", args=[t["eagles"].pk]), {"player": t["Bea"].pk}),
        (reverse("leagues:team_delete", args=[t["eagles"].pk]), {}),
        (reverse("leagues:team_rules", args=[t["league"].pk]), {"team_size": 2}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert t["eagles"].members.count() == 2 and Team.objects.count() == 2


def test_an_organiser_adds_takes_off_and_names_a_captain_on_the_page(client, league):
    t = league
    client.force_login(t["olive"])
    eagles = t["eagles"]
    client.post(reverse("leagues:team_member_add", args=[eagles.pk]), {"player": t["Eve"].pk})
    client.post(reverse("leagues:team_captain", args=[eagles.pk]), {"player": t["Eve"].pk})
    client.post(reverse("leagues:team_member_remove", args=[eagles.pk]), {"player": t["Ann"].pk})
    assert sorted(m.player.name for m in eagles.members.all()) == ["Bea", "Eve"]
    assert eagles.members.get(is_captain=True).player == t["Eve"]
    # Cat is Hawks': the refusal is a message, and nothing changes.
    response = client.post(
        reverse("leagues:team_member_add", args=[eagles.pk]), {"player": t["Cat"].pk}, follow=True
    )
    assert "Cat is on Hawks already" in response.content.decode()
    assert eagles.members.count() == 2


def test_a_captain_sets_their_team_s_line_up_on_its_page(client, league):
    t = league
    client.force_login(t["Ann"])
    page = client.get(line_up_url(t))
    assert page.status_code == 200 and "Save the line-up" in page.content.decode()
    response = client.post(line_up_url(t), {"players": [t["Bea"].pk]}, follow=True)
    assert "Eagles&#x27; line-up is saved: Bea." in response.content.decode()
    assert [p.name for p in LineUp.objects.get().players.all()] == ["Bea"]
    assert list(t["night"].players.all()) == [t["Bea"]]
    # The night's page lists it, with the captain's link.
    html = client.get(t["night"].get_absolute_url()).content.decode()
    assert "Teams tonight" in html and line_up_url(t) in html


def test_nobody_but_the_captain_or_an_organiser_sets_a_line_up(client, league):
    t = league
    for someone in (t["Cat"], t["Bea"], t["Eve"]):  # Hawks' captain, a teammate, a member
        client.force_login(someone)
        assert client.get(line_up_url(t)).status_code == 403
        assert client.post(line_up_url(t), {"players": [t["Bea"].pk]}).status_code == 403
    client.force_login(make_player("sam"))
    assert client.get(line_up_url(t)).status_code == 404
    assert not LineUp.objects.exists()
    client.force_login(t["olive"])
    assert client.post(line_up_url(t), {"players": [t["Ann"].pk]}).status_code == 302


def test_a_line_up_of_someone_not_on_the_team_or_after_the_seating_is_refused(client, league):
    t = league
    client.force_login(t["Ann"])
    response = client.post(line_up_url(t), {"players": [t["Ann"].pk, t["Cat"].pk]})
    assert response.status_code == 400 and not LineUp.objects.exists()
    t["night"].players.set([t["Ann"], t["Bea"]])
    seat_night(night=t["night"], by=t["olive"], seats_per_table=2)
    assert "The night is seated" in client.get(line_up_url(t)).content.decode()
    response = client.post(line_up_url(t), {"players": [t["Ann"].pk]})
    assert response.status_code == 400 and "The night is seated" in response.content.decode()
    assert not LineUp.objects.exists()


def test_the_season_page_shows_team_standings_beside_the_players_and_as_csv(client, league):
    t = league
    played_table(t["night"], [t["Ann"], t["Cat"], t["Bea"], t["Dan"]], even_holes(20, 25, 30, 35))
    client.force_login(t["Eve"])
    html = client.get(t["season"].get_absolute_url()).content.decode()
    assert "Team standings" in html and "the sum of its line-up&#x27;s points" in html
    csv = client.get(reverse("leagues:team_standings_csv", args=[t["season"].pk])).content.decode()
    # Eagles: Ann 6 + Bea 2; Hawks: Cat 4 + Dan 0.
    assert csv.splitlines()[1:] == ['1,Eagles,"Ann, Bea",1,8', '2,Hawks,"Cat, Dan",1,4']


def test_an_organiser_makes_a_league_a_team_league_on_its_teams_page(client):
    olive = make_player("olive")
    league = make_league(make_club(organiser=olive))
    client.force_login(olive)
    url = reverse("leagues:team_rules", args=[league.pk])
    response = client.post(url, {"team_size": 5, "team_score": "sum", "team_counted": 2})
    assert response.status_code == 400
    response = client.post(url, {"team_size": 3, "team_score": "best", "team_counted": 2})
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.team_size, league.team_score, league.team_counted) == (3, "best", 2)


def test_the_league_form_makes_a_team_league_or_by_default_a_league_without_teams(client):
    olive = make_player("olive")
    club = make_club(organiser=olive)
    client.force_login(olive)
    url = reverse("leagues:league_create", args=[club.slug])
    base = {"variant": "play-nine", "points_per_place": "6,4,2,0"}
    client.post(url, {**base, "name": "Singles"})
    client.post(
        url,
        {**base, "name": "Pairs", "team_size": 2, "team_score": "best", "team_counted": 1},
    )
    response = client.post(url, {**base, "name": "Crowds", "team_size": 5})
    assert response.status_code == 400
    leagues = {league.name: league for league in club.leagues.all()}
    assert set(leagues) == {"Singles", "Pairs"}
    assert not leagues["Singles"].is_team_league
    pairs = leagues["Pairs"]
    assert (pairs.team_size, pairs.team_score, pairs.team_counted) == (2, "best", 1)


def test_an_organiser_sees_their_own_club_s_teams_in_the_admin_read_only(client, league):
    t = league
    rex = make_player("rex")
    zed, yan = make_player("zed"), make_player("yan")
    rival = make_league(make_club("Rival Club", organiser=rex, members=[zed, yan]))
    services.set_team_rules(league=rival, team_size=2, team_score="sum", team_counted=2, by=rex)
    services.create_team(league=rival, name="Rivals", members=[zed, yan], captain=zed, by=rex)
    services.set_line_up(team=t["eagles"], night=t["night"], players=[t["Ann"]], by=t["Ann"])
    client.force_login(t["olive"])
    html = client.get("/admin/leagues/team/").content.decode()
    assert "Eagles" in html and "Hawks" in html and "Rivals" not in html
    assert "Eagles" in client.get("/admin/leagues/lineup/").content.decode()
    page = client.get(f"/admin/leagues/team/{t['eagles'].pk}/change/")
    assert page.status_code == 200 and "Ann" in page.content.decode()
    rivals = Team.objects.get(name="Rivals")
    assert client.get(f"/admin/leagues/team/{rivals.pk}/change/").status_code in (302, 404)
    assert client.get("/admin/leagues/team/add/").status_code == 403


def test_the_players_present_form_marks_a_member_their_line_up_leaves_out(client, league):
    """Ann's line-up has Bea only: the organiser's "Players present" form says that Ann
    plays, but not for the team; Bea and the Hawks (no line-up yet) carry no such note."""
    t = league
    services.set_line_up(night=t["night"], team=t["eagles"], players=[t["Bea"]], by=t["Ann"])
    client.force_login(t["olive"])
    html = client.get(t["night"].get_absolute_url()).content.decode()
    note = "(not in Eagles&#x27; line-up: plays, but not for the team)"
    assert f"Ann {note}" in html
    assert html.count("line-up: plays, but not for the team") == 1


def test_team_pages_write_a_name_ending_in_s_and_a_fixed_team_size_as_english(client, league):
    t = league
    services.set_team_rules(
        league=t["league"], team_size=2, team_score="sum", team_counted=2, by=t["olive"]
    )
    services.create_team(
        league=t["league"],
        name="Birdies",
        members=[t["Eve"], t["Fay"]],
        captain=t["Eve"],
        by=t["olive"],
    )
    client.force_login(t["olive"])
    page = client.get(teams_url(t)).content.decode()
    assert "Teams of 2 members" in page and "2 to 2" not in page
    night = client.get(t["night"].get_absolute_url()).content.decode()
    assert "Set Birdies&#x27; line-up" in night and "Birdies&#x27;s" not in night
    assert "Set Eagles&#x27; line-up" in night  # "Eagles" ends in s too
    assert "Set Hawks&#x27; line-up" in night


def test_a_possessive_takes_the_apostrophe_alone_after_an_s():
    from leagues.words import possessive

    assert [possessive(n) for n in ("Birdies", "Hana", "BOGEYS", "Jo")] == [
        "Birdies'",
        "Hana's",
        "BOGEYS'",
        "Jo's",
    ]

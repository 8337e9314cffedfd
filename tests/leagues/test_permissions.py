"""Who may see and change what: anonymous visitors, outsiders, members and organisers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import ScorecardHole
from leagues.models import League, LeagueNight, Season
from tests.factories import even_holes, make_club, make_player, played_table

pytestmark = pytest.mark.django_db


def pages(cn):
    """Every league page of the club (GET)."""
    return [
        reverse("leagues:club", args=[cn.club.slug]),
        reverse("leagues:league", args=[cn.league.pk]),
        reverse("leagues:season", args=[cn.season.pk]),
        reverse("leagues:standings_csv", args=[cn.season.pk]),
        reverse("leagues:night", args=[cn.night.pk]),
        reverse("leagues:night_scorecards_csv", args=[cn.night.pk]),
        reverse("leagues:night_arrivals", args=[cn.night.pk]),
        reverse("leagues:player", args=[cn.league.pk, cn.member.pk]),
        reverse("leagues:teams", args=[cn.league.pk]),
    ]


def organiser_pages(cn):
    return [
        reverse("leagues:table_results", args=[cn.night_table.pk]),
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        reverse("leagues:door_sign", args=[cn.night.pk]),
    ]


def posts(cn):
    """Every change an organiser can make, with valid data."""
    return [
        (
            reverse("leagues:league_create", args=[cn.club.slug]),
            {"name": "Sneaky", "variant": "golf-6", "points_per_place": "3,1"},
        ),
        (
            reverse("leagues:member_add", args=[cn.club.slug]),
            {"username": "mia", "role": "organiser"},
        ),
        (
            reverse("leagues:season_create", args=[cn.league.pk]),
            {"name": "Sneaky", "start": "2027-01-01", "end": "2027-02-01"},
        ),
        (reverse("leagues:night_create", args=[cn.season.pk]), {"date": "2026-05-01"}),
        (reverse("leagues:night_players", args=[cn.night.pk]), {"players": [cn.member.pk]}),
        (
            reverse("leagues:night_seat", args=[cn.night.pk]),
            {"method": "random", "seats_per_table": 2, "kind": "hand"},
        ),
        (reverse("leagues:table_results", args=[cn.night_table.pk]), results_data(cn)),
        (
            reverse("leagues:team_rules", args=[cn.league.pk]),
            {"team_size": 2, "team_score": "sum", "team_counted": 2},
        ),
        (
            reverse("leagues:team_create", args=[cn.league.pk]),
            {"team-name": "Sneaky", "team-members": [cn.member.pk, cn.others[0].pk]},
        ),
    ]


def results_data(cn, holes=None):
    holes = holes or even_holes(30, 35, 40)
    return {f"h{n + 1}_s{p}": str(s) for n, row in enumerate(holes) for p, s in enumerate(row)}


def nothing_changed(cn):
    assert not League.objects.filter(name="Sneaky").exists()
    assert not Season.objects.filter(name="Sneaky").exists()
    assert LeagueNight.objects.count() == 1
    assert set(cn.night.players.all()) == {cn.member, *cn.others}
    assert cn.night.tables.count() == 1
    assert not ScorecardHole.objects.exists()
    assert cn.club.memberships.get(player=cn.member).role == "player"
    assert League.objects.get(pk=cn.league.pk).team_size == 0
    assert not cn.league.teams.exists()


def test_anonymous_visitors_are_sent_to_log_in_everywhere(client, club_night):
    cn = club_night
    urls = [reverse("leagues:index"), *pages(cn), *organiser_pages(cn)]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    for url, data in posts(cn):
        response = client.post(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    nothing_changed(cn)


def test_anonymous_visitors_check_in_after_logging_in(client, club_night):
    cn = club_night
    for url in (
        reverse("leagues:check_in", args=[cn.night.pk]),
        reverse("leagues:check_in_undo", args=[cn.night.pk]),
    ):
        response = client.post(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"
    assert not cn.night.check_ins.exists()
    nothing_changed(cn)


def test_outsiders_and_organisers_of_another_club_get_404(client, club_night):
    cn = club_night
    stranger = make_player()
    rival = make_player()
    make_club("Rival Club", organiser=rival)
    for user in (stranger, rival):
        client.force_login(user)
        for url in [*pages(cn), *organiser_pages(cn)]:
            assert client.get(url).status_code == 404, url
        for url, data in posts(cn):
            assert client.post(url, data).status_code == 404, url
    nothing_changed(cn)


def test_members_may_look_but_not_change(client, club_night):
    cn = club_night
    client.force_login(cn.member)
    for url in pages(cn):
        assert client.get(url).status_code == 200, url
    for url in organiser_pages(cn):
        assert client.get(url).status_code == 403, url
    for url, data in posts(cn):
        assert client.post(url, data).status_code == 403, url
    nothing_changed(cn)


def test_a_player_can_never_edit_a_score_even_their_own(client, club_night):
    cn = club_night
    played = played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 35))
    card = played.table.scorecards.get(player=cn.member)
    client.force_login(cn.member)
    response = client.post(
        reverse("leagues:table_correct", args=[played.pk]),
        {"scorecard": card.pk, "number": 1, "strokes": -5, "reason": "I miscounted"},
    )
    assert response.status_code == 403
    assert card.holes.get(number=1).strokes == 22
    assert not card.corrections.exists()


def test_members_do_not_see_the_organisers_forms(client, club_night):
    cn = club_night
    client.force_login(cn.member)
    html = client.get(reverse("leagues:night", args=[cn.night.pk])).content.decode()
    assert "Seat players" not in html
    assert "Enter results" not in html
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:night", args=[cn.night.pk])).content.decode()
    assert "Seat players" in html
    assert "Enter results" in html


def test_the_index_lists_only_the_members_clubs_and_own_results(client, club_night):
    cn = club_night
    make_club("Hidden Club")
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 35))
    client.force_login(cn.member)
    html = client.get(reverse("leagues:index")).content.decode()
    assert "Green Club" in html
    assert "Hidden Club" not in html
    assert reverse("leagues:player", args=[cn.league.pk, cn.member.pk]) in html


def test_the_organiser_can_run_the_club(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    for url in [*pages(cn), *organiser_pages(cn)]:
        assert client.get(url).status_code in (200, 302), url
    response = client.post(*posts(cn)[0])
    assert response.status_code == 302
    assert League.objects.filter(name="Sneaky", club=cn.club).exists()


def player_url(cn, person):
    return reverse("leagues:player", args=[cn.league.pk, person.pk])


def test_a_member_cannot_read_the_page_of_someone_outside_the_league(client, club_night):
    cn = club_night
    stranger = make_player("sam", display_name="Samuel Secret")
    elsewhere = make_player("eve", display_name="Eve Elsewhere")
    make_club("Rival Club", members=[elsewhere])
    client.force_login(cn.member)
    for person in (stranger, elsewhere):
        response = client.get(player_url(cn, person))
        assert response.status_code == 404
        assert person.display_name not in response.content.decode()
    assert client.get(reverse("leagues:player", args=[cn.league.pk, 987654])).status_code == 404
    # The league's own people stay open to each other.
    assert client.get(player_url(cn, cn.others[0])).status_code == 200
    assert client.get(player_url(cn, cn.organiser)).status_code == 200


def test_scorecards_in_the_league_count_as_sharing_it(client, club_night):
    """Someone who played in the league and left the club keeps their page and its rivals."""
    cn = club_night
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 35))
    cn.club.memberships.filter(player=cn.others[0]).delete()
    leaver = cn.others[0]
    client.force_login(cn.others[1])
    assert client.get(player_url(cn, leaver)).status_code == 200
    client.force_login(leaver)
    assert client.get(player_url(cn, leaver)).status_code == 200
    assert client.get(player_url(cn, cn.member)).status_code == 200
    assert client.get(player_url(cn, make_player())).status_code == 404


def test_only_people_in_the_league_or_superusers_see_a_players_page(client, club_night):
    cn = club_night
    outsider = make_player()
    client.force_login(outsider)
    assert client.get(player_url(cn, outsider)).status_code == 404
    assert client.get(player_url(cn, cn.member)).status_code == 404
    client.force_login(make_player(is_superuser=True, is_staff=True))
    assert client.get(player_url(cn, outsider)).status_code == 200
    assert client.get(player_url(cn, cn.member)).status_code == 200

"""Public leagues read without an account, and the corrections log members and the public see."""

from __future__ import annotations

import pytest
from django.urls import reverse
from icalendar import Calendar

from games.models import Table
from leagues.public.services import set_league_public
from leagues.results.services import correct_score, enter_night_results
from tests.factories import even_holes, make_player
from tests.leagues.duplicate.test_duplicate import three_tables  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def results(club_night):
    """Mia 30, Noah 35, Pia 40; Mia's third hole then corrected from 1 to 2."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    card = cn.night_table.table.scorecards.get(player=cn.member)
    correct_score(scorecard=card, number=3, strokes=2, reason="Misread the card", by=cn.organiser)
    return cn


def public_pages(cn):
    return [
        reverse("leagues:public_league", args=[cn.league.pk]),
        reverse("leagues:public_season", args=[cn.season.pk]),
        reverse("leagues:public_night", args=[cn.night.pk]),
        reverse("leagues:public_corrections", args=[cn.league.pk]),
        reverse("leagues:public_calendar_feed", args=[cn.league.pk]),
    ]


def test_a_private_leagues_public_pages_do_not_exist(client, results):
    cn = results
    for user in (None, make_player(), cn.member):
        if user is not None:
            client.force_login(user)
        for url in public_pages(cn):
            assert client.get(url).status_code == 404, url


def test_anyone_reads_a_public_league_without_an_account(client, results):
    cn = results
    set_league_public(league=cn.league, is_public=True, by=cn.organiser)
    for url in public_pages(cn):
        response = client.get(url)
        assert response.status_code == 200, url
    season = client.get(public_pages(cn)[1]).content.decode()
    assert "Noah" in season and "Standings" in season
    night = client.get(public_pages(cn)[2]).content.decode()
    assert "Scorecard of table 1" in night and "Misread the card" in night
    feed = Calendar.from_ical(client.get(public_pages(cn)[4]).content)
    assert len(feed.walk("VEVENT")) == 1


def test_public_pages_are_read_only_and_link_only_to_public_pages(client, results):
    cn = results
    set_league_public(league=cn.league, is_public=True, by=cn.organiser)
    client.force_login(cn.organiser)  # even an organiser sees no forms there
    for url in public_pages(cn)[:4]:
        html = client.get(url).content.decode()
        assert "<form" not in html.split("</header>", 1)[-1].split("<footer", 1)[0], url
        assert reverse("leagues:player", args=[cn.league.pk, cn.member.pk]) not in html, url
        assert reverse("leagues:night", args=[cn.night.pk]) + '"' not in html, url
    assert client.post(public_pages(cn)[0]).status_code == 405


def test_only_an_organiser_makes_a_league_public_or_private(client, results):
    cn = results
    url = reverse("leagues:league_public", args=[cn.league.pk])
    client.force_login(cn.member)
    assert client.post(url, {"is_public": "on"}).status_code == 403
    client.force_login(make_player())
    assert client.post(url, {"is_public": "on"}).status_code == 404
    cn.league.refresh_from_db()
    assert not cn.league.is_public
    client.force_login(cn.organiser)
    assert client.post(url, {"is_public": "on"}).status_code == 302
    cn.league.refresh_from_db()
    assert cn.league.is_public
    client.logout()
    assert client.get(public_pages(cn)[0]).status_code == 200
    client.force_login(cn.organiser)
    client.post(url, {})
    client.logout()
    assert client.get(public_pages(cn)[0]).status_code == 404


def test_members_read_the_leagues_corrections_log(client, results):
    cn = results
    url = reverse("leagues:corrections", args=[cn.league.pk])
    client.force_login(cn.member)
    html = client.get(url).content.decode()
    row = html[html.index("<tbody>") :]
    # Who, when, why, before and after.
    for text in ("Olive", "Misread the card", "Mia", "Hole 3", ">1<", ">2<", "1 Mar 2026"):
        assert text in row, text
    client.force_login(make_player())
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302


def test_a_public_duplicate_night_shows_its_deal_comparison_read_only(
    client,
    three_tables,  # noqa: F811
):
    league, _season, night, people, organiser = three_tables
    url = reverse("leagues:public_night_deals", args=[night.pk])
    # Private: no public comparison for anyone, members included.
    stranger = make_player("stranger")
    for user in (None, stranger, people["Ann"]):
        if user is not None:
            client.force_login(user)
        assert client.get(url).status_code == 404
    set_league_public(league=league, is_public=True, by=organiser)
    client.logout()
    night_page = client.get(reverse("leagues:public_night", args=[night.pk])).content.decode()
    assert f'href="{url}"' in night_page
    # The scorecards' hole numbers lead to the public comparison, not the members' one.
    assert f"{url}#hole-4" in night_page
    assert reverse("leagues:night_deals", args=[night.pk]) not in night_page
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    # The members' page's figures: Eve's 21 of 36 matchpoints, every hole's traveller.
    assert "58.33%" in page and 'id="hole-9"' in page and "played on paper" in page
    # Read only, and linking only to public pages: no replays, no members' night page.
    assert "<form" not in page.split("</header>", 1)[-1].split("<footer", 1)[0]
    assert "Replay hole" not in page
    assert reverse("leagues:public_night", args=[night.pk]) + "#table-2" in page
    assert reverse("leagues:night", args=[night.pk]) + "#" not in page
    # The members' comparison stays theirs.
    response = client.get(reverse("leagues:night_deals", args=[night.pk]))
    assert response.status_code == 302 and "/login/" in response["Location"]
    client.force_login(stranger)
    assert client.get(reverse("leagues:night_deals", args=[night.pk])).status_code == 404


def test_the_public_comparison_waits_for_every_table_and_duplicate_nights(
    client,
    three_tables,  # noqa: F811
):
    league, _season, night, _people, organiser = three_tables
    set_league_public(league=league, is_public=True, by=organiser)
    url = reverse("leagues:public_night_deals", args=[night.pk])
    # Anyone may read it, someone at a table still playing too: it waits for them all.
    Table.objects.filter(night_table__number=2).update(status=Table.Status.PLAYING)
    page = client.get(url).content.decode()
    assert "Tables are still playing this night" in page
    assert 'id="hole-1"' not in page and "58.33%" not in page
    Table.objects.filter(night_table__number=2).update(status=Table.Status.ABANDONED)
    assert 'id="hole-1"' in client.get(url).content.decode()
    night.duplicate_deals = False
    night.save()
    assert client.get(url).status_code == 404
    html = client.get(reverse("leagues:public_night", args=[night.pk])).content.decode()
    assert url not in html

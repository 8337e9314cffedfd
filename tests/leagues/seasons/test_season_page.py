"""A season's page lists its nights with their tables, reading them in a few queries
however many nights the season has (the members' page and the public one alike)."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.public.services import set_league_public
from tests.factories import make_club, make_league, make_night, make_player, make_season, open_table

pytestmark = pytest.mark.django_db


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_nights_are_listed_with_their_tables_in_queries_that_do_not_grow(client):
    organiser = make_player("olive")
    players = [make_player() for _ in range(4)]
    league = make_league(make_club(organiser=organiser, members=players))
    set_league_public(league=league, is_public=True, by=organiser)
    season = make_season(league)
    seated = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    open_table(seated, players[:2])
    open_table(seated, players[2:])
    make_night(season, date(2026, 3, 8), duplicate_deals=True)
    client.force_login(organiser)
    members, public = season.get_absolute_url(), reverse("leagues:public_season", args=[season.pk])
    html = client.get(members).content.decode()
    assert "2 tables · duplicate deals (<a" in html
    assert "0 tables · duplicate deals (not seated yet)" in html
    assert "· duplicate deals (<a" in client.get(public).content.decode()
    counts = {url: _queries(client, url) for url in (members, public)}
    for day in range(15, 29):
        open_table(make_night(season, date(2026, 3, day)), players[:2])
    assert {url: _queries(client, url) for url in (members, public)} == counts

"""What a league's pages read does not grow with its history: each page is drawn for a
small league and for a bigger one, and the bigger one's is drawn in no more queries."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from leagues.models import League, LeagueNight, Player, Season
from leagues.reporting import services as reporting
from leagues.results.services import correct_score
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
    played_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

#: People a table seats in these leagues.
SEATS = 3


@dataclass
class History:
    organiser: Player
    people: list[Player]
    league: League
    season: Season
    nights: list[LeagueNight]


def _history(nights: int, tables: int) -> History:
    """A league of `nights` nights (the last one's last table still reporting, a hole of
    it entered and waiting for confirmation), each of `tables` finished tables."""
    organiser = make_player()
    people = [make_player(display_name=f"Player {n}") for n in range(SEATS * tables)]
    league = make_league(make_club(organiser=organiser, members=people))
    season = make_season(league)
    played = []
    for number in range(nights):
        night = make_night(season, date(2026, 1, 1) + timedelta(days=7 * number))
        night.players.set(people)
        for table in range(tables):
            # Each night seats people with others (a seat later a night).
            seated = [
                people[(SEATS * table + seat + number) % len(people)] for seat in range(SEATS)
            ]
            if number == nights - 1 and table == tables - 1:
                night_table = open_table(night, seated)
                reporting.enter_hole(
                    report=night_table.report, number=1, strokes=[3, 4, 5], version=0, by=seated[0]
                )
            else:
                played_table(night, seated, even_holes(30, 31 + table, 40 + number))
        played.append(night)
    return History(organiser, people, league, season, played)


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_night_page_reads_as_much_for_twelve_tables_as_for_two(
    client, django_assert_max_num_queries
):
    """Every table's scorecard, and the reports waiting for the organiser, in a few
    queries whatever the night's size and the league's history."""
    small, big = _history(nights=1, tables=2), _history(nights=3, tables=6)
    client.force_login(small.organiser)
    few = _queries(client, reverse("leagues:night", args=[small.nights[-1].pk]))
    client.force_login(big.organiser)
    page = reverse("leagues:night", args=[big.nights[-1].pk])
    with django_assert_max_num_queries(few):
        html = client.get(page).content.decode()
    # Every table is there, and the table still reporting waits for the organiser.
    assert html.count('class="panel scorecard"') == 6
    assert 'id="reports"' in html and "waiting: hole 1" in html
    # A finished night with nothing to settle lists no report.
    client.force_login(big.organiser)
    earlier = client.get(reverse("leagues:night", args=[big.nights[0].pk])).content.decode()
    assert 'id="reports"' not in earlier


def test_the_public_night_page_reads_as_much_for_twelve_tables_as_for_two(
    client, django_assert_max_num_queries
):
    small, big = _history(nights=1, tables=2), _history(nights=3, tables=6)
    for history in (small, big):
        history.league.is_public = True
        history.league.save(update_fields=["is_public"])
    few = _queries(client, reverse("leagues:public_night", args=[small.nights[-1].pk]))
    with django_assert_max_num_queries(few):
        client.get(reverse("leagues:public_night", args=[big.nights[-1].pk]))


@pytest.mark.parametrize("page", ["leagues:season", "leagues:standings_csv"])
def test_the_standings_read_as_much_for_four_nights_as_for_two(
    client, django_assert_max_num_queries, page
):
    """Standings, and each player's movement since the night before, are sums over the
    stored figures: as many queries whatever the nights."""
    small, big = _history(nights=2, tables=2), _history(nights=4, tables=2)
    client.force_login(small.organiser)
    few = _queries(client, reverse(page, args=[small.season.pk]))
    client.force_login(big.organiser)
    with django_assert_max_num_queries(few):
        response = client.get(reverse(page, args=[big.season.pk]))
    assert "Player 0" in response.content.decode()


@pytest.mark.parametrize("page", ["leagues:corrections", "leagues:public_corrections"])
def test_the_corrections_log_reads_as_much_for_many_corrections_as_for_one(
    client, django_assert_max_num_queries, page
):
    """A correction on every table of every night: the log's page is read in as many
    queries as a league's single correction, whoever made them and wherever."""
    small, big = _history(nights=1, tables=2), _history(nights=3, tables=4)
    for history in (small, big):
        history.league.is_public = True
        history.league.save(update_fields=["is_public"])
        for night in history.nights:
            for night_table in night.tables.filter(table__status="finished"):
                card = night_table.table.scorecards.order_by("position").first()
                correct_score(
                    scorecard=card,
                    number=2,
                    strokes=9,
                    reason=f"Table {night_table.number}",
                    by=history.organiser,
                )
            if history is small:
                break
    client.force_login(small.organiser)
    few = _queries(client, reverse(page, args=[small.league.pk]))
    client.force_login(big.organiser)
    with django_assert_max_num_queries(few):
        html = client.get(reverse(page, args=[big.league.pk])).content.decode()
    assert html.count("<td>Table ") == 11  # 4 + 4 + 3: the last night's last table reports
    assert "Player 0" in html and big.organiser.name in html


def test_the_player_page_reads_as_much_for_four_nights_as_for_two(
    client, django_assert_max_num_queries
):
    """A player's figures over every match are sums in the database, their latest
    matches one read (the first page of their history among them): as many queries
    however long their history, on any page of it."""
    small, big = _history(nights=2, tables=2), _history(nights=4, tables=2)
    for page in ("", "?page=2"):
        client.force_login(small.people[0])
        few = _queries(
            client, reverse("leagues:player", args=[small.league.pk, small.people[0].pk]) + page
        )
        client.force_login(big.people[0])
        address = reverse("leagues:player", args=[big.league.pk, big.people[0].pk]) + page
        with django_assert_max_num_queries(few):
            html = client.get(address).content.decode()
        assert "Player 0" in html

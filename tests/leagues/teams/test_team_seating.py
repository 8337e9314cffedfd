"""Teammates kept apart at a night's tables: the pure rule on hand-worked seatings, and
a team league's nights seated at random, by rating and with duplicate deals; where the
tables cannot split a team, the seating goes ahead and says so."""

from __future__ import annotations

import itertools
import random
from datetime import date

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.models import Rating
from leagues.seating.dealing import keep_apart, table_sizes, together
from leagues.seating.services import seat_night
from leagues.teams import services
from leagues.teams.selectors import teammate_pairs, teammates_together
from tests.factories import make_club, make_league, make_night, make_player, make_season


def teams_of(*teams) -> set[frozenset[int]]:
    return {frozenset(p) for team in teams for p in itertools.combinations(team, 2)}


# --- the pure rule -----------------------------------------------------------------------


def test_two_pairs_of_teammates_at_two_tables_are_split():
    tables = keep_apart([[1, 2], [3, 4]], teams_of((1, 2), (3, 4)))
    # One swap (2 for 3, or 2 for 4): a member of each team at each table.
    assert sorted(map(sorted, tables)) in ([[1, 3], [2, 4]], [[1, 4], [2, 3]])


def test_a_seating_already_apart_is_left_as_it_is():
    assert keep_apart([[1, 3, 5], [2, 4, 6]], teams_of((1, 2), (3, 4))) == [[1, 3, 5], [2, 4, 6]]


def test_by_rating_the_swap_is_between_players_nearest_in_rating():
    # Ranks 1 (best) to 6; teammates 1 and 2 at the first table. Every swap of 1 or 2
    # for one at the other table splits them; 2 for 3, next to each other in rank, is
    # the nearest.
    rank = {p: p for p in range(1, 7)}
    tables = keep_apart([[1, 2, 6], [3, 4, 5]], teams_of((1, 2)), rank=rank)
    assert tables == [[1, 3, 6], [2, 4, 5]]


def test_three_teammates_at_two_tables_leave_one_pair_together():
    tables = keep_apart([[1, 2, 3], [4, 5, 6]], teams_of((1, 2, 3)))
    assert len(together(tables, teams_of((1, 2, 3)))) == 1
    assert sorted(len(t) for t in tables) == [3, 3]


def test_a_player_who_must_stay_put_is_not_moved():
    # 1 may sit only at the first table: 2 moves instead.
    tables = keep_apart(
        [[1, 2], [3, 4]], teams_of((1, 2)), may_sit=lambda p, index: p != 1 or index == 0
    )
    assert 1 in tables[0] and 2 in tables[1]


@settings(max_examples=150, deadline=None)
@given(
    team_sizes=st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=8),
    seats=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_teams_are_split_whenever_each_fits_one_a_table(team_sizes, seats, seed):
    keys = iter(range(1, 100))
    teams = [[next(keys) for _ in range(size)] for size in team_sizes]
    players = [p for team in teams for p in team]
    sizes = table_sizes(len(players), seats)
    random.Random(seed).shuffle(players)
    start, tables = 0, []
    for size in sizes:
        tables.append(players[start : start + size])
        start += size
    apart = teams_of(*teams)
    seated = keep_apart(tables, apart)
    assert [len(t) for t in seated] == sizes
    assert sorted(p for t in seated for p in t) == sorted(players)
    if max(team_sizes) <= len(sizes):
        assert together(seated, apart) == []


# --- a team league's nights --------------------------------------------------------------


@pytest.fixture
def league(db):
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{i}", display_name=f"P{i}") for i in range(8)]
    club = make_club(organiser=olive, members=people)
    league = make_league(club)
    services.set_team_rules(league=league, team_size=4, team_score="sum", team_counted=2, by=olive)
    return olive, people, league


def night_with(league, players, **fields):
    night = make_night(make_season(league), date(2026, 3, 1), **fields)
    night.players.set(players)
    return night


def seated_ids(night):
    return [
        [seat.player_id for seat in nt.table.seats.order_by("position")]
        for nt in night.tables.order_by("number")
    ]


def make_teams(olive, league, people, size):
    for number, start in enumerate(range(0, len(people), size)):
        members = people[start : start + size]
        services.create_team(
            league=league, name=f"Team {number}", members=members, captain=members[0], by=olive
        )


@pytest.mark.django_db
@pytest.mark.both_databases
@pytest.mark.parametrize("seed", range(6))
def test_random_seating_splits_four_pairs_of_teammates_over_two_tables(league, seed):
    olive, people, league = league
    make_teams(olive, league, people, 2)
    night = night_with(league, people)
    seat_night(night=night, by=olive, seats_per_table=4, rng=random.Random(seed))
    tables = seated_ids(night)
    assert sorted(len(t) for t in tables) == [4, 4]
    assert together(tables, teammate_pairs(league, people)) == []
    assert teammates_together(night) == []


@pytest.mark.django_db
@pytest.mark.both_databases
def test_balanced_seating_splits_teammates_and_keeps_the_snake_s_balance(league):
    olive, people, league = league
    # Ratings p0 best ... p7 worst: the snake seats [p0 p3 p4 p7] and [p1 p2 p5 p6],
    # which holds all four teams below together. Swaps of players next to each other in
    # rating split them: p0 for p1, then p4 for p5.
    for rank, player in enumerate(people):
        Rating.objects.create(league=league, player=player, mu=40 - rank * 2, sigma=1)
    teams = [(0, 3), (4, 7), (1, 2), (5, 6)]
    for number, (a, b) in enumerate(teams):
        services.create_team(
            league=league,
            name=f"Team {number}",
            members=[people[a], people[b]],
            captain=people[a],
            by=olive,
        )
    night = night_with(league, people)
    seat_night(night=night, by=olive, seats_per_table=4, method="balanced")
    tables = seated_ids(night)
    assert together(tables, teammate_pairs(league, people)) == []
    # Each table still has one of the best two and one of the worst two.
    index = {p.pk: i for i, p in enumerate(people)}
    for table in tables:
        ranks = sorted(index[pk] for pk in table)
        assert ranks[0] <= 1 and ranks[-1] >= 6, ranks


@pytest.mark.django_db
@pytest.mark.both_databases
def test_a_duplicate_night_splits_teammates_and_its_tables_share_their_deals(league):
    olive, people, league = league
    make_teams(olive, league, people, 2)
    night = night_with(league, people, duplicate_deals=True)
    seat_night(night=night, by=olive, seats_per_table=4, rng=random.Random(3))
    assert together(seated_ids(night), teammate_pairs(league, people)) == []
    seeds = {nt.table.deal_seed for nt in night.tables.select_related("table")}
    assert len(seeds) == 1


@pytest.mark.django_db
@pytest.mark.both_databases
def test_seating_that_cannot_split_a_team_goes_ahead_and_says_so(league, client):
    olive, people, league = league
    # A team of three and three others at two tables of three: two of the team share one.
    services.create_team(
        league=league, name="Eagles", members=people[:3], captain=people[0], by=olive
    )
    night = night_with(league, people[:6])
    client.force_login(olive)
    response = client.post(
        reverse("leagues:night_seat", args=[night.pk]),
        {"method": "random", "seats_per_table": 3, "kind": "hand"},
        follow=True,
    )
    assert response.status_code == 200
    tables = seated_ids(night)
    assert sorted(len(t) for t in tables) == [3, 3]
    assert len(together(tables, teammate_pairs(league, people))) == 1
    [(number, players)] = teammates_together(night)
    html = response.content.decode()
    assert f"sit at table {number}: no seating of tonight" in html
    assert f"Teammates at table {number}" in html
    assert len(players) == 2 and all(p in people[:3] for p in players)

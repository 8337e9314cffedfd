"""Dealing players to tables (leagues/seating/dealing.py), the rule a league night's
seating and an event's rounds share: as properties over many fields, each checked
against every seating there is where the field is small."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.seating.dealing import (
    NowhereToSit,
    choose_byes,
    deal,
    deal_sizes,
    keep_apart,
    least_cost_seating,
    pair,
    seat_where_allowed,
    together,
)


def can_split(players, sizes, apart, may_sit=lambda player, index: True) -> bool:
    """Whether some seating at tables of `sizes` (in that order) has no pair of `apart`
    at one table and everyone where they may sit, by trying them all."""
    tables: list[list[int]] = [[] for _ in sizes]

    def place(index: int) -> bool:
        if index == len(players):
            return True
        player = players[index]
        for t, size in enumerate(sizes):
            full = len(tables[t]) >= size
            if full or not may_sit(player, t):
                continue
            if not any(pair(player, other) in apart for other in tables[t]):
                tables[t].append(player)
                if place(index + 1):
                    return True
                tables[t].pop()
        return False

    return place(0)


fields = st.integers(min_value=1, max_value=9)
seats = st.integers(min_value=2, max_value=5)


@st.composite
def knots(draw, players: list[int]) -> set[frozenset[int]]:
    """Pairs to keep apart among `players`, linked any which way."""
    pairs = [pair(a, b) for a, b in itertools.combinations(players, 2)]
    if not pairs:
        return set()
    return set(draw(st.lists(st.sampled_from(pairs), max_size=10)))


@settings(max_examples=300, deadline=None)
@given(players=st.integers(0, 60), most=st.integers(2, 8), data=st.data())
def test_table_sizes_seat_as_many_as_any_tables_can_within_bounds(players, most, data):
    fewest = data.draw(st.integers(1, most))
    sizes, byes = deal_sizes(players, most, fewest)
    assert sum(sizes) + byes == players
    assert all(fewest <= size <= most for size in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    # No number of tables of `fewest` to `most` seats would seat more.
    seatable = [min(players, t * most) for t in range(1, players + 1) if t * fewest <= players]
    assert players - byes == max(seatable, default=0)


def test_a_table_seats_at_least_one():
    with pytest.raises(ValueError):
        deal_sizes(5, 4, 0)
    with pytest.raises(ValueError):
        deal_sizes(5, 4, 5)


def test_byes_go_to_the_lowest_ranked_of_those_who_had_fewest():
    assert choose_byes([1, 2, 3, 4], 2, {}) == [4, 3]
    assert choose_byes([1, 2, 3, 4], 2, {4: 1}) == [3, 2]
    assert choose_byes([1, 2, 3], 0, {}) == []


@settings(max_examples=300, deadline=None)
@given(
    count=fields,
    most=seats,
    balanced=st.booleans(),
    with_byes=st.booleans(),
    seed=st.integers(0, 10**6),
    data=st.data(),
)
def test_a_deal_seats_everyone_once_within_bounds_and_keeps_apart_whenever_it_can(
    count, most, balanced, with_byes, seed, data
):
    players = list(range(1, count + 1))
    apart = data.draw(knots(players))
    had = data.draw(st.dictionaries(st.sampled_from(players), st.integers(0, 3)))
    dealt = deal(
        players,
        most,
        byes_had=had if with_byes else None,
        balanced=balanced,
        rng=random.Random(seed),
        apart=apart,
    )
    seated = [p for table in dealt.tables for p in table]
    assert sorted(seated + list(dealt.byes)) == players
    sizes = [len(table) for table in dealt.tables]
    if with_byes:
        assert sizes == [most] * (count // most)
        assert len(dealt.byes) == count % most
        # A bye goes to none who had more byes than a player who plays.
        if dealt.byes and seated:
            assert max(had.get(p, 0) for p in dealt.byes) <= min(had.get(p, 0) for p in seated)
    else:
        assert not dealt.byes
        assert len(sizes) == -(-count // most)
        assert all(1 <= size <= most for size in sizes) and max(sizes) - min(sizes) <= 1
    assert list(dealt.together) == together(dealt.tables, apart)
    if dealt.together:
        assert not can_split(seated, sizes, apart)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(2, 9), most=seats, seed=st.integers(0, 10**6), data=st.data())
def test_guests_sit_only_where_they_may_and_pairs_are_still_kept_apart_when_they_can(
    count, most, seed, data
):
    """A league night's guests play only at its paper tables (the last ones)."""
    players = list(range(1, count + 1))
    apart = data.draw(knots(players))
    guests = set(data.draw(st.lists(st.sampled_from(players), max_size=count)))
    live = data.draw(st.integers(0, -(-count // most)))

    def may_sit(player: int, index: int) -> bool:
        return player not in guests or index >= live

    try:
        dealt = deal(players, most, rng=random.Random(seed), apart=apart, may_sit=may_sit)
    except NowhereToSit as error:
        assert error.player in guests
        paper_seats = sum(len(t) for t in deal(players, most).tables[live:])
        assert len(guests) > paper_seats
        return
    assert all(may_sit(p, index) for index, t in enumerate(dealt.tables) for p in t)
    if dealt.together:
        seated = [p for table in dealt.tables for p in table]
        sizes = [len(table) for table in dealt.tables]
        assert not can_split(seated, sizes, apart, may_sit)


@settings(max_examples=200, deadline=None)
@given(count=st.integers(2, 9), most=seats, data=st.data())
def test_a_searched_seating_keeps_apart_whenever_it_can(count, most, data):
    """An event's seating, with no meetings yet: pairs kept apart sit apart whenever a
    seating allows it, at tables of unequal sizes too."""
    players = list(range(1, count + 1))
    order = data.draw(st.permutations(players))
    apart = data.draw(knots(players))
    sizes, byes = deal_sizes(count, most, 2)
    seated = list(order[: count - byes])
    tables = least_cost_seating(seated, sizes, {}, apart)
    assert sorted(p for t in tables for p in t) == sorted(seated)
    assert [len(t) for t in tables] == sizes
    if together(tables, apart):
        assert not can_split(seated, sizes, apart)


def test_a_split_the_swaps_miss_is_found():
    """Player 4 must be kept from everyone but 3's table-mate: no single swap helps."""
    apart = {pair(*p) for p in [(1, 2), (1, 4), (1, 5), (2, 4), (3, 4), (4, 5)]}
    tables = keep_apart([[1, 4], [2, 3], [5]], apart)
    assert together(tables, apart) == []
    assert [len(t) for t in tables] == [2, 2, 1]


def test_one_who_may_sit_nowhere_reachable_is_named():
    # 1, 2 and 3 may sit only at the second table, of two seats.
    with pytest.raises(NowhereToSit) as raised:
        seat_where_allowed([[1, 2], [3, 4]], lambda player, index: index == 1 or player > 3)
    assert raised.value.player == 2
    assert seat_where_allowed([[1, 3], [2, 4]], lambda player, index: player != 1 or index) == [
        [2, 3],
        [1, 4],
    ]

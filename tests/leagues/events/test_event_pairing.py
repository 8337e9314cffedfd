"""The pairing rules of events (leagues/events/pairing.py), worked by hand, and as
properties over many fields."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.events.pairing import (
    Entrant,
    knockout_round,
    meetings,
    mixing_round,
    pair,
    round_robin_pairs,
    standing_order,
    standings,
    swiss_round,
    through,
)
from leagues.seating.dealing import deal_sizes as table_sizes


def play_swiss(players: int, rounds: int, most: int, fewest: int | None = None, apart=()):
    """A Swiss event: each table's first seat wins a point (the standings move), byes
    counted; every round's seating returned."""
    points = dict.fromkeys(range(1, players + 1), 0)
    byes = dict.fromkeys(points, 0)
    met: dict = {}
    played = []
    for _ in range(rounds):
        entrants = [Entrant(k, points=points[k], byes=byes[k]) for k in points]
        seating = swiss_round(entrants, met, most, fewest, apart)
        played.append(seating)
        for table in seating.tables:
            points[table[-1]] += 1  # the lowest placed at each table wins: standings churn
        for key in seating.byes:
            byes[key] += 1
            points[key] += 1
        for key, count in meetings(seating.tables).items():
            met[key] = met.get(key, 0) + count
    return played, met


def seated(seating) -> list[int]:
    return sorted([k for t in seating.tables for k in t] + list(seating.byes))


def test_table_sizes_seat_everyone_they_can_as_evenly_as_can_be():
    assert table_sizes(12, 4) == ([4, 4, 4], 0)
    assert table_sizes(9, 4) == ([4, 4], 1)  # tables of exactly four: one sits out
    assert table_sizes(9, 4, 3) == ([3, 3, 3], 0)
    assert table_sizes(17, 4, 3) == ([4, 4, 3, 3, 3], 0)
    assert table_sizes(7, 2) == ([2, 2, 2], 1)
    assert table_sizes(1, 2) == ([], 1)


def test_a_swiss_of_nine_at_tables_of_three_meets_no_one_twice_in_three_rounds():
    rounds, met = play_swiss(9, 3, 3)
    for seating in rounds:
        assert seated(seating) == list(range(1, 10))
        assert not seating.byes and not seating.repeats
    assert max(met.values()) == 1


def test_a_swiss_of_twelve_at_tables_of_four_meets_again_only_as_often_as_it_must():
    """Three tables of four from three tables of four: each new table takes two from one
    old table, so a second round has a repeat at each table, and no more."""
    rounds, met = play_swiss(12, 3, 4)
    assert [len(r.tables) for r in rounds] == [3, 3, 3]
    assert not rounds[0].repeats
    assert len(rounds[1].repeats) == 3
    before = meetings(t for r in rounds[:2] for t in r.tables)
    cost = sum(before[p] for p in rounds[2].repeats)
    assert cost == _least_cost(list(range(1, 13)), [4, 4, 4], before, set())


def test_a_swiss_of_seventeen_gives_the_bye_to_a_new_entrant_each_round():
    rounds, met = play_swiss(17, 3, 4)
    byes = [r.byes for r in rounds]
    assert [len(b) for b in byes] == [1, 1, 1]
    assert len({b[0] for b in byes}) == 3  # never the same entrant twice
    assert all(not r.repeats for r in rounds)
    # With tables of three allowed too, no one sits out.
    rounds, _ = play_swiss(17, 3, 4, fewest=3)
    assert all(not r.byes and seated(r) == list(range(1, 18)) for r in rounds)


def test_the_first_round_seats_the_standings_in_order():
    entrants = [Entrant(k, points=10 - k, strokes=k) for k in range(1, 9)]
    seating = swiss_round(entrants, {}, 4)
    assert seating.tables == ((1, 2, 3, 4), (5, 6, 7, 8))
    # Among equal points, fewer strokes stand higher.
    entrants = [Entrant(k, points=1, strokes=100 - k, holes=18) for k in range(1, 5)]
    assert swiss_round(entrants, {}, 2).tables == ((4, 3), (2, 1))
    # A hole, not in total: one who sat out a round with a bye has fewer strokes in all
    # (94 over two tables against 125 over three) but more a hole, and stands lower.
    jo, hana = (
        Entrant(1, points=1, strokes=94, holes=18),
        Entrant(2, points=1, strokes=125, holes=27),
    )
    assert [e.key for e in standing_order([jo, hana])] == [2, 1]


def test_a_bye_goes_to_the_lowest_placed_of_those_who_had_fewest():
    entrants = [Entrant(k, points=5 - k, byes=1 if k == 5 else 0) for k in range(1, 6)]
    assert swiss_round(entrants, {}, 2).byes == (4,)


def test_entrants_kept_apart_sit_apart_and_are_reported_when_they_cannot():
    entrants = [Entrant(k) for k in range(1, 9)]
    apart = [pair(1, 2), pair(3, 4)]
    seating = swiss_round(entrants, {}, 4, apart=apart)
    for table in seating.tables:
        assert not ({1, 2} <= set(table) or {3, 4} <= set(table))
    assert not seating.together
    # Three who must each be kept apart from the others, at two tables: one pair cannot.
    apart = [pair(1, 2), pair(1, 3), pair(2, 3)]
    seating = swiss_round(entrants, {}, 4, apart=apart)
    assert len(seating.together) == 1
    assert seating.together[0] <= {1, 2, 3}


def test_keeping_apart_weighs_more_than_meeting_again():
    entrants = [Entrant(k) for k in range(1, 5)]
    # Two tables of two: 1 must not sit with 2, and has met 3 already: 1 meets 3 again.
    seating = swiss_round(entrants, {pair(1, 3): 1}, 2, apart=[pair(1, 2)])
    assert {1, 3} in [set(t) for t in seating.tables] or {1, 4} in [set(t) for t in seating.tables]
    assert not seating.together


def test_a_knockout_of_sixteen_at_tables_of_four_spreads_the_seeds_in_a_snake():
    seating = knockout_round(list(range(1, 17)), 4)
    assert seating.tables == (
        (1, 8, 9, 16),
        (2, 7, 10, 15),
        (3, 6, 11, 14),
        (4, 5, 12, 13),
    )
    # The best two of each table go through: eight, then four, then the final table.
    second = knockout_round([1, 2, 3, 4, 5, 6, 7, 8], 4)
    assert second.tables == ((1, 4, 5, 8), (2, 3, 6, 7))
    assert knockout_round([1, 2, 3, 4], 4).tables == ((1, 2, 3, 4),)


def test_a_knockout_table_goes_through_by_strokes_and_plays_off_a_tie_at_the_cut():
    assert through({1: 20, 2: 25, 3: 26, 4: 30}, 2).through == (1, 2)
    cut = through({1: 20, 2: 25, 3: 25, 4: 30}, 2)
    assert cut.through == (1,) and cut.playoff == (2, 3) and cut.places == 1
    cut = through({1: 25, 2: 25, 3: 25, 4: 30}, 2)
    assert cut.through == () and cut.playoff == (1, 2, 3) and cut.places == 2


def test_a_round_robin_of_pairs_meets_everyone_once_with_one_bye_each_when_odd():
    for players in (4, 5, 8):
        rounds = round_robin_pairs(list(range(1, players + 1)))
        met = meetings(t for r in rounds for t in r.tables)
        assert set(met) == {pair(a, b) for a, b in itertools.combinations(range(1, players + 1), 2)}
        assert set(met.values()) == {1}
        byes = [k for r in rounds for k in r.byes]
        assert sorted(byes) == (list(range(1, players + 1)) if players % 2 else [])


def test_a_round_robin_at_larger_tables_seats_those_who_met_least():
    met = meetings([(1, 2, 3), (4, 5, 6), (7, 8, 9)])
    seating = mixing_round(list(range(1, 10)), met, 3)
    assert not seating.repeats
    assert all(len(set(t) & {1, 2, 3}) == 1 for t in seating.tables)


def _least_cost(keys, sizes, met, apart) -> int:
    """The least cost of any seating, by trying every one (small fields only)."""
    best = None

    def cost(tables):
        return sum(
            met.get(pair(a, b), 0) + (10 if pair(a, b) in apart else 0)
            for t in tables
            for a, b in itertools.combinations(t, 2)
        )

    def seatings(left, sizes):
        if not sizes:
            yield []
            return
        first, rest = left[0], left[1:]
        for others in itertools.combinations(rest, sizes[0] - 1):
            remaining = [k for k in rest if k not in others]
            for more in seatings(remaining, sizes[1:]):
                yield [(first, *others), *more]

    for sizes_order in set(itertools.permutations(sizes)):
        for tables in seatings(list(keys), list(sizes_order)):
            c = cost(tables)
            best = c if best is None else min(best, c)
    return best


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(4, 10),
    most=st.integers(2, 4),
    rounds=st.integers(1, 4),
    seed=st.randoms(use_true_random=False),
    apart=st.lists(st.tuples(st.integers(1, 10), st.integers(1, 10)), max_size=3),
)
def test_a_swiss_round_meets_again_only_where_every_seating_would(
    players, most, rounds, seed, apart
):
    """Whatever the standings and the meetings so far, a round costs no more repeat
    meetings (and pairs kept together) than the best seating there is."""
    keys = list(range(1, players + 1))
    apart = [pair(a, b) for a, b in apart if a != b and a <= players and b <= players]
    met: dict = {}
    for _ in range(rounds):
        entrants = [Entrant(k, points=seed.randint(0, 3)) for k in keys]
        seating = swiss_round(entrants, met, most, apart=apart)
        assert seated(seating) == keys
        chosen = sum(
            met.get(pair(a, b), 0) + (10 if pair(a, b) in apart else 0)
            for t in seating.tables
            for a, b in itertools.combinations(t, 2)
        )
        in_play = [k for t in seating.tables for k in t]
        sizes = [len(t) for t in seating.tables]
        assert chosen == _least_cost(in_play, sizes, met, set(apart))
        for key, count in meetings(seating.tables).items():
            met[key] = met.get(key, 0) + count


@settings(max_examples=30, deadline=None)
@given(half=st.integers(2, 10), seed=st.randoms(use_true_random=False))
def test_swiss_pairs_never_meet_twice_in_the_first_half_of_the_rounds(half, seed):
    """At tables of two, an even field has a seating without a repeat for as long as
    each entrant has met at most half the field (Dirac): the search finds it."""
    keys = list(range(1, 2 * half + 1))
    met: dict = {}
    for _ in range(half):
        entrants = [
            Entrant(k, points=seed.randint(0, 5), strokes=seed.randint(0, 50)) for k in keys
        ]
        seating = swiss_round(entrants, met, 2)
        assert not seating.repeats
        for key, count in meetings(seating.tables).items():
            met[key] = met.get(key, 0) + count


def test_swiss_standings_break_ties_by_opponents_points_then_strokes_per_hole():
    # Round one: 1 beats 2, 3 beats 4. Round two: 1 beats 3, 4 beats 2.
    results = [{1: 20, 2: 30}, {3: 22, 4: 28}, {1: 25, 3: 26}, {4: 24, 2: 29}]
    points = {1: 2, 2: 0, 3: 1, 4: 1}
    lines = standings(points, results, dict.fromkeys(points, 18))
    # 3 and 4 are level on points: 3 met 4 (1) and 1 (2), 4 met 3 (1) and 2 (0).
    assert [line.key for line in lines] == [1, 3, 4, 2]
    assert [line.place for line in lines] == [1, 2, 3, 4]
    three = next(line for line in lines if line.key == 3)
    assert (three.strokes, three.opponents, three.per_hole) == (48, 3, Fraction(48, 18))
    # Level on everything: one place, and the next place down skips it.
    lines = standings({1: 2, 2: 2, 3: 0}, [{1: 25, 2: 25}], {1: 9, 2: 9, 3: 0})
    assert [line.place for line in lines] == [1, 1, 3]


def test_a_bye_neither_helps_nor_hurts_the_swiss_tie_breaks():
    """Jo (1 point, 94 strokes over 2 tables and a bye) and Hana (1 point, 125 strokes over
    3 tables): by total strokes Jo would stand higher for having played less; per hole,
    Hana plays better (4.63 to 5.22) and stands higher."""
    jo, hana, x, y, z = 1, 2, 3, 4, 5
    points = {jo: 1, hana: 1, x: 2, y: 1, z: 1}
    results = [
        {jo: 47, x: 40},
        {jo: 47, y: 45},
        {hana: 42, x: 41},
        {hana: 41, y: 40},
        {hana: 42, z: 41},
    ]
    holes = {jo: 18, hana: 27, x: 18, y: 18, z: 9}
    lines = {line.key: line for line in standings(points, results, holes, byes={jo: 1})}
    # The bye counts as a table against an opponent holding Jo's own point: 2 + 1 + 1.
    assert lines[jo].opponents == lines[hana].opponents == 4
    assert (lines[jo].strokes, lines[hana].strokes) == (94, 125)
    assert lines[hana].per_hole == Fraction(125, 27) < lines[jo].per_hole == Fraction(94, 18)
    assert lines[hana].place < lines[jo].place
    # At tables of four a bye is a table of three such opponents.
    wider = standings(points, results, holes, byes={jo: 1}, bye_opponents=3)
    assert next(line for line in wider if line.key == jo).opponents == 2 + 1 + 3 * 1
    # Opponents' points come before strokes: Jo now plays better per hole, but Hana met
    # the stronger field.
    results[:2] = [{jo: 35, x: 40}, {jo: 35, y: 45}]
    stronger = {**points, z: 3}
    lines = {line.key: line for line in standings(stronger, results, holes, byes={jo: 1})}
    assert lines[jo].per_hole < lines[hana].per_hole
    assert (lines[hana].opponents, lines[jo].opponents) == (6, 4)
    assert lines[hana].place < lines[jo].place

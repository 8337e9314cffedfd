"""Match rules: nine holes, the dealer moving left, choosing the first dealer, playoffs."""

from __future__ import annotations

import pytest

from games.engine import (
    HOLES,
    VARIANTS,
    choose_first_dealer,
    dealer_for_hole,
    match_status,
    match_totals,
    playoff_dealer,
    playoff_players,
)


def test_a_match_is_nine_holes():
    """Nine regulation holes."""
    assert HOLES == 9


def test_the_dealer_moves_one_seat_left_each_hole_playoffs_included():
    """Hole k is dealt by first_dealer + k, around the table."""
    assert [dealer_for_hole(2, hole, 4) for hole in range(11)] == [2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_lowest_card_deals_and_ties_draw_again(variant):
    """The dealer holds the lowest card of the last round; only tied seats drew again."""
    rules = VARIANTS[variant]
    for seed in range(30):
        dealer, rounds = choose_first_dealer(variant, rules.min_players + 1, seed)
        last = rounds[-1]
        drawn = [seat for seat, card in enumerate(last) if card is not None]
        assert dealer in drawn
        assert all(rules.values[last[dealer]] < rules.values[last[s]] for s in drawn if s != dealer)
        for earlier, later in zip(rounds, rounds[1:], strict=False):
            low = min(rules.values[card] for card in earlier if card is not None)
            tied = [
                seat
                for seat, card in enumerate(earlier)
                if card is not None and rules.values[card] == low
            ]
            assert [seat for seat, card in enumerate(later) if card is not None] == tied


def test_play_nine_minus_five_is_the_lowest_card():
    """Play Nine's -5 beats 0 when choosing the dealer."""
    for seed in range(200):
        dealer, rounds = choose_first_dealer("play-nine", 6, seed)
        if -5 in rounds[0] and rounds[0].count(-5) == 1:
            assert rounds[0][dealer] == -5
            return
    pytest.fail("no seed dealt a single -5")


def test_choosing_the_dealer_is_reproducible():
    """The same seed draws the same cards."""
    assert choose_first_dealer("golf-6", 4, 7) == choose_first_dealer("golf-6", 4, 7)


def test_totals_count_the_nine_regulation_holes_only():
    """Playoff holes never change the regulation totals."""
    holes = [[1, 2, 3]] * 9 + [[5, 0, None]]
    assert match_totals(holes, 3) == (9, 18, 27)


def test_regulation_in_progress_has_every_seat_in_contention():
    """Before nine holes nobody has won; places follow the totals so far."""
    status = match_status([[3, 1, 3], [0, 4, 1]], 3)
    assert not status.over and not status.next_hole_is_playoff
    assert status.contenders == (0, 1, 2)
    assert status.winner is None
    assert status.totals == (3, 5, 4)
    assert status.places == (1, 3, 2)


def test_the_lowest_total_wins_with_competition_ranking():
    """Ties below the winner share a place: 1, 2, 2, 4."""
    holes = [[0, 1, 1, 2]] * 9
    status = match_status(holes, 4)
    assert status.over and status.winner == 0
    assert status.places == (1, 2, 2, 4)


def test_a_tie_for_lowest_goes_to_a_sudden_death_playoff():
    """Tied seats play on; the others are out of contention."""
    holes = [[1, 1, 2]] * 9
    status = match_status(holes, 3)
    assert not status.over and status.next_hole_is_playoff
    assert status.contenders == (0, 1)
    assert status.places == (1, 1, 3)
    status = match_status(holes + [[4, 4, None]], 3)
    assert status.next_hole_is_playoff and status.contenders == (0, 1)
    status = match_status(holes + [[4, 4, None], [5, 3, None]], 3)
    assert status.over and status.winner == 1
    assert status.places == (2, 1, 3)


def test_playoff_losers_share_second_place():
    """Among the tied-for-lowest, the playoff winner is 1st and the others share 2nd."""
    holes = [[2, 2, 2, 5]] * 9 + [[3, 3, 6, 0], [1, 2, 9, 0]]
    status = match_status(holes, 4)
    assert status.winner == 0
    assert status.places == (1, 2, 2, 4)


def test_only_contenders_scores_decide_a_playoff():
    """In golf-4 everyone plays the playoff; a non-contender's low score decides nothing."""
    holes = [[1, 1, 3]] * 9 + [[5, 4, -2]]
    status = match_status(holes, 3)
    assert status.winner == 1


def test_who_plays_a_playoff_hole():
    """Tied seats play among themselves; in 4-card Golf, which needs three, everyone plays."""
    assert playoff_players("play-nine", (3, 1), 5) == (1, 3)
    assert playoff_players("golf-9-3deck", (0, 2, 4), 8) == (0, 2, 4)
    assert playoff_players("golf-4", (0, 2), 4) == (0, 1, 2, 3)


def test_the_playoff_dealer_keeps_the_rotation():
    """The first dealt seat left of the table's dealer plays first in the playoff hole."""
    # Seats 1 and 3 of five play; the table's dealer is seat 2, so seat 3 plays first.
    seats = (1, 3)
    engine_dealer = playoff_dealer(2, seats, 5)
    assert seats[(engine_dealer + 1) % 2] == 3
    # The dealer is a contender: it deals as usual.
    assert playoff_dealer(3, seats, 5) == 1


def test_scores_must_fit_the_table():
    """A hole without a score per seat is refused."""
    with pytest.raises(ValueError):
        match_totals([[1, 2]], 3)
    with pytest.raises(ValueError):
        match_status([[1, None, 2]] * 9, 3)

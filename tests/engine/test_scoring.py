"""Scoring tables worked out by hand, one rule at a time."""

from __future__ import annotations

import random
import re

import pytest

from games.engine import VARIANTS, hole_score_range, score_layout, scoring_pairs
from games.engine.layouts import ColumnScoring, PlayNineScoring, Scoring


# Play Nine: positions 0-3 are the top row, 4-7 the bottom; columns are (c, c + 4).
@pytest.mark.parametrize(
    ("cards", "strokes", "why"),
    [
        ([1, 2, 3, 4, 5, 6, 7, 8], 36, "no pairs: every card scores its value"),
        ([5, 2, 3, 4, 5, 6, 7, 8], 30, "a pair of 5s in column 0 scores 0"),
        ([-5, 2, 3, 4, -5, 6, 7, 8], 20, "a pair of -5s keeps its -10: -10 + 30"),
        ([-5, 0, 3, 4, 1, 6, 7, 8], 24, "single -5 scores -5 and 0 scores 0"),
        ([-5, -5, 1, 2, -5, -5, 3, 4], -20, "two pairs of -5: -20 - 10 = -30, plus 10"),
        ([-5, -5, 0, 0, -5, -5, 0, 0], -40, "two -5 pairs (-30), two 0 pairs (-10)"),
        ([7, 7, 3, 3, 7, 7, 3, 3], -20, "two pairs of 7 and two of 3: -10 each bonus"),
        ([7, 7, 7, 1, 7, 7, 7, 2], -12, "three pairs of 7: -15, plus 1 + 2"),
        ([9, 9, 9, 9, 9, 9, 9, 9], -20, "four pairs of 9: -20"),
        ([12, 1, 12, 1, 12, 2, 12, 2], -4, "pairs in columns 0 and 2 (not neighbours): -10"),
        ([4, 4, 1, 1, 5, 5, 2, 2], 24, "equal cards side by side in a row are no pair"),
        ([6, 2, 3, 4, 5, 6, 7, 8], 41, "diagonal equal cards are no pair"),
    ],
)
def test_play_nine_scoring(cards, strokes, why):
    """Play Nine: column pairs score 0 (-5 pairs keep -10), repeated pairs earn -5 each."""
    assert score_layout("play-nine", cards) == strokes, why


def test_play_nine_each_value_earns_its_own_bonus():
    """Two pairs of 7 and two pairs of 3 score -20: two separate -10 bonuses."""
    assert score_layout("play-nine", [7, 3, 7, 3, 7, 3, 7, 3]) == -20


@pytest.mark.parametrize(
    ("cards", "strokes", "why"),
    [
        (["AS", "2H", "3D", "4C", "5S", "6H"], 1 - 2 + 3 + 4 + 5 + 6, "face values, 2 = -2"),
        (["JS", "QH", "KD", "10C", "9S", "8H"], 10 + 10 + 0 + 10 + 9 + 8, "J=Q=10, K=0"),
        (["7S", "2H", "3D", "7C", "5S", "6H"], -2 + 3 + 5 + 6, "a column pair of 7s scores 0"),
        (["2S", "2H", "3D", "2C", "5S", "6H"], -2 + 3 + 5 + 6, "a pair of twos scores 0"),
        (["JS", "4H", "3D", "QC", "5S", "6H"], 10 + 10 + 4 + 3 + 5 + 6, "J and Q: no pair"),
        (["7S", "7H", "3D", "4C", "5S", "6H"], 7 + 7 + 3 + 4 + 5 + 6, "a row pair is none"),
    ],
)
def test_six_card_golf_scoring(cards, strokes, why):
    """6-card Golf: columns are (c, c + 3); same rank scores 0; a Jack and Queen do not pair."""
    assert score_layout("golf-6", cards) == strokes, why


def test_four_card_golf_columns_pair():
    """4-card Golf: columns (0, 2) and (1, 3); a pair scores 0."""
    assert score_layout("golf-4", ["9S", "KH", "9D", "3C"]) == 3
    assert score_layout("golf-4", ["9S", "9H", "3D", "3C"]) == 24


@pytest.mark.parametrize(
    ("cards", "strokes", "why"),
    [
        (["3S", "4H", "5D", "3C", "6S", "7H", "3D", "8S", "9H"], 4 + 5 + 6 + 7 + 8 + 9, "3 of 3"),
        (["3S", "4H", "5D", "3C", "6S", "7H", "KD", "8S", "9H"], 39, "two 3s: only the K"),
        (["3S", "4H", "5D", "QC", "6S", "7H", "3D", "8S", "9H"], 10 + 39, "two 3s: only the Q"),
        (["QS", "4H", "5D", "3C", "6S", "7H", "3D", "8S", "9H"], 10 + 39, "two 3s: only the Q"),
        (["2S", "4H", "5D", "2C", "6S", "7H", "AD", "8S", "9H"], 1 + 39, "two twos: only the A"),
        (["3S", "3H", "3D", "4C", "5S", "6H", "7D", "8S", "9H"], 48, "a row of 3s is no pair"),
    ],
)
def test_nine_card_golf_column_rules(cards, strokes, why):
    """Decision: in a column of three, equal ranks cancel: all three 0, or two leave the third."""
    assert score_layout("golf-9", cards) == strokes, why


@pytest.mark.parametrize(
    ("cards", "strokes", "why"),
    [
        (["3S", "3H", "4D", "3C", "5S", "6H", "7D", "8S", "9H"], 4 + 5 + 6 + 7 + 8 + 9, "an L"),
        (["3S", "4H", "3D", "5C", "6S", "7H", "8D", "9S", "10H"], 55, "3s apart: no pair"),
        (["3S", "4H", "5D", "6C", "3S", "7H", "8D", "9S", "10H"], 55, "diagonal: no pair"),
        (["2S", "4H", "5D", "6C", "7S", "8H", "9D", "10S", "AH"], 52, "2 scores 2"),
        (["JK", "4H", "5D", "6C", "7S", "8H", "9D", "10S", "AH"], 48, "joker scores -2"),
        (["JK", "JK", "5D", "6C", "7S", "8H", "9D", "10S", "AH"], 46, "two jokers pair to 0"),
        (["JS", "4H", "5D", "QC", "7S", "8H", "9D", "10S", "AH"], 64, "J and Q: no pair"),
    ],
)
def test_three_deck_adjacent_pairs(cards, strokes, why):
    """Adjacent equal ranks score 0 (rows or columns, jokers too); diagonals do not pair."""
    assert score_layout("golf-9-3deck", cards) == strokes, why


def test_three_deck_four_of_a_kind_in_two_columns_earns_minus_25():
    """Two columns each with a vertical pair of 7s: the pairs score 0 and a further -25."""
    cards = ["7S", "4H", "7D", "7C", "5S", "7H", "9D", "10S", "AH"]
    assert score_layout("golf-9-3deck", cards) == 4 + 5 + 9 + 10 + 1 - 25


def test_three_deck_bonus_pairs_need_not_share_rows_or_be_neighbours():
    """The two vertical pairs may sit in columns 0 and 2 and in different rows."""
    cards = ["7S", "4H", "5D", "7C", "6S", "7H", "9D", "10S", "7D"]
    assert score_layout("golf-9-3deck", cards) == 4 + 5 + 6 + 9 + 10 - 25


def test_three_deck_bonus_is_earned_once_per_rank():
    """Three columns each holding a vertical pair of 7s still earn -25 once."""
    cards = ["7S", "7H", "7D", "7C", "7S", "7H", "9D", "10S", "AH"]
    assert score_layout("golf-9-3deck", cards) == 9 + 10 + 1 - 25


def test_three_deck_one_column_of_three_is_no_bonus():
    """Three 7s in one column make two vertical pairs, but in one column: no -25."""
    cards = ["7S", "4H", "5D", "7C", "6S", "8H", "7D", "10S", "AH"]
    assert score_layout("golf-9-3deck", cards) == 4 + 5 + 6 + 8 + 10 + 1


def test_three_deck_row_pairs_earn_no_bonus():
    """Four 7s in two horizontal pairs score 0 but earn no -25: the bonus needs vertical pairs."""
    cards = ["7S", "7H", "4D", "5C", "6S", "8H", "7D", "7C", "9H"]
    assert score_layout("golf-9-3deck", cards) == 4 + 5 + 6 + 8 + 9


def test_score_layout_refuses_a_layout_with_face_down_cards_or_the_wrong_size():
    """Only full face-up layouts of the game's size score."""
    with pytest.raises(ValueError):
        score_layout("play-nine", [1, 2, 3, 4, 5, 6, 7, None])
    with pytest.raises(ValueError):
        score_layout("play-nine", [1, 2, 3])
    with pytest.raises(ValueError):
        score_layout("golf-6", ["AS", "2H", "3D", "4C", "5S", "XX"])
    with pytest.raises(ValueError):
        score_layout("nope", [1])


def test_scoring_pairs_name_the_groups_that_scored():
    """The UI highlights exactly the groups that cancelled."""
    assert scoring_pairs("play-nine", [7, 3, 1, 2, 7, 3, 4, 5]) == [(0, 4), (1, 5)]
    assert scoring_pairs("golf-9", ["3S", "4H", "5D", "3C", "6S", "7H", "3D", "8S", "5H"]) == [
        (0, 3, 6),
        (2, 8),
    ]
    assert scoring_pairs(
        "golf-9-3deck", ["3S", "3H", "4D", "3C", "5S", "6H", "7D", "8S", "9H"]
    ) == [(0, 1), (0, 3)]
    assert scoring_pairs("golf-6", ["JS", "4H", "5D", "QC", "4S", "6H"]) == [(1, 4)]


@pytest.mark.parametrize(
    ("variant", "low", "high"),
    [
        # Two pairs of -5 (-10 each, -10 bonus) and two pairs of 0 (-10 bonus);
        # columns of 12 over 11 never pair.
        ("play-nine", -40, 92),
        # A 2 (-2) over a King (0) in every column; a Jack over a Queen is no pair.
        ("golf-6", -6, 60),
        ("golf-4", -4, 40),
        # 2, K, K in each column scores the 2; Q, J, 10 never pair.
        ("golf-9", -6, 90),
        # Kings paired down two columns (-25) and three jokers kept apart (-6).
        ("golf-9-3deck", -31, 90),
    ],
)
def test_hole_score_range_matches_the_extremes_worked_out_by_hand(variant, low, high):
    """Hand-entered strokes are checked against these limits."""
    assert hole_score_range(variant) == (low, high)


def test_the_extreme_layouts_worked_out_by_hand_score_as_the_engine_says():
    assert score_layout("play-nine", [-5, -5, 0, 0, -5, -5, 0, 0]) == -40
    assert score_layout("play-nine", [12, 11, 12, 11, 11, 12, 11, 12]) == 92
    kings = ["KS", "JK", "KH", "KD", "QS", "KC", "JK", "QH", "JK"]
    assert score_layout("golf-9-3deck", kings) == -31


# --- the scoring primitives the variants (and the bots) share -------------------------------


def test_a_play_nine_pair_scores_zero_but_a_hole_in_one_pair_keeps_its_minus_10():
    scoring = PlayNineScoring()
    assert scoring.pair_value(-5) == -10
    assert [scoring.pair_value(value) for value in range(13)] == [0] * 13


@pytest.mark.parametrize(
    ("pair_ranks", "bonus"),
    [
        ([], 0),
        ([7], 0),
        ([7, 3], 0),
        ([7, 7], -10),
        ([7, 7, 7], -15),
        ([9, 9, 9, 9], -20),
        ([7, 3, 7, 3], -20),
        ([-5, -5], -10),
        ([0, 7, 0], -10),
    ],
)
def test_play_nine_pairs_of_one_value_earn_five_each_from_the_second(pair_ranks, bonus):
    assert PlayNineScoring().pairs_bonus(pair_ranks) == bonus


def test_golf_columns_score_nothing_beyond_cancelling():
    scoring = ColumnScoring()
    assert scoring.pair_value("K") == 0
    assert scoring.pairs_bonus(["7", "7", "7"]) == 0
    assert scoring.pairs_score(["2", "2"]) == 0


def test_play_nine_matched_columns_score_their_pair_values_and_bonus_together():
    """Two pairs of -5: -10 each and -10 bonus; a pair of 4 alone adds nothing."""
    assert PlayNineScoring().pairs_score([-5, 4, -5]) == -30


@pytest.mark.parametrize("variant", ["play-nine", "golf-6", "golf-4"])
def test_two_row_columns_score_one_by_one_as_their_pair_groups_say(variant):
    """The column-by-column short cut gives the score of the general rule (pair groups,
    their cards cancelled, then the bonus), on layouts rich in pairs."""
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    deck = rules.deck(rules.max_players)
    ranks_in_deck = sorted({rules.ranks[card] for card in deck}, key=str)
    for index in range(300):
        cards = deck
        if index % 2:
            few = set(rng.sample(ranks_in_deck, 3))
            cards = [card for card in deck if rules.ranks[card] in few]
        cards = rng.sample(cards, rules.size)
        ranks = [rules.ranks[card] for card in cards]
        values = [rules.values[card] for card in cards]
        general = Scoring.score(rules.scoring, rules.rows, rules.cols, ranks, values)
        score = score_layout(variant, cards)
        assert score == general, cards
        assert type(score) is int
        assert score_layout(variant, tuple(cards)) == score


@pytest.mark.parametrize(
    ("variant", "cards", "message"),
    [
        ("play-nine", [1, 2, 3, 4, 5, 6, 7, None], "only Play Nine cards, all face up"),
        ("play-nine", [1, 2, 3, 4, 5, 6, 7, -1], "only Play Nine cards, all face up"),
        ("play-nine", [1, 2, 3, 4, 5, 6, 7, [8]], "only Play Nine cards, all face up"),
        ("play-nine", [1, 2, 3, 4, 5, 6, 7, "7S"], "only Play Nine cards, all face up"),
        ("play-nine", [1, 2, 3], "A Play Nine layout holds 8 cards."),
        ("golf-6", ["AS", "2H", "3D", "4C", "5S", 5], "only 6-card Golf cards, all face up"),
        ("golf-6", ["AS", "2H", "3D", "4C", "5S", "JK"], "only 6-card Golf cards, all face up"),
        ("golf-4", ["AS", "2H", "3D", None], "only 4-card Golf (knocking) cards, all face up"),
        ("golf-9", ["AS"] * 8 + [{}], "only 9-card Golf cards, all face up"),
    ],
)
def test_score_layout_names_what_is_wrong(variant, cards, message):
    """A face-down, unknown or unhashable card, or a layout of the wrong size, is refused
    with a sentence that says so."""
    with pytest.raises(ValueError, match=re.escape(message)):
        score_layout(variant, cards)

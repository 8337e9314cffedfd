"""The decks, and how cards are written and named."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import VARIANTS, card_label, card_text


def test_play_nine_deck_has_108_cards_eight_of_each_value_and_four_hole_in_ones():
    """Play Nine: eight each of 0 to 12 and four -5s."""
    counts = Counter(VARIANTS["play-nine"].deck(4))
    assert sum(counts.values()) == 108
    assert counts[-5] == 4
    assert all(counts[value] == 8 for value in range(13))


@pytest.mark.parametrize(
    ("variant", "players", "size"),
    [
        ("golf-6", 2, 52),
        ("golf-6", 3, 52),
        ("golf-6", 4, 104),
        ("golf-6", 6, 104),
        ("golf-4", 3, 52),
        ("golf-4", 4, 104),
        ("golf-4", 7, 104),
        ("golf-9", 3, 52),
        ("golf-9", 4, 104),
        ("golf-9-3deck", 2, 162),
        ("golf-9-3deck", 8, 162),
    ],
)
def test_standard_games_use_one_deck_for_few_players_and_two_for_more(variant, players, size):
    """One deck for 2-3 players, two from 4 players; three decks with jokers for golf-9-3deck."""
    assert len(VARIANTS[variant].deck(players)) == size


def test_golf_decks_have_no_jokers_and_the_three_deck_game_has_six():
    """Jokers exist only in the three-deck game, two per deck."""
    assert "JK" not in VARIANTS["golf-6"].deck(4)
    assert VARIANTS["golf-9-3deck"].deck(2).count("JK") == 6


@pytest.mark.parametrize(
    ("variant", "card", "label", "text"),
    [
        ("play-nine", -5, "Hole-in-One, minus 5", "-5"),
        ("play-nine", 0, "Mulligan, 0", "0"),
        ("play-nine", 7, "7", "7"),
        ("play-nine", 12, "12", "12"),
        ("golf-6", "AS", "Ace of spades", "A\u2660"),
        ("golf-6", "10D", "10 of diamonds", "10\u2666"),
        ("golf-9", "QH", "Queen of hearts", "Q\u2665"),
        ("golf-4", "KC", "King of clubs", "K\u2663"),
        ("golf-9-3deck", "JC", "Jack of clubs", "J\u2663"),
        ("golf-9-3deck", "JK", "Joker", "Joker"),
    ],
)
def test_card_label_and_text(variant, card, label, text):
    """Labels are for screen readers, texts for the card's face."""
    assert card_label(variant, card) == label
    assert card_text(variant, card) == text


@pytest.mark.parametrize(
    ("variant", "card"),
    [("play-nine", 13), ("play-nine", True), ("play-nine", "5"), ("golf-6", "1S"), ("golf-6", 5)],
)
def test_unknown_cards_have_no_label(variant, card):
    """A value that is no card of the game is a ValueError, not a guess."""
    with pytest.raises(ValueError):
        card_label(variant, card)
    with pytest.raises(ValueError):
        card_text(variant, card)

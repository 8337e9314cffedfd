"""Dealing a hole: deal order, seeds, decks and refusals."""

from __future__ import annotations

import random

import pytest

from games.engine import VARIANTS, new_hole, view
from games.engine.cards import shuffle


def test_cards_are_dealt_one_at_a_time_from_the_dealers_left():
    """Seat dealer+1 gets the first card; a seat's k-th card goes to position k."""
    deck = VARIANTS["play-nine"].deck(3)  # sorted: -5 x4, 0 x8, 1 x8 ...
    state = new_hole("play-nine", 3, deck=deck, dealer=1)
    order = [deck[i] for i in range(24)]
    assert list(state.layouts[2]) == order[0::3][:8]
    assert list(state.layouts[0]) == order[1::3][:8]
    assert list(state.layouts[1]) == order[2::3][:8]


def test_the_next_card_starts_the_discard_pile_and_the_rest_is_the_draw_pile():
    """After the layouts, one card goes face up; the next card is the top of the draw pile."""
    deck = VARIANTS["golf-6"].deck(2)
    state = new_hole("golf-6", 2, deck=deck)
    assert state.discard_pile == (deck[12],)
    assert state.draw_pile[-1] == deck[13]  # piles are stacks, top card last
    assert len(state.draw_pile) == 52 - 13
    assert view(state, None)["discard_top"] == deck[12]


def test_deal_order_by_seat_with_distinct_cards():
    """With distinct cards, each seat's layout follows the round-robin deal exactly."""
    deck = VARIANTS["golf-9"].deck(3)
    state = new_hole("golf-9", 3, deck=deck, dealer=2)
    for seat_offset, seat in enumerate([0, 1, 2]):
        assert list(state.layouts[seat]) == [deck[k * 3 + seat_offset] for k in range(9)]


def test_the_same_seed_deals_the_same_hole_and_the_state_keeps_it():
    """A seed makes the deal reproducible; the state records it."""
    first = new_hole("play-nine", 4, seed=42)
    second = new_hole("play-nine", 4, seed=42)
    assert first == second
    assert first.seed == 42
    assert new_hole("play-nine", 4, seed=43).layouts != first.layouts


def test_a_hole_without_seed_gets_one_and_a_given_deck_without_seed_keeps_zero():
    """With no seed the engine picks one; a given deck without a seed records 0."""
    assert isinstance(new_hole("golf-6", 2).seed, int)
    assert new_hole("golf-6", 2, deck=VARIANTS["golf-6"].deck(2)).seed == 0


def test_a_given_deck_is_not_shuffled():
    """The deck given is dealt exactly as given, top card first."""
    deck = VARIANTS["play-nine"].deck(2)
    state = new_hole("play-nine", 2, deck=deck, seed=5)
    assert state.layouts[1][0] == deck[0]
    assert state.seed == 5


@pytest.mark.parametrize(
    "deck",
    [
        VARIANTS["play-nine"].deck(2)[:-1],
        VARIANTS["play-nine"].deck(2) + [3],
        [True if card == 1 else card for card in VARIANTS["play-nine"].deck(2)],
        [str(card) for card in VARIANTS["play-nine"].deck(2)],
        VARIANTS["golf-6"].deck(2),
    ],
)
def test_a_deck_that_is_not_the_games_deck_is_refused(deck):
    """Wrong count, wrong multiset or wrong types (True is not a card): ValueError."""
    with pytest.raises(ValueError):
        new_hole("play-nine", 2, deck=deck)


def test_the_two_deck_game_wants_two_decks():
    """golf-6 for four players is dealt from two decks."""
    with pytest.raises(ValueError):
        new_hole("golf-6", 4, deck=VARIANTS["golf-6"].deck(3))
    assert len(new_hole("golf-6", 4, seed=1).draw_pile) == 104 - 24 - 1


@pytest.mark.parametrize(
    ("variant", "players", "dealer"),
    [
        ("nope", 2, 0),
        ("play-nine", 1, 0),
        ("play-nine", 7, 0),
        ("golf-4", 2, 0),
        ("golf-4", 8, 0),
        ("golf-9-3deck", 9, 0),
        ("play-nine", 3, 3),
        ("play-nine", 3, -1),
        ("play-nine", True, 0),
    ],
)
def test_unknown_variant_player_count_or_dealer_is_a_value_error(variant, players, dealer):
    """Outside a game's player range, or a dealer not at the table: ValueError."""
    with pytest.raises(ValueError):
        new_hole(variant, players, dealer=dealer)


@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_every_variant_deals_at_both_ends_of_its_player_range(key):
    """Each game deals for its fewest and its most players, into tee off."""
    rules = VARIANTS[key]
    for players in (rules.min_players, rules.max_players):
        state = new_hole(key, players, seed=1)
        assert state.phase == "tee_off"
        assert state.turn is None
        assert state.version == 0
        assert state.scores is None
        assert all(len(layout) == rules.size for layout in state.layouts)


def test_variants_table():
    """The games' table of games/engine/README.md: layout and player range of each game."""
    table = {
        key: (rules.rows, rules.cols, rules.min_players, rules.max_players, rules.opening_flips)
        for key, rules in VARIANTS.items()
    }
    assert table == {
        "play-nine": (2, 4, 2, 6, 2),
        "golf-6": (2, 3, 2, 6, 2),
        "golf-4": (2, 2, 3, 7, 2),
        "golf-9": (3, 3, 2, 6, 3),
        "golf-9-3deck": (3, 3, 2, 8, 3),
    }
    assert VARIANTS["play-nine"].name == "Play Nine"


@pytest.mark.parametrize("size", [0, 1, 2, 3, 52, 108, 162, 1023, 1024, 1500])
def test_the_engine_shuffles_exactly_as_random_does(size):
    """Holes dealt and refilled before keep replaying: the engine's shuffle moves the
    cards and the random source exactly as `random.Random.shuffle` does."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        cards = list(range(size))
        expected = list(cards)
        shuffle(cards, ours)
        theirs.shuffle(expected)
        assert cards == expected
        assert ours.getstate() == theirs.getstate()

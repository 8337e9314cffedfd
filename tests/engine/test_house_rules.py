"""House rules: each changes play or scoring as it says, and only where chosen."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import (
    VARIANTS,
    IllegalAction,
    apply_action,
    legal_actions,
    new_hole,
    score_layout,
    state_from_dict,
    state_to_dict,
    view,
)
from games.engine.bots import BOT_LEVELS, choose_action
from games.engine.hole import OVER
from games.engine.variants import get_variant, with_house_rules

from .helpers import acting_seat

DRAW = {"type": "draw", "source": "pile"}
STANDARD_DRAWS = ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "7C", "8C", "9C", "10C", "JC"]


def dealt(variant: str, players: int, layouts, discard, draw=()):
    """A hole of `variant` (house rules and all) dealt from a stacked deck, dealer 0."""
    rules = get_variant(variant)
    deck = [
        layouts[offset % players][p] for p in range(rules.size) for offset in range(1, players + 1)
    ]
    deck += [discard, *draw]
    rest = Counter(rules.deck(players))
    rest.subtract(deck)
    assert min(rest.values()) >= 0, "the stacked cards are not in the deck"
    deck += sorted(rest.elements(), key=lambda card: (str(type(card)), card))
    return new_hole(variant, players, deck=deck)


def tee_off_all(state, positions=None):
    """Every seat tees off, seat by seat, with `positions` per seat or its first cards."""
    for seat in range(state.players):
        chosen = (positions or {}).get(seat, list(range(state.rules.opening_flips)))
        state = apply_action(state, seat, {"type": "tee_off", "positions": chosen})
    return state


def play(state, seat, *actions):
    for action in actions:
        state = apply_action(state, seat, action)
    return state


# --- choosing them ---------------------------------------------------------------------


def test_house_rules_make_a_variant_whose_key_names_them_in_the_games_order():
    """The key lists the game, then its rules in the order the game offers them."""
    rules = with_house_rules("golf-6", ["kings-minus-2", "last-turns"])
    assert rules.key == "golf-6+last-turns+kings-minus-2"
    assert get_variant(rules.key) is rules
    assert rules.game is VARIANTS["golf-6"]
    assert rules.house_rule_keys == ("last-turns", "kings-minus-2")
    assert rules.full_name == "6-card Golf (last turns, Kings -2)"
    assert with_house_rules(rules, ["jokers"]).house_rule_keys == ("jokers",)


def test_no_house_rules_is_the_game_itself():
    for key, rules in VARIANTS.items():
        assert with_house_rules(key, []) is rules
        assert rules.house_rules == () and rules.full_name == rules.name
        assert rules.house_rule_options, f"{key} offers no house rule"


@pytest.mark.parametrize(
    ("variant", "chosen", "message"),
    [
        ("golf-6", ["no-skip"], "no house rule"),
        ("play-nine", ["bogus"], "no house rule"),
        ("golf-4", ["jokers", "jokers"], "once"),
        ("golf-4", "jokers", "list"),
        ("golf-4", [3], "no house rule"),
        ("nine-ball", [], "Unknown variant"),
    ],
)
def test_a_rule_the_game_does_not_offer_is_refused(variant, chosen, message):
    with pytest.raises(ValueError, match=message):
        with_house_rules(variant, chosen)


@pytest.mark.parametrize("key", ["golf-6+", "golf-6+bogus", "bogus+jokers", "golf-6+jokers+jokers"])
def test_an_unknown_key_is_refused(key):
    with pytest.raises(ValueError):
        new_hole(key, 2, seed=1)


def test_the_games_list_holds_the_five_games_only():
    with_house_rules("golf-9", ["jokers"])
    assert list(VARIANTS) == ["play-nine", "golf-6", "golf-4", "golf-9", "golf-9-3deck"]


# --- what each changes ----------------------------------------------------------------


def test_play_nine_without_the_skip_has_no_plain_discard():
    """No skip: with one card face down a pile card is used or flips that card."""
    a = [1, 2, 3, 4, 5, 6, 7, 8]
    b = [9, 10, 11, 12, 9, 10, 11, 12]
    draws = [0] * 7 + [-5] * 4
    for variant, skips in (("play-nine", True), ("play-nine+no-skip", False)):
        state = tee_off_all(dealt(variant, 2, [a, b], 0, draws), {1: [0, 1], 0: [0, 1]})
        for position in range(2, 7):
            state = play(state, 1, DRAW, {"type": "replace", "position": position})
            state = play(state, 0, DRAW, {"type": "replace", "position": position})
        state = play(state, 1, DRAW)
        assert state.face_up[1].count(False) == 1
        assert ({"type": "discard"} in legal_actions(state, 1)) is skips
        if not skips:
            with pytest.raises(IllegalAction, match="no plain discard"):
                apply_action(state, 1, {"type": "discard"})
            assert {"type": "flip", "position": 7} in legal_actions(state, 1)


@pytest.mark.parametrize("game", ["golf-6", "golf-9"])
def test_last_turns_give_the_others_one_more_turn_after_a_player_goes_out(game):
    size = VARIANTS[game].size
    flips = VARIANTS[game].opening_flips
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9"][:size]
    layouts = [[rank + "S" for rank in ranks], [rank + "H" for rank in ranks]]
    state = tee_off_all(dealt(f"{game}+last-turns", 2, layouts, "AD", STANDARD_DRAWS))
    for position in range(flips, size):
        state = play(state, 1, DRAW, {"type": "replace", "position": position})
        if position < size - 1:
            state = play(state, 0, DRAW, {"type": "discard"})
    assert (state.phase, state.turn, state.finisher) == ("final_turns", 0, 1)
    state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == OVER
    assert state.scores == [score_layout(state.variant, layout) for layout in state.layouts]


@pytest.mark.parametrize("game", ["golf-6", "golf-4", "golf-9"])
def test_jokers_join_each_deck_and_score_minus_two(game):
    rules = with_house_rules(game, ["jokers"])
    base = VARIANTS[game]
    for players in (rules.min_players, rules.max_players):
        decks = len(base.deck(players)) // 52
        assert Counter(rules.deck(players)) == Counter(base.deck(players)) + Counter(
            {"JK": 2 * decks}
        )
    filler = ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"]
    # A joker where an Ace was: 3 strokes fewer.
    alone = ["JK", *filler][: rules.size]
    assert score_layout(rules, alone) == score_layout(base, ["AS", *filler][: rules.size]) - 3
    with pytest.raises(ValueError):
        score_layout(base, alone)


def test_a_pair_of_jokers_in_a_column_scores_zero():
    rules = with_house_rules("golf-6", ["jokers"])
    assert score_layout(rules, ["JK", "3H", "4H", "JK", "3S", "5H"]) == 9
    assert score_layout(rules, ["JK", "3H", "4H", "2S", "3S", "5H"]) == 5


@pytest.mark.parametrize("game", ["golf-6", "golf-4", "golf-9", "golf-9-3deck"])
def test_kings_score_minus_two_and_a_pair_of_kings_still_zero(game):
    rules = with_house_rules(game, ["kings-minus-2"])
    base = VARIANTS[game]
    layout = ["KH", "5H", "6H", "7H", "8H", "9H", "10H", "4C", "3C"][: rules.size]
    assert score_layout(rules, layout) == score_layout(base, layout) - 2
    if game != "golf-9-3deck":
        paired = list(layout)
        paired[rules.cols] = "KS"
        assert score_layout(rules, paired) == score_layout(base, paired)


def test_whole_columns_only_cancel_three_of_a_kind_in_nine_card_golf():
    rules = with_house_rules("golf-9", ["whole-columns"])
    two = ["3H", "4H", "5H", "3S", "6H", "7H", "8H", "9H", "10H"]
    three = ["3H", "4H", "5H", "3S", "6H", "7H", "3D", "9H", "10H"]
    assert score_layout("golf-9", two) == 49
    assert score_layout(rules, two) == 55
    assert score_layout(rules, three) == score_layout("golf-9", three) == 41
    assert rules.scoring_pairs(two) == [] and rules.scoring_pairs(three) == [(0, 3, 6)]


def test_no_knock_in_the_first_round_of_four_card_golf():
    layouts = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    knock = {"type": "knock"}
    plain = tee_off_all(dealt("golf-4", 3, layouts, "AD", STANDARD_DRAWS))
    assert knock in legal_actions(plain, 1)
    state = tee_off_all(dealt("golf-4+no-first-knock", 3, layouts, "AD", STANDARD_DRAWS))
    for seat in (1, 2, 0):
        assert knock not in legal_actions(state, seat)
        with pytest.raises(IllegalAction, match="everyone has taken a turn"):
            apply_action(state, seat, knock)
        state = play(state, seat, DRAW, {"type": "discard"})
    assert knock in legal_actions(state, 1)
    state = apply_action(state, 1, knock)
    assert (state.phase, state.finisher) == ("final_turns", 1)


def test_no_rearranging_in_three_deck_golf():
    state = new_hole("golf-9-3deck+no-rearranging", 2, seed=3)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1, 2]})
    assert legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="no rearranging"):
        apply_action(state, 0, {"type": "swap", "positions": [0, 8]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 1, 2]})
    assert {action["type"] for action in legal_actions(state, 1)} == {"draw"}


def test_a_hole_with_house_rules_keeps_them_through_a_snapshot_and_the_view():
    state = new_hole("golf-6+jokers+last-turns", 3, seed=5, dealer=1)
    assert view(state, 0)["variant"] == "golf-6+last-turns+jokers"
    assert state.rules.house_rule_keys == ("last-turns", "jokers")
    back = state_from_dict(state_to_dict(state))
    assert back == state
    assert (
        new_hole(with_house_rules("golf-6", ["last-turns", "jokers"]), 3, seed=5, dealer=1) == state
    )


# --- the bots play every rule set ----------------------------------------------------------

RULE_SETS = [
    (key, (rule.key,)) for key, rules in VARIANTS.items() for rule in rules.house_rule_options
] + [(key, tuple(rule.key for rule in rules.house_rule_options)) for key, rules in VARIANTS.items()]


@pytest.mark.parametrize(("game", "chosen"), RULE_SETS)
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_play_full_holes_under_every_house_rule(game, chosen, level):
    rules = with_house_rules(game, chosen)
    rng = random.Random(f"{rules.key}:{level}")
    players = max(rules.min_players, 3)
    state = new_hole(rules.key, players, seed=rng.getrandbits(32), dealer=1)
    for _ in range(2000):
        if state.phase == OVER:
            break
        seat = acting_seat(state)
        state = apply_action(state, seat, choose_action(state, seat, level, rng))
    assert state.phase == OVER
    assert state.scores == [score_layout(rules, layout) for layout in state.layouts]

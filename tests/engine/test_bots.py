"""Bots play every game legally, decide from what their seat may know, and differ in strength."""

from __future__ import annotations

import random

import pytest

from games.engine import VARIANTS, apply_action, legal_actions, new_hole, score_layout
from games.engine.bots import BOT_LEVELS, choose_action
from games.engine.scene import Estimator, Pool
from games.engine.simulate import mean_ci95, play_hole, simulate

from .helpers import acting_seat, stacked_deck

CASES = [
    (key, players)
    for key, rules in VARIANTS.items()
    for players in (rules.min_players, rules.max_players)
]


@pytest.mark.parametrize(("variant", "players"), CASES)
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_every_bot_plays_every_game_legally_to_the_end(variant, players, level):
    """Each bot's choice is one of the legal actions, and the hole ends."""
    rng = random.Random(5)
    state = new_hole(variant, players, seed=5)
    for _ in range(5000):
        if state.phase == "over":
            break
        seat = acting_seat(state)
        action = choose_action(state, seat, level, rng)
        normal = {**action}
        if "positions" in normal:
            normal["positions"] = sorted(normal["positions"])
        assert normal in legal_actions(state, seat)
        state = apply_action(state, seat, action)
    assert state.phase == "over"


def _deals_differing_in_hidden_cards(variant, players, seed):
    """Two decks: the same face-up tee-off cards and discard, the hidden cards reshuffled."""
    rules = VARIANTS[variant]
    rng = random.Random(seed)
    deck = rules.deck(players)
    rng.shuffle(deck)
    flips = rules.opening_flips
    # Tee off turns up positions 0..flips-1 of every seat, which are the first cards dealt.
    shown = flips * players
    hidden = list(range(shown, rules.size * players)) + list(
        range(rules.size * players + 1, len(deck))
    )
    other = list(deck)
    cards = [deck[index] for index in hidden]
    rng.shuffle(cards)
    for index, card in zip(hidden, cards, strict=True):
        other[index] = card
    return deck, other


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_decide_only_from_what_their_seat_may_know(variant, level):
    """Deals differing only in hidden cards: every level makes the same choices (same dice)."""
    rules = VARIANTS[variant]
    players = rules.min_players + 1
    for seed in range(3):
        first, second = _deals_differing_in_hidden_cards(variant, players, seed)
        states = [
            new_hole(variant, players, deck=deck, dealer=players - 1) for deck in (first, second)
        ]
        for seat in range(players):
            states = [
                apply_action(
                    s, seat, {"type": "tee_off", "positions": list(range(rules.opening_flips))}
                )
                for s in states
            ]
        # The first decision of every seat in turn, and the start of the first turn.
        seat = states[0].turn
        choices = [choose_action(s, seat, level, random.Random(seed)) for s in states]
        assert choices[0] == choices[1]
        for s in states:
            assert s.phase == "play"


def test_greedy_beats_random():
    """Greedy's mean strokes are clearly below random's, with separate 95% intervals."""
    result = simulate("play-nine", 4, 60, "greedy,random,random,random", seed=3)
    greedy, greedy_ci = mean_ci95([row[0] for row in result.scores])
    rand, rand_ci = mean_ci95([score for row in result.scores for score in row[1:]])
    assert greedy + greedy_ci < rand - rand_ci


def test_an_unknown_level_is_refused():
    """Only the levels of BOT_LEVELS exist."""
    with pytest.raises(ValueError):
        choose_action(new_hole("play-nine", 2, seed=1), 0, "genius", random.Random(1))


def test_a_bot_asked_when_its_seat_has_no_move_is_refused():
    """Out of turn there is nothing to choose."""
    state = new_hole("play-nine", 2, seed=1)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 1]})
    with pytest.raises(ValueError):
        choose_action(state, 0, "greedy", random.Random(1))


def test_the_expert_skips_rather_than_go_out_far_behind():
    """With one card face down and far behind, the expert keeps playing instead of going out."""
    mine = [12, 11, 10, 12, 11, 10, 12, 9]
    theirs = [0, 1, 2, 3, 0, 1, 2, 3]
    deck = stacked_deck("play-nine", 2, [theirs, mine], 4, [7], dealer=1)
    state = new_hole("play-nine", 2, deck=deck, dealer=1)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 1]})
    # Seat 1 turns everything up except position 7 (a stacked layout, played by hand).
    state = state.__class__(
        **{**state.__dict__, "face_up": (state.face_up[0], (True,) * 7 + (False,))}
    )
    state = apply_action(state, 0, {"type": "draw", "source": "pile"})
    state = apply_action(state, 0, {"type": "flip", "position": 2})
    state = apply_action(state, 1, {"type": "draw", "source": "pile"})
    for level in ("greedy", "expert"):
        action = choose_action(state, 1, level, random.Random(1))
        assert action["type"] != "flip" and action != {"type": "replace", "position": 7}


def test_play_hole_ends_in_every_game():
    """The simulator's hole loop finishes a hole of each game with mixed bots."""
    for key, rules in VARIANTS.items():
        bots = ["expert", "greedy", "random"][: rules.min_players]
        state = play_hole(key, rules.min_players, bots, random.Random(2))
        assert state.phase == "over"


def _layouts(variant, rng, count):
    """Full layouts: half dealt at random, half from three ranks, so pairs and bonuses abound."""
    rules = VARIANTS[variant]
    deck = rules.deck(rules.max_players)
    by_rank = sorted({rules.ranks[card] for card in deck}, key=str)
    for index in range(count):
        cards = deck
        if index % 2:
            few = set(rng.sample(by_rank, 3))
            cards = [card for card in deck if rules.ranks[card] in few]
        yield rng.sample(cards, rules.size)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_bots_reckon_a_face_up_layout_at_exactly_its_score(variant):
    """The bots score with the engine's own scoring, pair values and bonuses included."""
    rules = VARIANTS[variant]
    estimator = Estimator(rules, Pool.unseen(rules, rules.max_players, []))
    for cards in _layouts(variant, random.Random(variant), 400):
        assert estimator.estimate(cards) == score_layout(variant, cards), cards


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_bots_reckon_each_replacement_as_the_layout_it_makes(variant):
    """`replacing` (the short cut) agrees with estimating each new layout in full."""
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    estimator = Estimator(rules, Pool.unseen(rules, rules.max_players, []))
    for cards in _layouts(variant, rng, 100):
        layout = [None if rng.random() < 0.3 else card for card in cards]
        card = cards[rng.randrange(rules.size)]
        expected = []
        for position in range(rules.size):
            trial = list(layout)
            trial[position] = card
            expected.append(estimator.estimate(trial))
        assert estimator.replacing(layout, card) == pytest.approx(expected, abs=1e-9)

"""The engine plays exactly as the naive reference engine, action by action, in every game."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import VARIANTS, IllegalAction, apply_action, legal_actions, new_hole, view

from . import reference
from .helpers import acting_seat
from .test_properties import junk_actions

CASES = [
    (key, players)
    for key, rules in VARIANTS.items()
    for players in range(rules.min_players, rules.max_players + 1)
]


def _exact(actions) -> str:
    # Type-exact: False == 0 in Python, but a bool is no position.
    return json.dumps(actions, default=repr)


def _outcome(apply, state, seat, action):
    try:
        return apply(state, seat, action), None
    except IllegalAction as error:
        return None, str(error)


def _stalling(state, seat, action) -> bool:
    # Moves that keep every face-down card down, so the hole runs through the draw pile.
    kind = action["type"]
    if kind == "replace":
        return state.face_up[seat][action["position"]]
    return kind == "tee_off" or action == {"type": "draw", "source": "pile"}


def _play_both(variant: str, players: int, seed: int, junk=None, long=False) -> int:
    """Random play of one hole on both engines, compared after every action; returns
    how many times the draw pile was refilled. A `long` hole stalls until the first
    refill."""
    rng = random.Random(seed)
    dealer = seed % players
    state = new_hole(variant, players, seed=seed, dealer=dealer)
    naive = reference.new_hole(variant, players, seed=seed, dealer=dealer)
    assert reference.as_values(state) == reference.as_values(naive)
    refills = 0
    while state.phase != "over":
        for seat in [*range(players + 1), -1, True, None]:
            expected = reference.legal_actions(naive, seat)
            assert _exact(legal_actions(state, seat)) == _exact(expected)
        seat = acting_seat(state)
        if junk is not None:
            odd = junk()
            got, refusal = _outcome(apply_action, state, seat, odd)
            want, naive_refusal = _outcome(reference.apply_action, naive, seat, odd)
            assert refusal == naive_refusal, odd
            if got is not None:
                assert reference.as_values(got) == reference.as_values(want)
        legal = legal_actions(state, seat)
        if long and not refills:
            legal = [action for action in legal if _stalling(state, seat, action)] or legal
        action = rng.choice(legal)
        after = apply_action(state, seat, action)
        naive = reference.apply_action(naive, seat, action)
        assert reference.as_values(after) == reference.as_values(naive), (seat, action)
        refills += len(after.draw_pile) > len(state.draw_pile)
        state = after
    return refills


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_same_play_as_the_reference(variant, players):
    """Every seat's legal actions and every state after an action equal the reference's,
    refills of the draw pile included."""
    for seed in range(8):
        _play_both(variant, players, seed)
    assert _play_both(variant, players, 99, long=True) > 0


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**32), st.data())
def test_same_refusals_as_the_reference(game, seed, data):
    """Odd actions are refused with the reference's own message, or applied alike."""
    variant, players = game
    _play_both(variant, players, seed, junk=lambda: data.draw(junk_actions))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_earlier_states_never_change(variant):
    """Every state of a hole keeps its values and views while later actions are applied,
    and the parts states share are tuples, which no caller can change."""
    rng = random.Random(7)
    players = VARIANTS[variant].min_players
    state = new_hole(variant, players, seed=7)
    kept = []
    while True:
        kept.append((state, reference.as_values(state), view(state, 0)))
        if state.phase == "over":
            break
        seat = acting_seat(state)
        state = apply_action(state, seat, rng.choice(legal_actions(state, seat)))
    for earlier, values, seen in kept:
        assert reference.as_values(earlier) == values
        assert view(earlier, 0) == seen
        for name in ("layouts", "face_up", "draw_pile", "discard_pile", "teed_off", "drawn"):
            assert type(getattr(earlier, name)) is tuple
        assert all(type(row) is tuple for row in (*earlier.layouts, *earlier.face_up))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_changing_listed_actions_changes_nothing(variant):
    """The actions legal_actions returns are the caller's own: changing them leaves the
    next answer as it was."""
    rng = random.Random(3)
    state = new_hole(variant, VARIANTS[variant].min_players, seed=3)
    while state.phase != "over":
        seat = acting_seat(state)
        first = legal_actions(state, seat)
        expected = _exact(first)
        for action in first:
            if "positions" in action:
                action["positions"].append(99)
            action["type"] = "spoilt"
        assert _exact(legal_actions(state, seat)) == expected
        state = apply_action(state, seat, rng.choice(legal_actions(state, seat)))

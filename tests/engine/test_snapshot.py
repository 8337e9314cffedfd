"""Snapshots: a state to JSON-ready data and back, exactly, and resuming from one."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import apply_action, new_hole, state_from_dict, state_to_dict

from .helpers import random_play, tee_off_all


@pytest.mark.parametrize("variant", ["play-nine", "golf-6", "golf-4", "golf-9", "golf-9-3deck"])
def test_every_state_round_trips_through_json(variant):
    """state_from_dict(json of state_to_dict(s)) == s at every step of a hole."""
    state = new_hole(variant, 3, seed=4)
    for before, _, _, after in random_play(state, random.Random(4)):
        for state in (before, after):
            data = json.loads(json.dumps(state_to_dict(state)))
            assert state_from_dict(data) == state


def test_resuming_from_a_snapshot_equals_replaying_through_a_refill():
    """Store a snapshot mid-hole, resume it, play on: same states as the replay, refill included."""
    state = tee_off_all(new_hole("play-nine", 2, seed=11))
    actions = [(seat, {"type": "tee_off", "positions": [0, 1]}) for seat in (0, 1)]
    stored = json.dumps(state_to_dict(state))
    # Replacing a face-up card reveals nothing, so the hole runs until the pile refills.
    refills = 0
    while refills < 2:
        seat = state.turn
        for action in ({"type": "draw", "source": "pile"}, {"type": "replace", "position": 0}):
            before = state
            state = apply_action(state, seat, action)
            actions.append((seat, action))
            refills += len(state.draw_pile) > len(before.draw_pile)
    for _, seat, action, _ in random_play(state, random.Random(11)):
        actions.append((seat, action))

    replayed = new_hole("play-nine", 2, seed=11)
    for seat, action in actions:
        replayed = apply_action(replayed, seat, action)
    resumed = state_from_dict(json.loads(stored))
    for seat, action in actions[2:]:
        resumed = apply_action(resumed, seat, action)
    assert replayed.phase == "over"
    assert resumed == replayed


def test_a_snapshot_it_cannot_read_is_a_value_error():
    """Anything else is refused plainly."""
    with pytest.raises(ValueError):
        state_from_dict({"format": 99})
    with pytest.raises(ValueError):
        state_from_dict({"format": 1, "variant": "play-nine"})

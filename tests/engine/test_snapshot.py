"""Snapshots: a state to JSON-ready data and back, exactly, and resuming from one."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import apply_action, new_hole, state_from_dict, state_to_dict

from .helpers import dealt, random_play, tee_off_all


def refilled(state):
    """Play on, replacing face-up cards, until the draw pile has been refilled once."""
    state = tee_off_all(state)
    while True:
        before = state
        state = apply_action(state, state.turn, {"type": "draw", "source": "pile"})
        if len(state.draw_pile) > len(before.draw_pile):
            return state
        state = apply_action(state, state.turn, {"type": "replace", "position": 0})


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


def test_the_random_source_is_named_while_it_is_the_deals_and_packed_after():
    """The 625 numbers of the random source are most of a snapshot: until a refill they
    are the deal's own and go by name, so a stored hole stays small."""
    state = new_hole("play-nine", 4, seed=5)
    stacked = dealt("play-nine", 2, [[1] * 8, [2] * 8], 3)
    assert state_to_dict(state)["rng_state"] == "dealt"
    assert state_to_dict(stacked)["rng_state"] == "seeded"
    assert len(json.dumps(state_to_dict(state))) < 1500
    later = refilled(new_hole("play-nine", 2, seed=11))
    version, packed, gauss = state_to_dict(later)["rng_state"]
    assert isinstance(packed, str)
    assert len(json.dumps(state_to_dict(later))) < 5000
    for each in (state, stacked, later):
        assert state_from_dict(json.loads(json.dumps(state_to_dict(each)))) == each


def test_a_format_1_snapshot_still_reads_as_the_state_it_was():
    """Holes stored before format 2 carry the numbers as a list; they resume the same."""
    for state in (new_hole("golf-6", 3, seed=8), refilled(new_hole("play-nine", 2, seed=3))):
        version, internal, gauss = state.rng_state
        data = {**state_to_dict(state), "format": 1, "rng_state": [version, list(internal), gauss]}
        assert state_from_dict(json.loads(json.dumps(data))) == state


def test_a_snapshot_it_cannot_read_is_a_value_error():
    """Anything else is refused plainly."""
    with pytest.raises(ValueError):
        state_from_dict({"format": 99})
    with pytest.raises(ValueError):
        state_from_dict({"format": 1, "variant": "play-nine"})
    data = state_to_dict(refilled(new_hole("play-nine", 2, seed=3)))
    for broken in ("dealt!", [3, "not base64", None], [3, "AAA=", None], 7):
        with pytest.raises(ValueError):
            state_from_dict({**data, "rng_state": broken})

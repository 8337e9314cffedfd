"""Every way an action can be wrong raises IllegalAction with a readable sentence."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, new_hole, state_to_dict

from .helpers import tee_off_all


@pytest.fixture
def playing():
    """A 3-player Play Nine hole after tee off: seat 1 is to play."""
    return tee_off_all(new_hole("play-nine", 3, seed=3))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("draw", "not a move"),
        (["draw"], "not a move"),
        (None, "not a move"),
        ({}, "not a move of this game"),
        ({"type": "jump"}, "not a move of this game"),
        ({"type": 3}, "not a move of this game"),
        ({"type": "draw"}, "needs a source"),
        ({"type": "draw", "source": "pile", "card": 5}, "does not take 'card'"),
        ({"type": "draw", "source": "deck"}, "Draw from"),
        ({"type": "draw", "source": ["pile"]}, "Draw from"),
        ({"type": "replace"}, "needs a position"),
        ({"type": "replace", "position": True}, "whole number"),
        ({"type": "replace", "position": "1"}, "whole number"),
        ({"type": "replace", "position": 1.0}, "whole number"),
        ({"type": "replace", "position": 8}, "no position 8"),
        ({"type": "replace", "position": -1}, "no position -1"),
        ({"type": "tee_off", "positions": [0, 0]}, "same one twice"),
        ({"type": "tee_off", "positions": [0]}, "exactly 2"),
        ({"type": "tee_off", "positions": (0, 1)}, "as a list"),
        ({"type": "tee_off", "positions": [0, True]}, "whole number"),
    ],
)
def test_malformed_actions(playing, action, message):
    """Not a dict, unknown type, missing or extra key, wrong type, out of range, repeated."""
    with pytest.raises(IllegalAction, match=message):
        apply_action(playing, 1, action)


def test_illegal_action_is_a_value_error():
    """IllegalAction is a ValueError, so callers may catch either."""
    assert issubclass(IllegalAction, ValueError)


def test_not_your_turn(playing):
    """Only the seat whose turn it is may draw."""
    with pytest.raises(IllegalAction, match="It is not your turn."):
        apply_action(playing, 2, {"type": "draw", "source": "pile"})


@pytest.mark.parametrize("seat", [3, -1, None, True, "1"])
def test_a_seat_not_at_the_table(playing, seat):
    """Seats outside range(players), and non-int seats, are not at the table."""
    with pytest.raises(IllegalAction, match="not seated"):
        apply_action(playing, seat, {"type": "draw", "source": "pile"})


def test_the_hole_is_over():
    """Nothing is legal once the hole is over."""
    state = tee_off_all(new_hole("golf-4", 3, seed=1))
    for seat in (1, 2, 0):
        state = apply_action(
            state, seat, {"type": "knock"} if seat == 1 else {"type": "draw", "source": "pile"}
        )
        if seat != 1:
            state = apply_action(state, seat, {"type": "discard"})
    assert state.phase == "over"
    with pytest.raises(IllegalAction, match="The hole is over."):
        apply_action(state, 1, {"type": "draw", "source": "pile"})


def test_a_refused_action_leaves_the_state_as_it_was(playing):
    """IllegalAction changes nothing."""
    before = state_to_dict(playing)
    with pytest.raises(IllegalAction):
        apply_action(playing, 1, {"type": "replace", "position": 1})
    assert state_to_dict(playing) == before

"""Play Nine, rule by rule, on stacked decks."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, score_layout

from .helpers import dealt, tee_off_all

A = [1, 2, 3, 4, 5, 6, 7, 8]
B = [9, 10, 11, 12, 9, 10, 11, 12]
# Enough cards for a couple of dozen draws, whatever layouts A and B hold.
DRAWS = [0] * 7 + [-5] * 4 + [1] * 6 + [2] * 6


def play(state, seat, *actions):
    for action in actions:
        state = apply_action(state, seat, action)
    return state


DRAW = {"type": "draw", "source": "pile"}
TAKE = {"type": "draw", "source": "discard"}


def test_tee_off_turns_up_two_cards_each_in_any_seat_order_then_dealers_left_plays():
    """Every seat tees off once, any order; then seat dealer+1 has the first turn."""
    state = dealt("play-nine", 3, [A, B, A], 0, dealer=2)
    assert legal_actions(state, 1)[0] == {"type": "tee_off", "positions": [0, 1]}
    assert len(legal_actions(state, 1)) == 28
    state = apply_action(state, 2, {"type": "tee_off", "positions": [7, 3]})
    assert state.face_up[2] == (False, False, False, True, False, False, False, True)
    assert state.phase == "tee_off"
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 4]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": [1, 2]})
    assert state.phase == "play"
    assert state.turn == 0
    assert state.version == 3


def test_replace_puts_the_drawn_card_face_up_and_discards_the_old_one_face_up():
    """Replacing: the drawn card goes face up to the position, the old card on the discard pile."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=[5]))
    state = play(state, 1, DRAW)
    assert state.held == 5 and state.holding == 1 and state.held_from == "pile"
    state = apply_action(state, 1, {"type": "replace", "position": 6})
    assert state.layouts[1][6] == 5
    assert state.face_up[1][6] is True
    assert state.discard_pile[-1] == 11
    assert state.turn == 0


def test_a_card_from_the_discard_pile_must_replace_one_of_yours():
    """Taken from the discard pile, a card can only replace: no flip, no discard."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
    state = play(state, 1, TAKE)
    assert {action["type"] for action in legal_actions(state, 1)} == {"replace"}
    for action in ({"type": "flip", "position": 5}, {"type": "discard"}):
        with pytest.raises(IllegalAction, match="discard pile must replace"):
            apply_action(state, 1, action)


def test_flip_discards_a_pile_card_and_turns_up_a_face_down_card():
    """With a card from the draw pile you may discard it and turn one face-down card up."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=[7]))
    state = play(state, 1, DRAW, {"type": "flip", "position": 5})
    assert state.face_up[1][5] is True
    assert state.discard_pile[-1] == 7
    with pytest.raises(IllegalAction, match="already face up"):
        play(state, 0, DRAW, {"type": "flip", "position": 0})


def test_skip_needs_exactly_one_face_down_card():
    """The skip (a plain discard) is legal only with exactly one face-down card left."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=DRAWS))
    state = play(state, 1, DRAW)
    assert {"type": "discard"} not in legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="exactly one"):
        apply_action(state, 1, {"type": "discard"})
    # Both seats turn up cards 2-6, leaving card 7 face down.
    state = apply_action(state, 1, {"type": "flip", "position": 2})
    state = play(state, 0, DRAW, {"type": "flip", "position": 2})
    for position in (3, 4, 5, 6):
        state = play(state, 1, DRAW, {"type": "flip", "position": position})
        state = play(state, 0, DRAW, {"type": "flip", "position": position})
    state = play(state, 1, DRAW)
    assert {"type": "discard"} in legal_actions(state, 1)
    state = apply_action(state, 1, {"type": "discard"})
    assert state.turn == 0
    state = play(state, 0, DRAW, {"type": "flip", "position": 7})  # seat 0 goes out
    state = play(state, 1, DRAW, {"type": "discard"})  # and seat 1 may skip its last turn
    assert state.phase == "over"


def test_a_player_may_skip_turn_after_turn():
    """Skipping does not end anything: the same seat can skip on each of its turns."""
    layouts = [A, B]
    state = tee_off_all(dealt("play-nine", 2, layouts, 0, draw=DRAWS))
    for position in range(2, 7):  # both seats turn up all but their last card
        state = play(state, 1, DRAW, {"type": "flip", "position": position})
        state = play(state, 0, DRAW, {"type": "flip", "position": position})
    for _ in range(3):
        state = play(state, 1, DRAW, {"type": "discard"})
        state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == "play"
    assert state.face_up[1].count(False) == 1


def test_going_out_gives_every_other_player_exactly_one_more_turn():
    """Turning up the last card starts the last turns; the hole ends when they are done."""
    state = tee_off_all(dealt("play-nine", 3, [A, B, A], 0, draw=DRAWS))
    for position in range(2, 7):
        for seat in (1, 2, 0):
            state = play(state, seat, DRAW, {"type": "flip", "position": position})
    state = play(state, 1, DRAW, {"type": "flip", "position": 7})
    assert (state.phase, state.turn) == ("final_turns", 2)
    state = play(state, 2, DRAW, {"type": "flip", "position": 7})
    assert (state.phase, state.turn) == ("final_turns", 0)
    state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == "over"
    assert state.finisher == 1
    assert state.scores == [score_layout("play-nine", layout) for layout in state.layouts]


def test_last_turns_then_the_hole_ends_and_face_down_cards_turn_up():
    """After going out, the others play once; the one still face down is turned up to score."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=DRAWS))
    for position in range(2, 7):
        state = play(state, 1, DRAW, {"type": "flip", "position": position})
        state = play(state, 0, DRAW, {"type": "flip", "position": position})
    state = play(state, 1, DRAW, {"type": "flip", "position": 7})
    assert state.phase == "final_turns"
    assert state.finisher == 1
    assert state.turn == 0
    state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == "over"
    assert state.turn is None
    assert all(all(face_up) for face_up in state.face_up)
    assert state.scores == [score_layout("play-nine", A), score_layout("play-nine", B)]


def test_going_out_by_replacing_the_last_face_down_card():
    """Replacing the last face-down card goes out just like turning it up."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=DRAWS))
    for position in range(2, 7):
        state = play(state, 1, DRAW, {"type": "flip", "position": position})
        state = play(state, 0, DRAW, {"type": "flip", "position": position})
    state = play(state, 1, DRAW, {"type": "replace", "position": 7})
    assert state.phase == "final_turns"


def test_refill_the_moment_the_last_card_is_drawn():
    """Decision: the draw that empties the pile shuffles the discard pile but its top into it."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
    cards = len(state.draw_pile)
    seat = 1
    for _ in range(cards - 1):
        state = play(state, seat, DRAW, {"type": "replace", "position": 0})
        seat = 1 - seat
    assert len(state.draw_pile) == 1
    discards = state.discard_pile
    state = apply_action(state, seat, DRAW)
    assert len(state.draw_pile) == len(discards) - 1
    assert state.discard_pile == discards[-1:]
    assert sorted(state.draw_pile) == sorted(discards[:-1])
    again = state
    assert again.draw_pile == state.draw_pile  # the same seed shuffles the same way


def test_refill_uses_the_holes_own_random_source():
    """Two holes dealt with the same seed refill in the same order; another seed differs."""

    def refilled(seed):
        state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
        state = state.__class__(**{**state.__dict__, "seed": seed})
        import random

        state = state.__class__(**{**state.__dict__, "rng_state": random.Random(seed).getstate()})
        seat = 1
        while len(state.draw_pile) > 1:
            state = play(state, seat, DRAW, {"type": "replace", "position": 0})
            seat = 1 - seat
        return apply_action(state, seat, DRAW).draw_pile

    assert refilled(1) == refilled(1)
    assert refilled(1) != refilled(2)


def test_draw_and_play_only_on_your_turn():
    """Out of turn, nothing but an IllegalAction."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
    assert legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="not your turn"):
        apply_action(state, 0, DRAW)


def test_take_a_card_before_replacing():
    """Replacing or flipping needs a drawn card."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
    with pytest.raises(IllegalAction, match="Take a card first"):
        apply_action(state, 1, {"type": "replace", "position": 3})
    with pytest.raises(IllegalAction, match="Take a card first"):
        apply_action(state, 1, {"type": "flip", "position": 3})


def test_no_second_draw_and_no_second_tee_off():
    """A seat holds one card at a time and tees off once."""
    state = dealt("play-nine", 2, [A, B], 0)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1]})
    with pytest.raises(IllegalAction, match="already teed off"):
        apply_action(state, 0, {"type": "tee_off", "positions": [2, 3]})
    with pytest.raises(IllegalAction, match="tees off"):
        apply_action(state, 0, DRAW)
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 1]})
    with pytest.raises(IllegalAction, match="Tee off is over"):
        apply_action(state, 0, {"type": "tee_off", "positions": [2, 3]})
    state = apply_action(state, 1, DRAW)
    with pytest.raises(IllegalAction, match="already drew"):
        apply_action(state, 1, TAKE)


def test_play_nine_has_no_knock_or_swap():
    """Moves of other games are refused."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0))
    with pytest.raises(IllegalAction):
        apply_action(state, 1, {"type": "knock"})
    with pytest.raises(IllegalAction):
        apply_action(state, 1, {"type": "swap", "positions": [0, 1]})


def test_only_the_top_card_of_the_discard_pile_can_be_taken():
    """Decision: taking the discard pile takes its top card only."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=[6]))
    state = play(state, 1, DRAW, {"type": "replace", "position": 0})  # discards the 9
    state = apply_action(state, 0, TAKE)
    assert state.held == 9
    assert state.discard_pile == (0,)

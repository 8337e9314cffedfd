"""The golf games: ending at once, knocking, free discards, swaps and last turns."""

from __future__ import annotations

import pytest

from games.engine import IllegalAction, apply_action, legal_actions, score_layout

from .helpers import dealt, tee_off_all

DRAW = {"type": "draw", "source": "pile"}
TAKE = {"type": "draw", "source": "discard"}

SIX_A = ["AS", "2S", "3S", "4S", "5S", "6S"]
SIX_B = ["AH", "2H", "3H", "4H", "5H", "6H"]
DRAWS = ["7D", "8D", "9D", "10D", "JD", "QD", "KD", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]


def play(state, seat, *actions):
    for action in actions:
        state = apply_action(state, seat, action)
    return state


def test_golf_has_no_flip_but_a_pile_card_may_be_discarded_unused():
    """6-card Golf: replace or discard; there is no flip."""
    state = tee_off_all(dealt("golf-6", 2, [SIX_A, SIX_B], "AD", draw=DRAWS))
    state = play(state, 1, DRAW)
    kinds = {action["type"] for action in legal_actions(state, 1)}
    assert kinds == {"replace", "discard"}
    with pytest.raises(IllegalAction, match="no flip"):
        apply_action(state, 1, {"type": "flip", "position": 4})
    state = apply_action(state, 1, {"type": "discard"})
    assert state.discard_pile[-1] == "7D" and state.turn == 0


def test_golf_discard_pile_card_must_be_used():
    """A card taken from the discard pile cannot go straight back."""
    state = tee_off_all(dealt("golf-6", 2, [SIX_A, SIX_B], "AD", draw=DRAWS))
    state = play(state, 1, TAKE)
    with pytest.raises(IllegalAction, match="must replace"):
        apply_action(state, 1, {"type": "discard"})


@pytest.mark.parametrize(("variant", "size"), [("golf-6", 6), ("golf-9", 9)])
def test_six_and_nine_card_golf_end_at_once_when_a_layout_is_all_face_up(variant, size):
    """No last turns: the hole ends the moment one layout is all face up."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9"][:size]
    mine = [rank + "S" for rank in ranks]
    theirs = [rank + "H" for rank in ranks]
    state = tee_off_all(dealt(variant, 2, [mine, theirs], "AD", draw=DRAWS))
    flips = 2 if variant == "golf-6" else 3
    for position in range(flips, size):
        state = play(state, 1, DRAW, {"type": "replace", "position": position})
        if position < size - 1:
            state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == "over"
    assert state.scores == [score_layout(variant, layout) for layout in state.layouts]


def test_four_card_golf_knock_gives_the_others_one_more_turn():
    """golf-4: knocking is the whole turn; every other player takes one more turn."""
    layouts = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    state = tee_off_all(dealt("golf-4", 3, layouts, "AD", draw=DRAWS))
    assert {"type": "knock"} in legal_actions(state, 1)
    state = apply_action(state, 1, {"type": "knock"})
    assert (state.phase, state.turn, state.finisher) == ("final_turns", 2, 1)
    assert {"type": "knock"} not in legal_actions(state, 2)
    with pytest.raises(IllegalAction, match="already knocked"):
        apply_action(state, 2, {"type": "knock"})
    state = play(state, 2, DRAW, {"type": "discard"})
    assert state.phase == "final_turns"
    state = play(state, 0, DRAW, {"type": "discard"})
    assert state.phase == "over"


def test_four_card_golf_knock_only_before_drawing():
    """A knock comes at the start of a turn, instead of drawing."""
    layouts = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    state = tee_off_all(dealt("golf-4", 3, layouts, "AD", draw=DRAWS))
    state = apply_action(state, 1, DRAW)
    with pytest.raises(IllegalAction, match="before you draw"):
        apply_action(state, 1, {"type": "knock"})


def test_four_card_golf_all_face_up_does_not_end_the_hole():
    """golf-4: a layout all face up ends nothing; only a knock does."""
    layouts = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    state = tee_off_all(dealt("golf-4", 3, layouts, "AD", draw=DRAWS))
    state = play(state, 1, DRAW, {"type": "replace", "position": 2})
    state = play(state, 2, DRAW, {"type": "discard"})
    state = play(state, 0, DRAW, {"type": "discard"})
    state = play(state, 1, DRAW, {"type": "replace", "position": 3})
    assert all(state.face_up[1])
    assert state.phase == "play" and state.turn == 2


def test_other_games_have_no_knock():
    """Only 4-card Golf knocks."""
    state = tee_off_all(dealt("golf-6", 2, [SIX_A, SIX_B], "AD", draw=DRAWS))
    with pytest.raises(IllegalAction, match="no knocking"):
        apply_action(state, 1, {"type": "knock"})


NINE_A = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
NINE_B = ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"]


def test_three_deck_swap_during_tee_off_after_your_own_tee_off():
    """golf-9-3deck: rearrange two cards at a time after teeing off, face-down ones unseen."""
    state = dealt("golf-9-3deck", 2, [NINE_A, NINE_B], "AD", draw=DRAWS)
    with pytest.raises(IllegalAction, match="Tee off first"):
        apply_action(state, 0, {"type": "swap", "positions": [0, 8]})
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1, 2]})
    assert len(legal_actions(state, 0)) == 36
    state = apply_action(state, 0, {"type": "swap", "positions": [8, 0]})
    assert state.layouts[0][0] == "9S" and state.layouts[0][8] == "AS"
    assert state.face_up[0][8] is True and state.face_up[0][0] is False
    state = apply_action(state, 0, {"type": "swap", "positions": [4, 5]})  # two unseen cards
    assert state.layouts[0][4] == "6S"


def test_three_deck_swap_on_your_turn_until_your_first_draw():
    """Swaps are allowed on your own turn before your first draw, never after it."""
    state = tee_off_all(dealt("golf-9-3deck", 2, [NINE_A, NINE_B], "AD", draw=DRAWS))
    with pytest.raises(IllegalAction, match="not your turn"):
        apply_action(state, 0, {"type": "swap", "positions": [0, 1]})
    state = apply_action(state, 1, {"type": "swap", "positions": [0, 3]})
    state = play(state, 1, DRAW, {"type": "discard"})
    state = play(state, 0, DRAW, {"type": "discard"})
    with pytest.raises(IllegalAction, match="before your first draw"):
        apply_action(state, 1, {"type": "swap", "positions": [0, 1]})
    assert not any(action["type"] == "swap" for action in legal_actions(state, 1))


def test_three_deck_swap_needs_two_different_positions():
    """The same position twice is no swap."""
    state = tee_off_all(dealt("golf-9-3deck", 2, [NINE_A, NINE_B], "AD", draw=DRAWS))
    with pytest.raises(IllegalAction, match="same one twice"):
        apply_action(state, 1, {"type": "swap", "positions": [2, 2]})


def test_other_games_have_no_swap():
    """Only golf-9-3deck rearranges."""
    state = dealt("golf-9", 2, [NINE_A, NINE_B], "AD", draw=DRAWS)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 1, 2]})
    assert legal_actions(state, 0) == []
    with pytest.raises(IllegalAction, match="no rearranging"):
        apply_action(state, 0, {"type": "swap", "positions": [0, 1]})


def test_three_deck_last_face_down_card_gives_the_others_one_more_turn():
    """golf-9-3deck: exposing the last face-down card starts the last turns."""
    state = tee_off_all(dealt("golf-9-3deck", 2, [NINE_A, NINE_B], "AD", draw=DRAWS))
    for position in range(3, 9):
        state = play(state, 1, DRAW, {"type": "replace", "position": position})
        if position < 8:
            state = play(state, 0, DRAW, {"type": "discard"})
    assert (state.phase, state.turn, state.finisher) == ("final_turns", 0, 1)
    state = play(state, 0, DRAW, {"type": "replace", "position": 8})
    assert state.phase == "over"


def test_three_deck_has_no_flip():
    """No flip in the three-deck game: a pile card is used or discarded."""
    state = tee_off_all(dealt("golf-9-3deck", 2, [NINE_A, NINE_B], "AD", draw=DRAWS))
    state = apply_action(state, 1, DRAW)
    assert {action["type"] for action in legal_actions(state, 1)} == {"replace", "discard"}

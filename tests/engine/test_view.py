"""What each seat, and a spectator, may see."""

from __future__ import annotations

import json

import pytest

from games.engine import apply_action, new_hole, view

from .helpers import tee_off_all


def test_face_down_cards_are_none_even_for_their_owner():
    """A layout shows only face-up cards; the owner sees no more than anyone else."""
    state = tee_off_all(new_hole("play-nine", 2, seed=9), {0: [0, 5], 1: [2, 3]})
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen["layouts"][0] == [
            card if position in (0, 5) else None for position, card in enumerate(state.layouts[0])
        ]
        assert seen["layouts"][1][2:4] == list(state.layouts[1][2:4])
        assert seen["layouts"][1].count(None) == 6


def test_a_card_drawn_from_the_pile_is_seen_by_its_holder_only():
    """The holder sees the drawn card; other seats and spectators see None."""
    state = tee_off_all(new_hole("play-nine", 3, seed=9))
    state = apply_action(state, 1, {"type": "draw", "source": "pile"})
    assert view(state, 1)["held"] == state.held
    assert view(state, 0)["held"] is None
    assert view(state, None)["held"] is None
    assert view(state, 2)["holding"] == 1
    assert view(state, 2)["held_from"] == "pile"


def test_a_card_taken_from_the_discard_pile_is_seen_by_everyone():
    """Everyone saw the discard top, so everyone may see it in hand."""
    state = tee_off_all(new_hole("play-nine", 3, seed=9))
    top = state.discard_pile[-1]
    state = apply_action(state, 1, {"type": "draw", "source": "discard"})
    assert all(view(state, seat)["held"] == top for seat in (0, 1, 2, None))
    assert view(state, None)["discard_top"] is None


def test_the_draw_pile_shows_only_its_count():
    """No draw-pile card is in a view; only how many there are."""
    state = new_hole("golf-6", 2, seed=9)
    seen = view(state, None)
    assert seen["draw_count"] == len(state.draw_pile)
    assert "draw_pile" not in seen


def test_view_has_the_contract_keys_and_is_json_ready():
    """The view's keys in games/engine/README.md, and nothing json cannot carry."""
    seen = view(new_hole("golf-9-3deck", 4, seed=2), 3)
    for key in (
        "variant",
        "phase",
        "turn",
        "version",
        "dealer",
        "layouts",
        "discard_top",
        "draw_count",
        "holding",
        "held",
        "scores",
    ):
        assert key in seen
    assert json.loads(json.dumps(seen)) == seen


@pytest.mark.parametrize("seat", [2, -1, True, "0"])
def test_a_seat_not_at_the_table_may_not_view(seat):
    """A seat outside the table is a ValueError; None is the spectator."""
    with pytest.raises(ValueError):
        view(new_hole("play-nine", 2, seed=1), seat)


def test_the_end_shows_every_card_and_the_scores():
    """When the hole is over every card is face up in every view."""
    state = tee_off_all(new_hole("golf-4", 3, seed=1))
    state = apply_action(state, 1, {"type": "knock"})
    for seat in (2, 0):
        state = apply_action(state, seat, {"type": "draw", "source": "pile"})
        state = apply_action(state, seat, {"type": "discard"})
    seen = view(state, None)
    assert seen["layouts"] == [list(layout) for layout in state.layouts]
    assert seen["scores"] == state.scores

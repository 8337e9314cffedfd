"""The move log's phrases name only cards every player has seen."""

from __future__ import annotations

from games.engine import apply_action, describe_action, describe_turn

from .helpers import dealt, tee_off_all

A = [4, 9, 3, 11, 5, 6, 7, 8]
B = [9, 10, 11, 12, 9, 10, 11, 12]


def described(state, seat, action):
    after = apply_action(state, seat, action)
    return describe_action(state, seat, action, after), after


def test_tee_off_names_the_cards_turned_up():
    """Tee-off cards are face up once turned, so they may be named."""
    state = dealt("play-nine", 2, [A, B], 0)
    text, _ = described(state, 0, {"type": "tee_off", "positions": [1, 0]})
    assert text == "teed off, turning up the 4 and the 9"


def test_draws_replaces_flips_and_skips():
    """Each kind of move in its own words; a pile card in hand stays unnamed."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=[3, 12, 8, 0]), {0: [0, 3]})
    text, state = described(state, 1, {"type": "draw", "source": "pile"})
    assert text == "drew from the draw pile" and "3" not in text
    text, state = described(state, 1, {"type": "replace", "position": 4})
    assert text == "replaced a face-down card (a 9) with the 3"
    text, state = described(state, 0, {"type": "draw", "source": "discard"})
    assert text == "took the 9 from the discard pile"
    text, state = described(state, 0, {"type": "replace", "position": 3})
    assert text == "replaced their 11 with the 9"
    state = apply_action(state, 1, {"type": "draw", "source": "pile"})
    text, state = described(state, 1, {"type": "flip", "position": 5})
    assert text == "discarded the 12 and turned up a 10"


def test_standard_cards_are_named_in_full():
    """Golf cards use their names, with a or an as spoken."""
    six_a = ["AS", "2S", "3S", "4S", "5S", "6S"]
    six_b = ["AH", "2H", "3H", "4H", "5H", "6H"]
    state = tee_off_all(dealt("golf-6", 2, [six_a, six_b], "8D", draw=["QH"]))
    text, state = described(state, 1, {"type": "draw", "source": "discard"})
    assert text == "took the 8 of diamonds from the discard pile"
    text, state = described(state, 1, {"type": "replace", "position": 2})
    assert text == "replaced a face-down card (a 3 of hearts) with the 8 of diamonds"
    state = apply_action(state, 0, {"type": "draw", "source": "pile"})
    text, _ = described(state, 0, {"type": "discard"})
    assert text == "discarded the Queen of hearts"


def test_knock_and_swap():
    """Knocks and swaps say no card at all."""
    layouts = [["AS", "2S", "3S", "4S"], ["AH", "2H", "3H", "4H"], ["AC", "2C", "3C", "4C"]]
    state = tee_off_all(dealt("golf-4", 3, layouts, "AD"))
    text, _ = described(state, 1, {"type": "knock"})
    assert text == "knocked"
    nine = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    state = tee_off_all(dealt("golf-9-3deck", 2, [nine, list(nine)], "AD"))
    text, _ = described(state, 1, {"type": "swap", "positions": [0, 8]})
    assert text == "swapped two cards"


def test_a_turn_reads_as_one_phrase_once_the_drawn_card_is_placed():
    """Draw and use in one phrase; a tee-off or a draw alone has no turn phrase."""
    state = tee_off_all(dealt("play-nine", 2, [A, B], 0, draw=[3, 12, 8, 0]), {0: [0, 3]})

    def turn(state, seat, action):
        after = apply_action(state, seat, action)
        return describe_turn(state, seat, action, after), after

    text, state = turn(state, 1, {"type": "draw", "source": "pile"})
    assert text is None
    text, state = turn(state, 1, {"type": "replace", "position": 4})
    assert text == "drew a 3 and replaced a face-down card (a 9) with it"
    state = apply_action(state, 0, {"type": "draw", "source": "discard"})
    text, state = turn(state, 0, {"type": "replace", "position": 3})
    assert text == "took the 9 from the discard pile and replaced their 11"
    state = apply_action(state, 1, {"type": "draw", "source": "pile"})
    text, state = turn(state, 1, {"type": "flip", "position": 5})
    assert text == "drew a 12, discarded it and turned up a 10"

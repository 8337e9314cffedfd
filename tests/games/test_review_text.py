"""A hole review in words: the cards the player could see named in the game's own words,
a face-down card by its place only, each decision numbered by its replay step, and a
headline figure that is the sum of the costs shown."""

from __future__ import annotations

import re

import pytest

from games import engine, reviews
from games.engine import apply_action, view
from games.models import HoleReview
from games.review_text import ReviewedDecision, choice_words, place, review_text, strokes
from games.selectors import replay_states
from tests.engine.helpers import dealt
from tests.games.test_review import finished  # noqa: F401  (a fixture)

PLAY_NINE = engine.VARIANTS["play-nine"]
GOLF_6 = engine.VARIANTS["golf-6"]

#: Seat 1 plays first (seat 0 deals). Its bottom row, second from left, hides the only
#: Hole-in-One (-5) dealt face down: no word of a review may name it.
ANA = [12, 3, 5, 7, 0, -5, 11, 2]
BEN = [1, 1, 4, 4, 6, 6, 8, 8]


def _holding(variant, layouts, discard, draw, tee=(0, 4)):
    """Both seats teed off; seat 1 holds the draw pile's top card."""
    state = dealt(variant, 2, layouts, discard, draw)
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 4]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": list(tee)})
    before = state
    return before, apply_action(state, 1, {"type": "draw", "source": "pile"})


def test_a_place_is_said_as_a_player_would_say_it():
    assert place(PLAY_NINE, 0) == "top row, far left"
    assert place(PLAY_NINE, 5) == "bottom row, second from left"
    assert place(PLAY_NINE, 7) == "bottom row, far right"
    assert place(engine.VARIANTS["golf-9"], 4) == "middle row, second from left"


def test_each_advice_names_the_card_in_hand_and_the_card_it_goes_over():
    """The drawn card and a face-up card by name; a face-down card by its place."""
    before, holding = _holding("play-nine", [BEN, ANA], 9, [7])
    seen = view(holding, 1)
    assert choice_words(PLAY_NINE, seen, {"type": "replace", "position": 0}) == (
        "swap the 7 you drew for the 12 at top row, far left"
    )
    assert choice_words(PLAY_NINE, seen, {"type": "replace", "position": 5}) == (
        "swap the 7 you drew for the face-down card at bottom row, second from left"
    )
    assert choice_words(PLAY_NINE, seen, {"type": "flip", "position": 5}) == (
        "discard the 7 you drew and turn up the face-down card at bottom row, second from left"
    )
    # The skip is the variant's own.
    assert choice_words(PLAY_NINE, seen, {"type": "discard"}) == "skip: discard the 7 you drew"
    assert choice_words(PLAY_NINE, view(before, 1), {"type": "draw", "source": "discard"}) == (
        "take the 9 from the discard pile"
    )
    assert choice_words(PLAY_NINE, seen, {"type": "replace", "position": 0}, "Ana") == (
        "swap the 7 Ana drew for the 12 at top row, far left"
    )


def test_a_card_taken_from_the_discard_pile_is_the_card_you_took():
    state = dealt("play-nine", 2, [BEN, ANA], 9, [7])
    state = apply_action(state, 0, {"type": "tee_off", "positions": [0, 4]})
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 4]})
    took = apply_action(state, 1, {"type": "draw", "source": "discard"})
    assert choice_words(PLAY_NINE, view(took, 1), {"type": "replace", "position": 4}) == (
        "swap the 9 you took for the 0 at bottom row, far left"
    )


def test_each_variant_names_its_cards_in_its_own_words():
    """6-card Golf's cards are "the Queen of hearts", not "QH"; it has no skip."""
    ana = ["QH", "3S", "5D", "7C", "KS", "AH"]
    ben = ["2S", "2H", "4S", "4H", "6S", "6H"]
    _, holding = _holding("golf-6", [ben, ana], "9D", ["8C"], tee=(0, 3))
    seen = view(holding, 1)
    assert choice_words(GOLF_6, seen, {"type": "replace", "position": 0}) == (
        "swap the 8 of clubs you drew for the Queen of hearts at top row, far left"
    )
    assert choice_words(GOLF_6, seen, {"type": "discard"}) == "discard the 8 of clubs you drew"


def test_a_card_face_down_at_the_time_is_never_named():
    """Not when it is turned up at the tee off, nor when it is replaced or turned up,
    though the hole shows it later: only its place."""
    state = dealt("play-nine", 2, [BEN, ANA], 9, [7])
    tee_off = {"type": "tee_off", "positions": [1, 5]}
    assert choice_words(PLAY_NINE, view(state, 1), tee_off) == (
        "turn up the face-down cards at top row, second from left and bottom row, second from left"
    )
    _, holding = _holding("play-nine", [BEN, ANA], 9, [7])
    seen = view(holding, 1)
    for action in [
        {"type": "replace", "position": 5},
        {"type": "flip", "position": 5},
        {"type": "replace", "position": 1},
    ]:
        words = choice_words(PLAY_NINE, seen, action)
        assert "-5" not in words and " 3 " not in words
        assert not re.search(r"\d", words.replace("the 7 you drew", ""))


def test_figures_to_a_tenth_read_as_strokes():
    assert strokes(2.14) == "2.1 strokes"
    assert strokes(1.0) == "1 stroke"
    assert strokes(0) == "0 strokes"


@pytest.mark.django_db
def test_decisions_are_numbered_by_the_replay_s_steps_and_link_there(finished):  # noqa: F811
    """Decision n is the replay's move n: the reviewed seat's move, the one played."""
    table, _ = finished
    hole = table.holes.get(number=1)
    review = reviews.review_hole(hole=hole, position=0, samples=1)
    told = review_text(table, hole, review)
    states = replay_states(hole)
    assert [d.move for d in told.decisions] == [d["version"] + 1 for d in review.decisions]
    for decision, stored in zip(told.decisions, review.decisions, strict=True):
        move = states[decision.move][1]
        assert move.seq == decision.move and move.seat == 0
        assert move.action == stored["played"] or sorted(move.action["positions"]) == sorted(
            stored["played"]["positions"]
        )
        assert decision.replay_url.endswith(f"/holes/1/?move={decision.move}")


@pytest.mark.django_db
def test_the_headline_is_the_sum_of_the_costs_shown_and_names_the_score(finished):  # noqa: F811
    """Each cost shown to a tenth; the headline adds up exactly those; a decision with
    no cost shows no other play; the score is the hole's."""
    table, _ = finished
    hole = table.holes.get(number=1)
    review = reviews.review_hole(hole=hole, position=0, samples=1)
    told = review_text(table, hole, review)
    assert [d.cost for d in told.decisions] == [round(d["cost"], 1) for d in review.decisions]
    assert told.given_away == round(sum(d.cost for d in told.decisions), 1)
    assert told.given_away == pytest.approx(review.given_away, abs=0.05 * len(review.decisions))
    assert all((d.best is None) == (d.cost == 0) for d in told.decisions)
    assert told.marked == [d for d in told.decisions if d.cost > 0.5]
    scored = hole.scores[hole.seat_positions.index(0)]
    headline = told.headline
    assert headline.endswith(f"you scored {scored}.")
    if told.given_away:
        assert f"cost about {strokes(told.given_away)} on average" in headline


@pytest.mark.django_db
def test_choices_as_good_as_the_best_say_so(finished):  # noqa: F811
    table, _ = finished
    hole = table.holes.get(number=1)
    review = reviews.review_hole(hole=hole, position=0, samples=1)
    HoleReview.objects.filter(pk=review.pk).update(
        decisions=[{**d, "cost": 0.0, "best": d["played"]} for d in review.decisions]
    )
    review.refresh_from_db()
    told = review_text(table, hole, review, "Ana")
    assert told.given_away == 0
    # Told to another player: no "you" in it.
    assert not any(re.search(r"\byou\b", d.played) for d in told.decisions)
    assert told.headline.startswith("Ana's choices were as good as the best play found; Ana scored")


def test_a_decision_s_anchor_and_words_of_cost():
    decision = ReviewedDecision(
        move=12, played="knock", best="draw from the draw pile", played_strokes=9.0,
        best_strokes=7.0, cost=2.1, replay_url="/tables/1/holes/1/?move=12",
    )  # fmt: skip
    assert decision.anchor == "move-12" and decision.marked
    assert decision.cost_words == "cost about 2.1 strokes on average"


def test_a_rearranging_swap_names_the_face_up_card_and_the_face_down_place():
    """Three decks: after the tee off, two cards change places; the one still face down
    is named by its place."""
    rules = engine.VARIANTS["golf-9-3deck"]
    ana = ["QH", "3S", "5D", "7C", "KS", "AH", "JK", "9C", "4D"]
    ben = ["2S", "2H", "4S", "4H", "6S", "6H", "8S", "8H", "10S"]
    state = dealt("golf-9-3deck", 2, [ben, ana], "9D", ["8C"])
    state = apply_action(state, 1, {"type": "tee_off", "positions": [0, 1, 2]})
    swap = {"type": "swap", "positions": [4, 0]}
    assert choice_words(rules, view(state, 1), swap) == (
        "swap the Queen of hearts at top row, far left "
        "with the face-down card at middle row, second from left"
    )

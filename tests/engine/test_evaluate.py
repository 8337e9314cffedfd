"""The evaluator judges an action from its seat's view alone, the same way every time."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.engine import VARIANTS, apply_action, new_hole, view
from games.engine.bots import choose_action
from games.engine.evaluate import (
    RECHECK_SEED,
    best_action,
    determinize,
    evaluate_actions,
    play_out,
    review_seat,
)

from .helpers import acting_seat


def _midway(variant, players=3, seed=4, actions=8):
    """A hole some actions in, played by greedy bots."""
    rng = random.Random(seed)
    state = new_hole(variant, players, seed=seed)
    for _ in range(actions):
        seat = acting_seat(state)
        state = apply_action(state, seat, choose_action(state, seat, "greedy", rng))
    return state


def _hidden_reshuffled(state, seat, seed):
    """The same hole with every card `seat` cannot see dealt again: its view unchanged."""
    world = determinize(view(state, seat), random.Random(seed))
    return replace(world, seed=state.seed, rng_state=state.rng_state)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_determinized_hole_shows_the_seat_exactly_its_view(variant):
    """Only unseen places change: the seat's view of the sampled hole is its own view."""
    state = _midway(variant)
    for seat in range(state.players):
        seen = view(state, seat)
        assert view(determinize(seen, random.Random(1)), seat) == seen


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_deals_differing_only_in_hidden_cards_are_judged_alike(variant):
    """The evaluation of every action depends on the view, never on the face-down cards."""
    state = _midway(variant)
    seat = acting_seat(state)
    other = _hidden_reshuffled(state, seat, seed=9)
    assert other.layouts != state.layouts or other.draw_pile != state.draw_pile
    first = evaluate_actions(state, seat, samples=3, seed=2)
    assert evaluate_actions(other, seat, samples=3, seed=2) == first


def test_the_same_seed_gives_the_same_figures_and_another_seed_may_differ():
    """Deterministic for a seed; the seed is the only source of chance."""
    state = _midway("play-nine")
    seat = acting_seat(state)
    first = evaluate_actions(state, seat, samples=4, seed=1)
    assert evaluate_actions(state, seat, samples=4, seed=1) == first
    assert [j.action for j in first] == [
        j.action for j in evaluate_actions(state, seat, samples=4, seed=7)
    ]


def test_every_legal_action_is_judged_by_default_and_the_best_is_the_lowest():
    """Strokes are within the game's range and the best judgement has the fewest."""
    state = _midway("golf-6", actions=4)
    seat = acting_seat(state)
    judgements = evaluate_actions(state, seat, samples=3)
    assert judgements
    best = best_action(judgements)
    assert best.strokes == min(j.strokes for j in judgements)


def test_an_illegal_action_is_not_judged():
    state = _midway("play-nine")
    seat = acting_seat(state)
    with pytest.raises(ValueError):
        evaluate_actions(state, seat, [{"type": "knock"}], samples=1)


def test_a_review_judges_each_decision_of_the_seat_and_never_a_forced_move():
    """One decision per choice the seat had; the best never costs more than what was played."""
    rng = random.Random(3)
    start = new_hole("golf-4", 3, seed=3)
    state, moves = start, []
    while state.phase != "over":
        seat = acting_seat(state)
        action = choose_action(state, seat, "random", rng)
        moves.append((seat, action))
        state = apply_action(state, seat, action)
    decisions = review_seat(start, moves, 0, samples=2, seed=1)
    assert decisions
    assert all(d.cost == max(0.0, d.played.strokes - d.best.strokes) for d in decisions)
    assert review_seat(start, moves, 0, samples=2, seed=1) == decisions


def _random_hole(variant, seed):
    rng = random.Random(seed)
    start = new_hole(variant, 3, seed=seed)
    state, moves = start, []
    while state.phase != "over":
        seat = acting_seat(state)
        action = choose_action(state, seat, "random", rng)
        moves.append((seat, action))
        state = apply_action(state, seat, action)
    return start, moves


def test_a_review_s_figures_come_from_fresh_deals_not_those_that_chose_the_best():
    """The best of many figures is low by luck: a decision's cost is measured on fresh
    deals, `recheck` times as many. One that played the best the first deals found
    costs nothing, nor does one no surer than noise worse than the best there: its
    best is then the played action itself."""
    start, moves = _random_hole("golf-4", 5)
    decisions = review_seat(start, moves, 0, samples=2, seed=1, recheck=3)
    state, checked = start, 0
    by_version = {d.version: d for d in decisions}
    for mover, action in moves:
        decision = by_version.get(state.version) if mover == 0 else None
        if decision is not None:
            first = evaluate_actions(state, 0, samples=2, seed=1000 + state.version)
            chosen = best_action(first)
            assert decision.best.action == chosen.action
            if decision.played.action == chosen.action:
                assert decision.cost == 0 and decision.played == decision.best == chosen
            else:
                again = evaluate_actions(
                    state,
                    0,
                    [decision.played.action, chosen.action],
                    samples=6,
                    seed=1000 + state.version + RECHECK_SEED,
                )
                assert decision.played == again[0]
                assert decision.best in (again[1], decision.played)
                if decision.best == decision.played:
                    assert decision.cost == 0
                checked += 1
        state = apply_action(state, mover, action)
    assert checked


def test_a_playout_from_the_deal_ends_where_a_seat_may_rearrange_at_tee_off():
    """Three decks: a seat that has teed off may swap as often as it likes, so the
    playout must go on to the next seat yet to tee off rather than the first with a
    legal action."""
    start = new_hole("golf-9-3deck", 2, seed=999519658778)
    assert play_out(start, random.Random(1)).phase == "over"


@pytest.mark.parametrize("seed", [0, 3, 6])
def test_a_hole_a_mixed_table_played_can_be_reviewed(seed):
    """Greedy once took a discard by one judgement and placed it by another, replacing a
    better card: from such holes, greedy playouts passing a 6 and a 7 round the table
    never ended, and the review failed."""
    rng = random.Random(seed)
    start = new_hole("golf-9", 3, seed=seed)
    state, moves = start, []
    while state.phase != "over":
        seat = acting_seat(state)
        action = choose_action(state, seat, rng.choice(["greedy", "random"]), rng)
        moves.append((seat, action))
        state = apply_action(state, seat, action)
    decisions = review_seat(start, moves, 0, samples=1, seed=0)
    assert decisions and all(decision.cost >= 0 for decision in decisions)


def test_a_strong_player_s_hole_gives_little_away_and_a_random_one_much():
    """Against the noise of the playouts: an expert's choices cost next to nothing, a
    random player's many strokes (each decision within two standard errors counts 0)."""
    for level, low, high in (("expert", 0, 1.5), ("random", 10, 200)):
        rng = random.Random(0)
        start = new_hole("golf-6", 3, seed=0)
        state, moves = start, []
        while state.phase != "over":
            seat = acting_seat(state)
            action = choose_action(state, seat, level if seat == 0 else "greedy", rng)
            moves.append((seat, action))
            state = apply_action(state, seat, action)
        decisions = review_seat(start, moves, 0, samples=8, seed=0)
        assert low <= sum(d.cost for d in decisions) <= high, level

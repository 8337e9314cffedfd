"""The master bot: what it judges a use of a card by, how its weights are learned."""

from __future__ import annotations

import dataclasses
import random

import pytest

from games.engine import VARIANTS, apply_action, view, with_house_rules
from games.engine.bots import (
    MASTER_FEATURES,
    Judge,
    _expert_action,
    choose_action,
    master_action,
)
from games.engine.scene import Scene
from games.engine.train import least_squares, samples

from .helpers import dealt, tee_off_all

FEATURE = {name: index for index, name in enumerate(MASTER_FEATURES)}


def _holding(layouts, draw, discard=9, seat=0):
    """2-player Play Nine, both teed off on positions 0 and 1, `seat` holding `draw`."""
    state = tee_off_all(dealt("play-nine", 2, layouts, discard, draw=[draw], dealer=1))
    assert state.turn == seat
    state = apply_action(state, seat, {"type": "draw", "source": "pile"})
    return state, Scene.from_view(view(state, seat))


MINE = [3, 12, 8, 8, 7, 6, 5, 4]
THEIRS = [2, 2, 11, 11, 10, 10, 9, 1]


def test_every_game_has_master_weights_and_house_rules_keep_their_games():
    for key, rules in VARIANTS.items():
        assert rules.master_weights is not None
        assert len(rules.master_weights) == len(MASTER_FEATURES)
        for rule in rules.house_rule_options:
            derived = with_house_rules(key, [rule.key])
            assert derived.master_weights == rules.master_weights


def test_the_features_of_a_use_read_the_layout_it_leaves_and_the_stage_of_the_hole():
    state, scene = _holding([MINE, THEIRS], draw=-5)
    judge = Judge(scene, (0.0,) * len(MASTER_FEATURES))
    # The opponent has six cards face down: the early stage.
    onto_hidden = judge.features(-5, {"type": "replace", "position": 4})
    onto_shown = judge.features(-5, {"type": "replace", "position": 1})
    flip = judge.features(-5, {"type": "flip", "position": 4})
    assert onto_hidden[FEATURE["face down, 3+ left"]] == 5
    assert onto_shown[FEATURE["face down, 3+ left"]] == 6
    assert flip[FEATURE["face down, 3+ left"]] == 5
    # Putting the -5 over the 12 leaves the lower layout.
    assert onto_shown[FEATURE["estimate, 3+ left"]] < onto_hidden[FEATURE["estimate, 3+ left"]]
    for features in (onto_hidden, onto_shown, flip):
        assert features[FEATURE["going out"]] == 0
        assert features[FEATURE["estimate, 1 left"]] == features[FEATURE["estimate, 2 left"]] == 0
    # The 12 replaced goes to the discard pile, where the next player can use it: no gift
    # to a layout of 2s, 11s and 10s ... but a flip discards the -5, which is one.
    assert flip[FEATURE["gift to the next player"]] > onto_shown[FEATURE["gift to the next player"]]


def test_the_master_takes_the_use_its_weights_judge_best():
    state, scene = _holding([MINE, THEIRS], draw=-5)
    # Weighing the estimate alone, the -5 goes over the 12.
    only_estimate = tuple(1.0 if "estimate" in name else 0.0 for name in MASTER_FEATURES)
    rules = dataclasses.replace(scene.rules, master_weights=only_estimate)
    chosen = master_action(dataclasses.replace(scene, rules=rules), random.Random(1))
    assert chosen == {"type": "replace", "position": 1}
    # Weighing only how many cards stay face down, it turns one up instead.
    only_down = tuple(1.0 if "face down" in name else 0.0 for name in MASTER_FEATURES)
    rules = dataclasses.replace(scene.rules, master_weights=only_down)
    chosen = master_action(dataclasses.replace(scene, rules=rules), random.Random(1))
    assert chosen["type"] in ("flip", "replace") and chosen.get("position", 0) >= 2


def test_a_game_without_master_weights_is_played_as_the_expert_plays_it():
    state = tee_off_all(dealt("play-nine", 2, [MINE, THEIRS], 11, draw=[7], dealer=1))
    scenes = [Scene.from_view(view(state, 0))]
    state = apply_action(state, 0, {"type": "draw", "source": "pile"})
    scenes.append(Scene.from_view(view(state, 0)))
    for scene in scenes:
        unweighted = dataclasses.replace(scene.rules, master_weights=None)
        master = master_action(dataclasses.replace(scene, rules=unweighted), random.Random(1))
        assert master == _expert_action(scene, random.Random(1))


def test_the_master_takes_a_discard_only_when_its_best_use_beats_a_blind_draw():
    state = tee_off_all(dealt("play-nine", 2, [MINE, THEIRS], -5, draw=[7], dealer=1))
    low = choose_action(state, 0, "master", random.Random(1))
    assert low == {"type": "draw", "source": "discard"}
    # A 12 pairs with the 12 showing, to score 0; an 11 helps nothing.
    state = tee_off_all(dealt("play-nine", 2, [MINE, THEIRS], 12, draw=[7], dealer=1))
    pair = choose_action(state, 0, "master", random.Random(1))
    assert pair == {"type": "draw", "source": "discard"}
    state = tee_off_all(dealt("play-nine", 2, [MINE, THEIRS], 11, draw=[7], dealer=1))
    high = choose_action(state, 0, "master", random.Random(1))
    assert high == {"type": "draw", "source": "pile"}


def test_least_squares_recovers_the_weights_that_made_the_data():
    rng = random.Random(3)
    truth = [0.8, -1.5, 2.0, 0.0]
    rows = [[rng.uniform(-5, 5) for _ in truth] for _ in range(60)]
    for row in rows:
        row[3] = 0.0  # a feature that never varies gets weight 0
    targets = [sum(w * x for w, x in zip(truth, row, strict=True)) for row in rows]
    assert least_squares(rows, targets) == pytest.approx(truth, abs=1e-6)


def test_training_compares_two_uses_played_out_on_the_same_cards():
    found = [row for seed in range(3) for row in samples("golf-6", seed)]
    assert found
    for difference, outcome in found:
        assert len(difference) == len(MASTER_FEATURES)
        assert isinstance(outcome, float)
    # The two uses differ, so their features mostly do too.
    assert sum(any(value != 0 for value in difference) for difference, _ in found) > len(found) / 2

"""The rules page: every game explained, with worked examples the engine scores."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import engine, rule_examples

pytestmark = pytest.mark.django_db


def test_every_game_has_worked_examples_and_their_strokes_are_the_engines(client):
    html = client.get(reverse("games:rules")).content.decode()
    grouped = rule_examples.examples_by_variant()
    assert set(grouped) == set(engine.VARIANTS)
    shown = re.findall(r'class="example-strokes">(-?\d+) stroke', html)
    expected = [engine.score_layout(variant, cards) for variant, cards, _ in rule_examples.LAYOUTS]
    assert [int(s) for s in shown] == expected


def test_the_examples_show_the_scores_the_rules_state():
    """The figures the rules page works out by hand, as the engine scores the drawn layouts."""
    strokes = {
        found.caption: found.strokes
        for examples in rule_examples.examples_by_variant().values()
        for found in examples
    }
    assert strokes["Two pairs of Hole-in-Ones keep their −10 each, plus the −10 bonus."] == -30
    assert strokes["Two pairs of 7s and two pairs of 3s: each value earns its own −10."] == -20
    assert strokes["Three 3s in an L: the corner card pairs both ways, so all three score 0."] == 40


def test_the_examples_are_drawn_with_the_tables_card_tiles_and_outline_the_pairs(client):
    html = client.get(reverse("games:rules")).content.decode()
    # Two pairs of Hole-in-Ones: four outlined tiles named as the table names them.
    assert html.count('aria-label="Hole-in-One, minus 5, paired"') == 4
    # Corner to corner is no pair in the three-deck game.
    layout = ["5H", "8D", "AC", "3S", "5D", "3H", "KC", "JK", "JK"]
    corners = rule_examples.example("golf-9-3deck", layout, "")
    assert [slot.paired for slot in corners.slots] == [False] * 7 + [True, True]


def test_home_page_names_every_game(client):
    html = client.get(reverse("home")).content.decode()
    assert f"{len(engine.VARIANTS)} games" in html
    for key, rules in engine.VARIANTS.items():
        assert f'<a href="{reverse("games:rules")}#{key}">{rules.name}</a>' in html

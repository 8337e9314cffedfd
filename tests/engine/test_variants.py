"""Each game's behaviour is asked of its Variant: its cards, its moves, its scoring.

And nothing else in the project decides by comparing a variant's key.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from games.engine import (
    VARIANTS,
    IllegalAction,
    apply_action,
    card_label,
    card_text,
    hole_score_range,
    legal_actions,
    new_hole,
    score_layout,
    scoring_pairs,
)

from .helpers import dealt, random_play, tee_off_all

GOLF_KEYS = ("golf-6", "golf-4", "golf-9", "golf-9-3deck")


def _every_card(key):
    rules = VARIANTS[key]
    return sorted(set(rules.deck(rules.max_players)), key=lambda card: (str(type(card)), card))


# --- the cards, written and named -------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "card", "text", "label", "name"),
    [
        ("play-nine", -5, "-5", "Hole-in-One, minus 5", "-5"),
        ("play-nine", 0, "0", "Mulligan, 0", "0"),
        ("play-nine", 11, "11", "11", "11"),
        ("golf-6", "QH", "Q\u2665", "Queen of hearts", "Queen of hearts"),
        ("golf-4", "10D", "10\u2666", "10 of diamonds", "10 of diamonds"),
        ("golf-9", "AS", "A\u2660", "Ace of spades", "Ace of spades"),
        ("golf-9-3deck", "JK", "Joker", "Joker", "Joker"),
    ],
)
def test_a_variant_writes_reads_out_and_names_its_cards(variant, card, text, label, name):
    """Play Nine cards go by their number in a sentence; standard cards by their words."""
    rules = VARIANTS[variant]
    assert rules.card_text(card) == text
    assert rules.card_label(card) == label
    assert rules.card_name(card) == name


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_module_functions_say_what_the_variant_says_for_every_card(variant):
    """`card_text` and `card_label` by key are the variant's own, card for card."""
    rules = VARIANTS[variant]
    for card in _every_card(variant):
        assert card_text(variant, card) == rules.card_text(card)
        assert card_label(variant, card) == rules.card_label(card)


@pytest.mark.parametrize(("variant", "card"), [("play-nine", "AS"), ("play-nine", True)])
def test_play_nine_refuses_to_name_a_standard_card(variant, card):
    """A card of another kind is a ValueError, in every way of writing it."""
    rules = VARIANTS[variant]
    for method in (rules.card_text, rules.card_label, rules.card_name):
        with pytest.raises(ValueError):
            method(card)


@pytest.mark.parametrize("variant", GOLF_KEYS)
def test_golf_refuses_to_name_a_play_nine_card(variant):
    rules = VARIANTS[variant]
    for method in (rules.card_text, rules.card_label, rules.card_name):
        with pytest.raises(ValueError):
            method(7)


def test_card_texts_are_unknown_for_an_unknown_variant():
    with pytest.raises(ValueError):
        card_text("golf-12", "AS")


@pytest.mark.parametrize(
    ("card", "tone"),
    [(-5, "ace"), (0, "low"), (4, "low"), (5, "mid"), (8, "mid"), (9, "high"), (12, "high")],
)
def test_play_nine_tones_are_bands_of_value(card, tone):
    """Below 0 ace, to 4 low, to 8 mid, above that high."""
    assert VARIANTS["play-nine"].tone(card) == tone


@pytest.mark.parametrize("variant", GOLF_KEYS)
@pytest.mark.parametrize(
    ("card", "tone"),
    [("AH", "red"), ("10D", "red"), ("QS", "black"), ("KC", "black"), ("2S", "black")],
)
def test_standard_tones_are_the_suits_colour(variant, card, tone):
    assert VARIANTS[variant].tone(card) == tone


def test_the_joker_has_its_own_tone():
    assert VARIANTS["golf-9-3deck"].tone("JK") == "joker"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_face_down_card_is_down_in_every_game(variant):
    assert VARIANTS[variant].tone(None) == "down"


@pytest.mark.parametrize(
    ("variant", "tones"),
    [
        ("play-nine", {"ace", "low", "mid", "high"}),
        ("golf-6", {"red", "black"}),
        ("golf-9-3deck", {"red", "black", "joker"}),
    ],
)
def test_the_cards_of_a_game_take_the_tones_of_their_kind(variant, tones):
    """Every tone of the kind is used by some card, and no card has another."""
    rules = VARIANTS[variant]
    assert {rules.tone(card) for card in _every_card(variant)} == tones


# --- the moves --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "flip", "skip", "free_discard", "knock", "swap"),
    [
        ("play-nine", True, True, False, False, False),
        ("golf-6", False, False, True, False, False),
        ("golf-4", False, False, True, True, False),
        ("golf-9", False, False, True, False, False),
        ("golf-9-3deck", False, False, True, False, True),
    ],
)
def test_each_game_has_the_moves_its_rules_give(variant, flip, skip, free_discard, knock, swap):
    """As games/engine/README.md's `Variant` has them: only Play Nine flips and skips,
    4-card Golf knocks, three decks swap, and every golf game lets a pile card be
    discarded unused."""
    rules = VARIANTS[variant]
    assert (rules.can_flip, rules.can_skip, rules.free_discard) == (flip, skip, free_discard)
    assert (rules.can_knock, rules.can_swap) == (knock, swap)


def test_play_nine_may_discard_only_with_exactly_one_card_face_down():
    """The skip: with 0 face down the hole is over for you, with 2 or more you must play."""
    rules = VARIANTS["play-nine"]
    assert [rules.may_discard(face_down) for face_down in range(9)] == [
        face_down == 1 for face_down in range(9)
    ]


@pytest.mark.parametrize("variant", GOLF_KEYS)
def test_golf_may_discard_whatever_is_face_down(variant):
    rules = VARIANTS[variant]
    assert all(rules.may_discard(face_down) for face_down in range(rules.size + 1))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_legal_actions_offer_the_plain_discard_exactly_when_the_variant_allows_it(variant):
    """Holding a card from the draw pile, "discard" is legal if and only if `may_discard`."""
    rules = VARIANTS[variant]
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        start = new_hole(variant, rules.min_players, seed=seed)
        for state, seat, action, _ in random_play(start, rng):
            if action["type"] not in ("replace", "flip", "discard"):
                continue
            if state.held_from != "pile":
                continue
            offered = {"type": "discard"} in legal_actions(state, seat)
            assert offered == rules.may_discard(state.face_up[seat].count(False))
            checked += 1
    assert checked > 0


def test_a_skip_with_two_face_down_cards_is_refused_in_the_variants_words():
    """Play Nine's refusal names the skip rule."""
    state = tee_off_all(dealt("play-nine", 2, [[1] * 8, [2] * 8], 3, draw=[4]))
    state = apply_action(state, 1, {"type": "draw", "source": "pile"})
    with pytest.raises(IllegalAction, match="exactly one"):
        apply_action(state, 1, {"type": "discard"})


@pytest.mark.parametrize(
    ("variant", "label"),
    [
        ("play-nine", "Skip: discard it"),
        ("golf-6", "Discard it"),
        ("golf-4", "Discard it"),
        ("golf-9", "Discard it"),
        ("golf-9-3deck", "Discard it"),
    ],
)
def test_the_plain_discard_button_says_skip_only_where_it_is_one(variant, label):
    assert VARIANTS[variant].discard_label == label


# --- scoring ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_variant_scores_and_pairs_its_layouts_as_the_module_functions_do(variant):
    """`score`, `scoring_pairs` and `score_range` on the variant are what the engine's
    functions by key give, for random full layouts."""
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    deck = rules.deck(rules.max_players)
    for _ in range(200):
        cards = rng.sample(deck, rules.size)
        ranks = [rules.ranks[card] for card in cards]
        assert rules.score(cards) == score_layout(variant, cards)
        assert rules.scoring_pairs(cards) == scoring_pairs(variant, cards)
        assert rules.pair_groups(ranks) == rules.scoring_pairs(cards)
        assert rules.score_ranks(ranks, [rules.values[card] for card in cards]) == (
            rules.score(cards)
        )
    assert rules.score_range == hole_score_range(variant)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_variant_refuses_to_score_what_is_not_a_full_layout_of_its_cards(variant):
    rules = VARIANTS[variant]
    card = rules.deck(rules.min_players)[0]
    with pytest.raises(ValueError):
        rules.score([card] * (rules.size - 1))
    with pytest.raises(ValueError):
        rules.score([card] * (rules.size - 1) + [None])
    with pytest.raises(ValueError):
        rules.scoring_pairs([card] * (rules.size - 1) + ["XX"])


def test_a_stand_in_pairs_with_nothing_and_scores_its_expected_value():
    """The bots score unseen cards as stand-ins: a rank equal to nothing, a mean value."""
    rules = VARIANTS["golf-9"]
    ranks = ["K", ("?", 1), "K", "5", "5", "5", "9", ("?", 7), "9"]
    values = [0, 4.5, 0, 5, 5, 5, 9, 4.5, 9]
    # Column 0: K, 5, 9 no pair; column 1: stand-in, 5, stand-in, no pair (stand-ins
    # differ); column 2: K, 5, 9. Row pairs do not count in columns golf.
    assert rules.score_ranks(ranks, values) == sum(values)
    ranks[4] = "K"  # column 1 is now stand-in, K, stand-in: still no pair
    assert rules.score_ranks(ranks, values) == sum(values)
    ranks[0], ranks[3] = "Q", "Q"  # column 0: Q over Q cancels both
    assert rules.score_ranks(ranks, values) == sum(values) - values[0] - values[3]


# --- nothing else compares a key --------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "games" / "engine" / "variants.py"
_KEY = "|".join(re.escape(key) for key in sorted(VARIANTS, key=len, reverse=True))
_QUOTED_KEY = rf"""["'](?:{_KEY})["']"""
#: A variant key compared, tested for membership or used as a table's key, in
#: Python or in a template; or the old scoring-family strings compared.
KEY_COMPARED = re.compile(
    rf"""(?:==|!=|\bis\b|\bin\b)\s*[(\[{{]?\s*{_QUOTED_KEY}"""
    rf"""|{_QUOTED_KEY}\s*(?:==|!=|\bin\b|:)"""
    r"""|\.scoring\s*(?:==|!=)"""
)


def _sources():
    for folder in ("games", "leagues", "templates", "config"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in (".py", ".html") and path != HOME:
                yield path


@pytest.mark.parametrize(
    "line",
    [
        'if variant == "play-nine":',
        "{% if rules.key == 'play-nine' %}Skip{% endif %}",
        'if "golf-4" != table.variant:',
        'if table.variant in ("golf-9", "golf-9-3deck"):',
        'LABELS = {"play-nine": "Skip"}',
        'if rules.scoring == "columns":',
        "{% if rules.key is 'golf-6' %}",
    ],
)
def test_the_scan_finds_a_comparison_of_a_key(line):
    """The scan below would catch each way of deciding by a variant's key."""
    assert KEY_COMPARED.search(line)


@pytest.mark.parametrize(
    "line",
    [
        'variant = models.CharField(max_length=20, default="play-nine")',
        'host=player, variant="play-nine", seat_count=2',
        '<h2 id="play-nine">Play Nine</h2>',
        "rules = engine.VARIANTS[table.variant]",
    ],
)
def test_the_scan_lets_a_key_be_a_value(line):
    """A key given as a value (a default, an argument, an anchor) is no decision."""
    assert not KEY_COMPARED.search(line)


def test_no_code_or_template_outside_the_variants_compares_a_variant_key():
    """What differs between games is asked of the `Variant`, in one home: variants.py."""
    assert HOME.exists()
    scanned = 0
    found = []
    for path in _sources():
        scanned += 1
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if KEY_COMPARED.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert scanned > 20
    assert found == []

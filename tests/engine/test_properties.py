"""Properties of random legal play, in every game and at every table size."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    VARIANTS,
    IllegalAction,
    apply_action,
    legal_actions,
    new_hole,
    score_layout,
    state_to_dict,
    view,
)

from .helpers import acting_seat

CASES = [
    (key, players)
    for key, rules in VARIANTS.items()
    for players in range(rules.min_players, rules.max_players + 1)
]

games = st.sampled_from(CASES)
seeds = st.integers(min_value=0, max_value=2**32)

junk_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.text(max_size=3),
    st.sampled_from(["pile", "discard"]),
    st.lists(st.integers(-1, 9), max_size=4),
)
junk_actions = st.one_of(
    st.dictionaries(
        st.sampled_from(["type", "position", "positions", "source", "card"]),
        st.one_of(
            junk_values,
            st.sampled_from(["tee_off", "draw", "replace", "flip", "discard", "knock", "swap"]),
        ),
        max_size=3,
    ),
    junk_values,
)


def _normal(action):
    if isinstance(action, dict) and isinstance(action.get("positions"), list):
        try:
            return {**action, "positions": sorted(action["positions"])}
        except TypeError:
            return action
    return action


def _key(action) -> str:
    """A type-exact key: `False == 0` in Python, but False is no position."""
    return json.dumps(_normal(action), sort_keys=True, default=repr)


def _cards(state):
    cards = [card for layout in state.layouts for card in layout]
    cards += list(state.draw_pile) + list(state.discard_pile)
    if state.held is not None:
        cards.append(state.held)
    return Counter(cards)


@settings(max_examples=40, deadline=None)
@given(games, seeds, st.data())
def test_random_legal_play(game, seed, data):
    """apply_action accepts exactly the legal actions, never mutates its input, keeps every
    card, always ends the hole, and scores it with score_layout."""
    variant, players = game
    rng = random.Random(seed)
    state = new_hole(variant, players, seed=seed, dealer=seed % players)
    deck = Counter(VARIANTS[variant].deck(players))
    for _ in range(5000):
        if state.phase == "over":
            break
        seat = acting_seat(state)
        legal = legal_actions(state, seat)
        assert legal
        snapshot = state_to_dict(state)
        junk = data.draw(junk_actions)
        try:
            apply_action(state, seat, junk)
        except IllegalAction:
            assert _key(junk) not in {_key(action) for action in legal}
        else:
            assert _key(junk) in {_key(action) for action in legal}
        assert state_to_dict(state) == snapshot
        other = (seat + 1) % players
        if state.phase != "tee_off":
            assert legal_actions(state, other) == []
        action = rng.choice(legal)
        after = apply_action(state, seat, action)
        assert state_to_dict(state) == snapshot  # the input is never changed
        assert after.version == state.version + 1
        assert _cards(after) == deck
        state = after
    assert state.phase == "over"
    assert state.scores == [score_layout(variant, layout) for layout in state.layouts]


def _hidden_deck_indices(state, actions):
    """Deck indices of cards never seen by anyone in the action sequence (deck dealt as given)."""
    players, size = state.players, len(state.layouts[0])
    # Where each dealt card sits: origin[seat][position] = deck index.
    origin = [[0] * size for _ in range(players)]
    index = 0
    for position in range(size):
        for offset in range(1, players + 1):
            origin[(state.dealer + offset) % players][position] = index
            index += 1
    draw_start = index + 1
    drawn = 0
    refilled = False
    seen = set()
    current = state
    for seat, action in actions:
        kind = action["type"]
        if kind in ("tee_off", "flip", "replace"):
            positions = action.get("positions") or [action["position"]]
            for position in positions:
                if not current.face_up[seat][position]:
                    seen.add(origin[seat][position])
        if kind == "swap":
            first, second = action["positions"]
            origin[seat][first], origin[seat][second] = origin[seat][second], origin[seat][first]
        if kind == "draw" and action["source"] == "pile" and not refilled:
            seen.add(draw_start + drawn)
            drawn += 1
        after = apply_action(current, seat, action)
        if len(after.draw_pile) > len(current.draw_pile):
            refilled = True
        current = after
    hidden = [
        origin[seat][p]
        for seat in range(players)
        for p in range(size)
        if not current.face_up[seat][p]
    ]
    if not refilled:
        hidden += range(draw_start + drawn, draw_start + drawn + len(current.draw_pile))
    return [index for index in hidden if index not in seen]


@settings(max_examples=25, deadline=None)
@given(games, seeds)
def test_views_never_show_a_hidden_card(game, seed):
    """Two deals differing only in cards still hidden give the same views, seat by seat."""
    variant, players = game
    rng = random.Random(seed)
    deck = VARIANTS[variant].deck(players)
    rng.shuffle(deck)
    dealer = seed % players
    state = new_hole(variant, players, deck=deck, dealer=dealer)
    actions = []
    while True:
        seat = acting_seat(state)
        action = rng.choice(legal_actions(state, seat))
        after = apply_action(state, seat, action)
        if after.phase == "over":
            break  # the end shows everything; compare the play before it
        actions.append((seat, action))
        state = after
        # Each view shows exactly the face-up cards.
        for watcher in [None, *range(players)]:
            seen = view(state, watcher)
            for layout, cards, face_up in zip(
                seen["layouts"], state.layouts, state.face_up, strict=True
            ):
                assert layout == [c if up else None for c, up in zip(cards, face_up, strict=True)]
    start = new_hole(variant, players, deck=deck, dealer=dealer)
    hidden = _hidden_deck_indices(start, actions)
    other = list(deck)
    cards = [deck[index] for index in hidden]
    rng.shuffle(cards)
    for index, card in zip(hidden, cards, strict=True):
        other[index] = card
    first, second = start, new_hole(variant, players, deck=other, dealer=dealer)
    for seat, action in actions:
        for watcher in [None, *range(players)]:
            assert view(first, watcher) == view(second, watcher)
        first, second = apply_action(first, seat, action), apply_action(second, seat, action)
    for watcher in [None, *range(players)]:
        assert view(first, watcher) == view(second, watcher)

"""Helpers for the engine tests: stacked decks and quick ways through a hole."""

from __future__ import annotations

import random
from collections import Counter

from games.engine import VARIANTS, apply_action, legal_actions, new_hole
from games.engine.hole import OVER, TEE_OFF, HoleState


def stacked_deck(
    variant: str,
    players: int,
    layouts: list[list],
    discard,
    draw: list,
    dealer: int = 0,
) -> list:
    """A deck (top card first) that deals `layouts` by seat, `discard` face up, then `draw`.

    `draw` is the top of the draw pile, top card first; the rest of the deck follows it.
    """
    rules = VARIANTS[variant]
    deck = []
    for position in range(rules.size):
        for offset in range(1, players + 1):
            deck.append(layouts[(dealer + offset) % players][position])
    deck.append(discard)
    deck.extend(draw)
    rest = Counter(rules.deck(players))
    rest.subtract(deck)
    assert all(count >= 0 for count in rest.values()), "the stacked cards are not in the deck"
    deck.extend(sorted(rest.elements(), key=lambda card: (str(type(card)), card)))
    return deck


def dealt(variant: str, players: int, layouts, discard, draw=(), dealer: int = 0) -> HoleState:
    """A hole dealt from a stacked deck, still in its tee off."""
    deck = stacked_deck(variant, players, layouts, discard, list(draw), dealer)
    return new_hole(variant, players, deck=deck, dealer=dealer)


def tee_off_all(state: HoleState, positions: dict[int, list[int]] | None = None) -> HoleState:
    """Every seat tees off (seat order), with `positions` per seat or the first cards."""
    flips = VARIANTS[state.variant].opening_flips
    for seat in range(state.players):
        chosen = (positions or {}).get(seat, list(range(flips)))
        state = apply_action(state, seat, {"type": "tee_off", "positions": chosen})
    return state


def acting_seat(state: HoleState) -> int:
    """The seat to ask next: the first not yet teed off, else the seat whose turn it is."""
    if state.phase == TEE_OFF:
        return state.teed_off.index(False)
    return state.turn


def random_play(state: HoleState, rng: random.Random, limit: int = 5000):
    """Yield (state, seat, action, next_state) through random legal play to the end."""
    for _ in range(limit):
        if state.phase == OVER:
            return
        seat = acting_seat(state)
        action = rng.choice(legal_actions(state, seat))
        after = apply_action(state, seat, action)
        yield state, seat, action, after
        state = after
    raise AssertionError("random play did not end the hole")

"""Dealing a hole: the deck for the table, shuffled from the hole's seed (or given),
and the cards going round from the dealer's left."""

from __future__ import annotations

import functools
import random
from collections import Counter

from .cards import Card, shuffle
from .hole import TEE_OFF, HoleState, _build
from .variants import RULEBOOK, get_variant


def _new_seed() -> int:
    # The operating system's entropy, so no global random state is touched.
    return random.SystemRandom().getrandbits(63)


def new_hole(
    variant: str,
    players: int,
    *,
    seed: int | str | None = None,
    deck: list[Card] | None = None,
    dealer: int = 0,
) -> HoleState:
    """Deal one hole: shuffle (unless `deck` is given, top card first), deal from dealer+1."""
    rules = get_variant(variant)
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError("The dealer must be one of the seats.")
    if seed is not None and type(seed) not in (int, str):
        raise ValueError("A seed is an int or a string.")
    full_deck = list(_deck(rules.key, players))
    if deck is not None:
        cards = list(deck)
        card_type = type(full_deck[0])
        if any(type(card) is not card_type for card in cards) or Counter(cards) != Counter(
            full_deck
        ):
            raise ValueError(f"The deck must hold exactly the {rules.name} cards.")
        seed = 0 if seed is None else seed
        rng = random.Random(seed)
    else:
        seed = _new_seed() if seed is None else seed
        rng = random.Random(seed)
        cards = full_deck
        shuffle(cards, rng)

    # One card at a time from the dealer's left: the seat `offset` places after the
    # dealer gets every `players`-th card from deck index `offset - 1`.
    dealt = rules.size * players
    layouts = [None] * players
    for offset in range(1, players + 1):
        layouts[(dealer + offset) % players] = tuple(cards[offset - 1 : dealt : players])
    discard = (cards[dealt],)
    hidden = (False,) * rules.size
    return _build(
        {
            "variant": rules.key,
            "players": players,
            "dealer": dealer,
            "seed": seed,
            "phase": TEE_OFF,
            "turn": None,
            "version": 0,
            "layouts": tuple(layouts),
            "face_up": (hidden,) * players,
            "draw_pile": tuple(cards[:dealt:-1]),
            "discard_pile": discard,
            "holding": None,
            "held": None,
            "held_from": None,
            "teed_off": (False,) * players,
            "drawn": (False,) * players,
            "finisher": None,
            "discarded": discard,
            "rng_state": rng.getstate(),
            "scores": None,
        }
    )


@functools.cache
def _deck(variant: str, players: int) -> tuple[Card, ...]:
    return tuple(RULEBOOK[variant].deck(players))

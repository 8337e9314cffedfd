"""A hole's full state as JSON-ready data, and back, exactly.

The server stores a snapshot so it can resume a hole without replaying its move
log; the random source's position travels along, so later refills of the draw
pile shuffle exactly as they would have.

The random source's state is 625 numbers, most of a snapshot's size, and until the
draw pile first runs out it is the one the deal left. Format 2 writes it as the name
of that state ("dealt", or "seeded" for a hole dealt from a given deck) while it is,
and afterwards packed into one string. Format 1 (the numbers as a list) is still read.
"""

from __future__ import annotations

import base64
import functools
import random
import struct
from typing import Any

from .hole import HoleState
from .variants import get_variant

FORMAT = 2
_READABLE = (1, FORMAT)
_STATE_BYTES = 625 * 4  # a Mersenne Twister's state: 624 words and a position


@functools.lru_cache(maxsize=256)  # about 25 KB each: the holes in play
def _rng_after(seed: int | str, shuffled: int | None) -> tuple:
    """The random source's state once seeded with `seed` and, unless None, after
    shuffling `shuffled` cards (a shuffle draws the same numbers whatever the cards)."""
    rng = random.Random(seed)
    if shuffled is not None:
        rng.shuffle(list(range(shuffled)))
    return rng.getstate()


@functools.cache
def _deck_size(variant: str, players: int) -> int:
    return len(get_variant(variant).deck(players))


def _rng_to_data(state: HoleState) -> Any:
    rng_state = state.rng_state
    if rng_state == _rng_after(state.seed, _deck_size(state.variant, state.players)):
        return "dealt"
    if rng_state == _rng_after(state.seed, None):
        return "seeded"
    version, internal, gauss = rng_state
    packed = struct.pack("<625I", *internal)
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


def _rng_from_data(data: dict[str, Any]) -> tuple:
    value = data["rng_state"]
    if data["format"] == 2:
        if value == "dealt":
            return _rng_after(data["seed"], _deck_size(data["variant"], data["players"]))
        if value == "seeded":
            return _rng_after(data["seed"], None)
        version, packed, gauss = value
        raw = base64.b64decode(packed, validate=True)
        if len(raw) != _STATE_BYTES:
            raise ValueError("The random source's state is 625 numbers.")
        return version, struct.unpack("<625I", raw), gauss
    version, internal, gauss = value
    return version, tuple(internal), gauss


def state_to_dict(state: HoleState) -> dict[str, Any]:
    """Every field of `state` as plain lists, ints, strings and None (hidden cards too)."""
    return {
        "format": FORMAT,
        "variant": state.variant,
        "players": state.players,
        "dealer": state.dealer,
        "seed": state.seed,
        "phase": state.phase,
        "turn": state.turn,
        "version": state.version,
        "layouts": [list(layout) for layout in state.layouts],
        "face_up": [list(face_up) for face_up in state.face_up],
        "draw_pile": list(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "holding": state.holding,
        "held": state.held,
        "held_from": state.held_from,
        "teed_off": list(state.teed_off),
        "drawn": list(state.drawn),
        "finisher": state.finisher,
        "discarded": list(state.discarded),
        "rng_state": _rng_to_data(state),
        "scores": list(state.scores) if state.scores is not None else None,
    }


def state_from_dict(data: dict[str, Any]) -> HoleState:
    """The state `state_to_dict` wrote (also after a JSON round trip); `ValueError` if not one."""
    if not isinstance(data, dict) or data.get("format") not in _READABLE:
        raise ValueError("Not a hole snapshot this engine can read.")
    try:
        get_variant(data["variant"])
        rng_state = _rng_from_data(data)
        return HoleState(
            variant=data["variant"],
            players=data["players"],
            dealer=data["dealer"],
            seed=data["seed"],
            phase=data["phase"],
            turn=data["turn"],
            version=data["version"],
            layouts=tuple(tuple(layout) for layout in data["layouts"]),
            face_up=tuple(tuple(face_up) for face_up in data["face_up"]),
            draw_pile=tuple(data["draw_pile"]),
            discard_pile=tuple(data["discard_pile"]),
            holding=data["holding"],
            held=data["held"],
            held_from=data["held_from"],
            teed_off=tuple(data["teed_off"]),
            drawn=tuple(data["drawn"]),
            finisher=data["finisher"],
            discarded=tuple(data["discarded"]),
            rng_state=rng_state,
            scores=list(data["scores"]) if data["scores"] is not None else None,
        )
    except (KeyError, TypeError, ValueError, struct.error) as error:
        raise ValueError(f"Not a hole snapshot this engine can read: {error}") from None

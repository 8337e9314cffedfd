"""A hole's full state as JSON-ready data, and back, exactly.

The server stores a snapshot so it can resume a hole without replaying its move
log; the random source's position travels along, so later refills of the draw
pile shuffle exactly as they would have.
"""

from __future__ import annotations

from typing import Any

from .hole import HoleState
from .variants import get_variant

FORMAT = 1


def state_to_dict(state: HoleState) -> dict[str, Any]:
    """Every field of `state` as plain lists, ints, strings and None (hidden cards too)."""
    version, internal, gauss = state.rng_state
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
        "rng_state": [version, list(internal), gauss],
        "scores": list(state.scores) if state.scores is not None else None,
    }


def state_from_dict(data: dict[str, Any]) -> HoleState:
    """The state `state_to_dict` wrote (also after a JSON round trip); `ValueError` if not one."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError("Not a hole snapshot this engine can read.")
    try:
        get_variant(data["variant"])
        version, internal, gauss = data["rng_state"]
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
            rng_state=(version, tuple(internal), gauss),
            scores=list(data["scores"]) if data["scores"] is not None else None,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"Not a hole snapshot this engine can read: {error}") from None

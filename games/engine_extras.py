"""The engine names live play needs, taken from the engine wherever it has them.

The rules engine is written alongside live play. Until it exports a name this module
offers a plain stand-in that decides no rule of its own: snapshots copy the state's
fields, the stand-in bot picks among `legal_actions`, the stand-in phrases say only
what every seat saw. Each stand-in gives way to the engine's name as soon as it lands.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from games import engine
from games.engine import match

HoleState = engine.HoleState
BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "expert")


def _state_to_dict(state: HoleState) -> dict[str, Any]:
    return {
        field.name: _jsonable(getattr(state, field.name)) for field in dataclasses.fields(state)
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(item) for item in value]
    return value


_TUPLE_FIELDS = {"layouts", "face_up", "draw_pile", "discard_pile", "teed_off", "drawn"}


def _state_from_dict(data: dict[str, Any]) -> HoleState:
    values = dict(data)
    for name in _TUPLE_FIELDS | {"discarded"}:
        values[name] = _tuples(values[name])
    version, internal, gauss = values["rng_state"]
    values["rng_state"] = (version, tuple(internal), gauss)
    return HoleState(**values)


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def _choose_action(state: HoleState, seat: int, level: str, rng: random.Random) -> dict:
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise ValueError("That seat has nothing to do.")
    return rng.choice(actions)


def _card(variant: str, card: Any) -> str:
    return engine.card_text(variant, card)


def _describe_action(before: HoleState, seat: int, action: dict, after: HoleState) -> str:
    kind = action.get("type")
    variant = before.variant
    if kind == "tee_off":
        shown = ", ".join(_card(variant, after.layouts[seat][p]) for p in action["positions"])
        return f"teed off, turning up {shown}"
    if kind == "draw":
        if action["source"] == "discard":
            return f"took the {_card(variant, after.held)} from the discard pile"
        return "drew from the draw pile"
    if kind == "replace":
        position = action["position"]
        old = after.discard_pile[-1] if after.discard_pile else None
        new = _card(variant, after.layouts[seat][position])
        if before.face_up[seat][position]:
            return f"replaced their {_card(variant, old)} with the {new}"
        return f"replaced a face-down card with the {new} (it was the {_card(variant, old)})"
    if kind == "flip":
        turned = _card(variant, after.layouts[seat][action["position"]])
        return f"discarded the {_card(variant, before.held)} and turned up a {turned}"
    if kind == "discard":
        return f"discarded the {_card(variant, before.held)}"
    if kind == "knock":
        return "knocked"
    if kind == "swap":
        return "rearranged two cards"
    return "moved"


def _dealer_for_hole(first_dealer: int, hole_index: int, players: int) -> int:
    return (first_dealer + hole_index) % players


def _choose_first_dealer(variant: str, players: int, seed: int) -> tuple[int, list]:
    return seed % players, []


def _playoff_players(variant: str, contenders: tuple[int, ...], players: int) -> tuple[int, ...]:
    return tuple(contenders)


state_to_dict = getattr(engine, "state_to_dict", _state_to_dict)
state_from_dict = getattr(engine, "state_from_dict", _state_from_dict)
describe_action = getattr(engine, "describe_action", _describe_action)
dealer_for_hole = getattr(match, "dealer_for_hole", _dealer_for_hole)
choose_first_dealer = getattr(match, "choose_first_dealer", _choose_first_dealer)
playoff_players = getattr(match, "playoff_players", _playoff_players)
HOLES: int = match.HOLES

try:
    from games.engine import bots as _bots
except ImportError:
    choose_action = _choose_action
else:
    BOT_LEVELS = _bots.BOT_LEVELS
    choose_action = _bots.choose_action

"""One hole: the tee off, the turns and the end, as a pure state machine (the deal is
in `deal.py`).

A `HoleState` is a value: `apply_action` never changes the state it is given but
returns a new one. The new state shares every part the action left alone (the
tuples of the untouched layouts, the piles when nobody drew) with the old one,
so an action costs a few small tuple copies rather than a copy of the whole hole.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from .cards import Card, shuffle
from .variants import RULEBOOK, ByVariant, Variant

TEE_OFF = "tee_off"
PLAY = "play"
FINAL_TURNS = "final_turns"
OVER = "over"

Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message is a sentence for the player."""


@dataclass(frozen=True)
class HoleState:
    """Everything about one hole in play. Piles are stacks: their top card is last."""

    variant: str
    players: int
    dealer: int
    seed: int | str
    phase: str
    turn: int | None
    version: int
    #: One tuple of cards per seat, row-major; face-down cards are in it too.
    layouts: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[bool, ...], ...]
    draw_pile: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    #: The seat holding a drawn card, the card, and where it came from ("pile"/"discard").
    holding: int | None
    held: Card | None
    held_from: str | None
    teed_off: tuple[bool, ...]
    #: Seats that have drawn at least once (rearranging stops at a seat's first draw).
    drawn: tuple[bool, ...]
    #: The seat that went out (or knocked) and so started the last turns.
    finisher: int | None
    #: Public record: every card laid face up on the discard pile this hole, in order,
    #: including those later shuffled into a new draw pile. Everyone saw them.
    discarded: tuple[Card, ...]
    #: `random.Random.getstate()` of the hole's own random source, for refills.
    rng_state: tuple = field(repr=False)
    scores: list[int] | None

    @property
    def rules(self) -> Variant:
        """The `Variant` this hole is played under."""
        return RULEBOOK[self.variant]


def _evolve(state: HoleState, changes: dict[str, Any]) -> HoleState:
    # Builds the successor without running the frozen dataclass's __init__: one
    # dict copy plus the changed fields. This is what keeps apply_action cheap.
    new = object.__new__(HoleState)
    attributes = new.__dict__
    attributes.update(state.__dict__)
    attributes.update(changes)
    return new


_new_state = object.__new__


def _successor(state: HoleState) -> tuple[HoleState, dict[str, Any]]:
    # A copy of `state` and its attribute dict, for a handler to change before the
    # state leaves it: the same as _evolve, without a dict of changes between.
    new = _new_state(HoleState)
    attributes = new.__dict__
    attributes.update(state.__dict__)
    return new, attributes


def _build(fields: dict[str, Any]) -> HoleState:
    # A new state from every field, as the dataclass's __init__ would set them.
    new = object.__new__(HoleState)
    new.__dict__.update(fields)
    return new


# Position sets are computed once per game: every tee off and every swap.
_TEE_OFFS: dict[str, list[tuple[int, ...]]] = ByVariant(
    lambda rules: list(combinations(range(rules.size), rules.opening_flips))
)
_PAIRS: dict[str, list[tuple[int, ...]]] = ByVariant(
    lambda rules: list(combinations(range(rules.size), 2))
)


def _seated(state: HoleState, seat: object) -> bool:
    return type(seat) is int and 0 <= seat < state.players


def legal_actions(state: HoleState, seat: int) -> list[Action]:
    """Every action `seat` may take now; empty when none, or when it is not at the table."""
    if type(seat) is not int or not 0 <= seat < state.players:
        return []
    phase = state.phase
    if phase == TEE_OFF:
        if not state.teed_off[seat]:
            return [
                {"type": "tee_off", "positions": [*positions]}
                for positions in _TEE_OFFS[state.variant]
            ]
        if RULEBOOK[state.variant].can_swap:
            return _swaps(state.variant)
        return []
    if phase == OVER or state.turn != seat:
        return []
    if state.holding is None:
        rules = RULEBOOK[state.variant]
        actions: list[Action] = []
        if state.draw_pile:
            actions.append({"type": "draw", "source": "pile"})
        if state.discard_pile:
            actions.append({"type": "draw", "source": "discard"})
        if phase == PLAY and rules.may_knock(state.drawn):
            actions.append({"type": "knock"})
        if rules.can_swap and not state.drawn[seat]:
            actions.extend(_swaps(state.variant))
        return actions
    # Holding a card: the choices depend only on the game, where the card came from
    # and which of the seat's cards are face up, so each such list is made once and
    # handed out as fresh copies the caller may change.
    from_pile = state.held_from == "pile"
    return list(map(dict.copy, _HOLDING[state.variant][from_pile][state.face_up[seat]]))


def holding_actions(variant: str, from_pile: bool, face_up: tuple[bool, ...]) -> tuple[Action, ...]:
    """The uses of a drawn card, by where it came from and which cards are face up:
    those `legal_actions` copies out. Made once and shared: copy one before changing it.
    """
    return _HOLDING[variant][from_pile][face_up]


class _HoldingActions(dict):
    """The actions of a seat holding a card, by its face-up flags, made when first asked."""

    def __init__(self, rules: Variant, from_pile: bool) -> None:
        super().__init__()
        self.rules = rules
        self.from_pile = from_pile

    def __missing__(self, face_up: tuple[bool, ...]) -> tuple[Action, ...]:
        rules = self.rules
        actions = [{"type": "replace", "position": position} for position in range(rules.size)]
        if self.from_pile:
            if rules.can_flip:
                actions.extend(
                    {"type": "flip", "position": position}
                    for position, up in enumerate(face_up)
                    if not up
                )
            if rules.may_discard(face_up.count(False)):
                actions.append({"type": "discard"})
        self[face_up] = made = tuple(actions)
        return made


_HOLDING = ByVariant(
    lambda rules: {from_pile: _HoldingActions(rules, from_pile) for from_pile in (True, False)}
)


def _swaps(variant: str) -> list[Action]:
    return [{"type": "swap", "positions": list(pair)} for pair in _PAIRS[variant]]


# --- applying an action -------------------------------------------------------------

_FIELDS = {
    "tee_off": frozenset({"type", "positions"}),
    "draw": frozenset({"type", "source"}),
    "replace": frozenset({"type", "position"}),
    "flip": frozenset({"type", "position"}),
    "discard": frozenset({"type"}),
    "knock": frozenset({"type"}),
    "swap": frozenset({"type", "positions"}),
}
_NAMES = {"positions": "the positions", "source": "a source", "position": "a position"}
_SIZES = ByVariant(lambda rules: rules.size)


def apply_action(state: HoleState, seat: int, action: Action) -> HoleState:
    """Apply one action of `seat` and return the new state; `IllegalAction` if not allowed."""
    if type(seat) is not int or not 0 <= seat < state.players:
        raise IllegalAction("You are not seated at this table.")
    if state.phase == OVER:
        raise IllegalAction("The hole is over.")
    if type(action) is not dict:
        raise IllegalAction("That is not a move.")
    kind = action.get("type")
    entry = _KINDS.get(kind) if type(kind) is str else None
    if entry is None:
        raise IllegalAction("That is not a move of this game.")
    # "type" is there, so the keys are the move's fields when the count and the
    # move's other field (if it has one) are right.
    count, other, handler = entry
    if len(action) != count or (other is not None and other not in action):
        fields = _FIELDS[kind]
        missing = sorted(fields - action.keys())
        if missing:
            raise IllegalAction(f"This move needs {_NAMES[missing[0]]}.")
        extra = sorted(str(key) for key in action.keys() - fields)
        raise IllegalAction(f"This move does not take {extra[0]!r}.")
    return handler(state, seat, action)


def _position(variant: str, value: object) -> int:
    if type(value) is not int:
        raise IllegalAction("A position is a whole number.")
    size = _SIZES[variant]
    if not 0 <= value < size:
        raise IllegalAction(f"There is no position {value}; positions run 0 to {size - 1}.")
    return value


def _positions(variant: str, value: object, count: int) -> tuple[int, ...]:
    if type(value) is not list:
        raise IllegalAction("Positions come as a list.")
    if len(value) != count:
        raise IllegalAction(f"Choose exactly {count} cards.")
    positions = tuple(sorted(_position(variant, item) for item in value))
    if len(set(positions)) != count:
        raise IllegalAction("Choose different cards, not the same one twice.")
    return positions


def _my_turn(state: HoleState, seat: int) -> None:
    if state.phase == TEE_OFF:
        raise IllegalAction("Everyone tees off before the first draw.")
    if state.turn != seat:
        raise IllegalAction("It is not your turn.")


def _holding(state: HoleState, seat: int) -> None:
    _my_turn(state, seat)
    if state.holding != seat:
        raise IllegalAction("Take a card first.")


# The handlers of the actions played on every turn (draw, replace, flip) check the
# common case inline and call the helpers above only to word a refusal.


def _tee_off(state: HoleState, seat: int, action: Action) -> HoleState:
    positions = _positions(
        state.variant, action["positions"], RULEBOOK[state.variant].opening_flips
    )
    if state.phase != TEE_OFF:
        raise IllegalAction("Tee off is over.")
    if state.teed_off[seat]:
        raise IllegalAction("You already teed off.")
    up = list(state.face_up[seat])
    for position in positions:
        up[position] = True
    teed_off = _set(state.teed_off, seat, True)
    new, changes = _successor(state)
    changes["face_up"] = _set(state.face_up, seat, tuple(up))
    changes["teed_off"] = teed_off
    changes["version"] = state.version + 1
    if False not in teed_off:
        changes["phase"] = PLAY
        changes["turn"] = (state.dealer + 1) % state.players
    return new


def _draw(state: HoleState, seat: int, action: Action) -> HoleState:
    source = action["source"]
    if type(source) is not str or source not in ("pile", "discard"):
        raise IllegalAction('Draw from the "pile" or from the "discard" pile.')
    if state.turn != seat or state.phase == TEE_OFF:
        _my_turn(state, seat)
    if state.holding is not None:
        raise IllegalAction("You already drew a card.")
    new = _new_state(HoleState)
    changes = new.__dict__
    if source == "pile":
        pile = state.draw_pile
        if not pile:
            raise IllegalAction("The draw pile is empty.")
        changes.update(state.__dict__)
        changes["held"] = pile[-1]
        if len(pile) > 1:
            changes["draw_pile"] = pile[:-1]
        else:
            # Decision: the draw that empties the pile shuffles the discard pile, all
            # but its top card, into a new draw pile with the hole's own random source.
            rng = random.Random(0)
            rng.setstate(state.rng_state)
            refill = list(state.discard_pile[:-1])
            shuffle(refill, rng)
            changes["draw_pile"] = tuple(refill)
            changes["discard_pile"] = state.discard_pile[-1:]
            changes["rng_state"] = rng.getstate()
    else:
        pile = state.discard_pile
        if not pile:
            raise IllegalAction("The discard pile is empty.")
        changes.update(state.__dict__)
        changes["held"] = pile[-1]
        changes["discard_pile"] = pile[:-1]
    changes["holding"] = seat
    changes["held_from"] = source
    changes["version"] = state.version + 1
    drawn = state.drawn
    if not drawn[seat]:
        changes["drawn"] = _set(drawn, seat, True)
    return new


def _replace(state: HoleState, seat: int, action: Action) -> HoleState:
    position = action["position"]
    if type(position) is not int or not 0 <= position < _SIZES[state.variant]:
        _position(state.variant, position)
    if state.holding != seat or state.turn != seat or state.phase == TEE_OFF:
        _holding(state, seat)
    new = _new_state(HoleState)
    changes = new.__dict__
    changes.update(state.__dict__)
    layouts = list(state.layouts)
    layout = list(layouts[seat])
    old = layout[position]
    layout[position] = state.held
    layouts[seat] = tuple(layout)
    changes["layouts"] = tuple(layouts)
    up = state.face_up[seat]
    if not up[position]:
        face_up = list(state.face_up)
        flags = list(up)
        flags[position] = True
        face_up[seat] = up = tuple(flags)
        changes["face_up"] = tuple(face_up)
    return _end_turn(state, seat, new, old, up)


def _flip(state: HoleState, seat: int, action: Action) -> HoleState:
    position = action["position"]
    if type(position) is not int or not 0 <= position < _SIZES[state.variant]:
        _position(state.variant, position)
    rules = RULEBOOK[state.variant]
    if not rules.can_flip:
        raise IllegalAction(f"{rules.name} has no flip: replace a card or discard.")
    if state.holding != seat or state.turn != seat or state.phase == TEE_OFF:
        _holding(state, seat)
    if state.held_from == "discard":
        raise IllegalAction("A card from the discard pile must replace one of yours.")
    up = state.face_up[seat]
    if up[position]:
        raise IllegalAction("That card is already face up.")
    new, changes = _successor(state)
    up = _set(up, position, True)
    changes["face_up"] = _set(state.face_up, seat, up)
    return _end_turn(state, seat, new, state.held, up)


def _discard(state: HoleState, seat: int, action: Action) -> HoleState:
    _holding(state, seat)
    if state.held_from == "discard":
        raise IllegalAction("A card from the discard pile must replace one of yours.")
    rules = RULEBOOK[state.variant]
    up = state.face_up[seat]
    if not rules.may_discard(up.count(False)):
        if rules.can_skip:
            raise IllegalAction("You may skip only when exactly one of your cards is face down.")
        raise IllegalAction(f"{rules.name} has no plain discard: use the card.")
    new, _ = _successor(state)
    return _end_turn(state, seat, new, state.held, up)


def _knock(state: HoleState, seat: int, action: Action) -> HoleState:
    rules = RULEBOOK[state.variant]
    if not rules.can_knock:
        raise IllegalAction(f"There is no knocking in {rules.name}.")
    _my_turn(state, seat)
    if state.holding is not None:
        raise IllegalAction("Knock at the start of your turn, before you draw.")
    if state.phase != PLAY:
        raise IllegalAction("Someone has already knocked.")
    if not rules.may_knock(state.drawn):
        raise IllegalAction("Nobody knocks until everyone has taken a turn.")
    new, changes = _successor(state)
    changes["phase"] = FINAL_TURNS
    changes["finisher"] = seat
    changes["turn"] = (seat + 1) % state.players
    changes["version"] = state.version + 1
    return new


def _swap(state: HoleState, seat: int, action: Action) -> HoleState:
    first, second = _positions(state.variant, action["positions"], 2)
    rules = RULEBOOK[state.variant]
    if not rules.can_swap:
        raise IllegalAction(f"There is no rearranging in {rules.name}.")
    if state.phase == TEE_OFF:
        if not state.teed_off[seat]:
            raise IllegalAction("Tee off first, then rearrange.")
    else:
        if state.turn != seat:
            raise IllegalAction("It is not your turn.")
        if state.drawn[seat]:
            raise IllegalAction("You can rearrange only before your first draw.")
    layout = list(state.layouts[seat])
    up = list(state.face_up[seat])
    layout[first], layout[second] = layout[second], layout[first]
    up[first], up[second] = up[second], up[first]
    new, changes = _successor(state)
    changes["layouts"] = _set(state.layouts, seat, tuple(layout))
    changes["face_up"] = _set(state.face_up, seat, tuple(up))
    changes["version"] = state.version + 1
    return new


def _end_turn(
    state: HoleState, seat: int, new: HoleState, discard: Card, up: tuple[bool, ...]
) -> HoleState:
    """Lay `discard` on the discard pile, then pass the turn or end the hole: `new` is
    the successor so far and `up` the seat's face-up flags after the action."""
    changes = new.__dict__
    changes["discard_pile"] = state.discard_pile + (discard,)
    changes["discarded"] = state.discarded + (discard,)
    changes["holding"] = None
    changes["held"] = None
    changes["held_from"] = None
    changes["version"] = state.version + 1
    phase = state.phase
    finisher = state.finisher
    if False not in up:
        rules = RULEBOOK[state.variant]
        if rules.ends_at_once:
            return _finish(new)
        if rules.last_turns_after_out and phase == PLAY:
            phase = changes["phase"] = FINAL_TURNS
            finisher = changes["finisher"] = seat
    following = seat + 1
    if following == state.players:
        following = 0
    if phase == FINAL_TURNS and following == finisher:
        return _finish(new)
    changes["turn"] = following
    return new


def _finish(state: HoleState) -> HoleState:
    """Turn every card up and score the hole."""
    every = (True,) * len(state.face_up[0])
    return _evolve(
        state,
        {
            "phase": OVER,
            "turn": None,
            "face_up": (every,) * state.players,
            "scores": [state.rules.score(layout) for layout in state.layouts],
        },
    )


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


_HANDLERS = {
    "tee_off": _tee_off,
    "draw": _draw,
    "replace": _replace,
    "flip": _flip,
    "discard": _discard,
    "knock": _knock,
    "swap": _swap,
}
# Each move's field count, its field beside "type" (or None), and its handler.
_KINDS = {
    kind: (len(fields), next(iter(fields - {"type"}), None), _HANDLERS[kind])
    for kind, fields in _FIELDS.items()
}


# --- seeing ---------------------------------------------------------------------------


def view(state: HoleState, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) may know, JSON-ready; face-down cards are None."""
    if seat is not None and not _seated(state, seat):
        raise ValueError("That seat is not at this table.")
    layouts = [
        [card if up else None for card, up in zip(layout, face_up, strict=True)]
        for layout, face_up in zip(state.layouts, state.face_up, strict=True)
    ]
    held = state.held
    if held is not None and state.held_from != "discard" and seat != state.holding:
        held = None
    return {
        "variant": state.variant,
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "turn": state.turn,
        "version": state.version,
        "dealer": state.dealer,
        "layouts": layouts,
        "discard_top": state.discard_pile[-1] if state.discard_pile else None,
        "discard_pile": list(state.discard_pile),
        "discarded": list(state.discarded),
        "draw_count": len(state.draw_pile),
        "holding": state.holding,
        "held": held,
        "held_from": state.held_from,
        "teed_off": list(state.teed_off),
        "drawn": list(state.drawn),
        "finisher": state.finisher,
        "scores": list(state.scores) if state.scores is not None else None,
    }

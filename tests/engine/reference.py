"""A naive engine with the same rules: a mutable state copied whole before every action.

It is the yardstick of the engine benchmark and the reference the property tests
hold the real engine to, action by action. It is written plainly, as a first
engine would be: `apply_action` copies every list of the state (the layouts, the
piles, the flags), then changes the copy in place. The random source's state is
an immutable tuple, so the copy shares it as Python would any immutable value.
Illegal actions raise the engine's own `IllegalAction` with the same messages,
and the hole's end is scored with the engine's `score_layout`.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, fields
from itertools import combinations
from typing import Any

from games.engine import VARIANTS, IllegalAction, score_layout
from games.engine.hole import FINAL_TURNS, OVER, PLAY, TEE_OFF


@dataclass
class NaiveState:
    """The same fields as the engine's `HoleState`, in lists that actions change."""

    variant: str
    players: int
    dealer: int
    seed: int | str
    phase: str
    turn: int | None
    version: int
    layouts: list[list]
    face_up: list[list[bool]]
    draw_pile: list
    discard_pile: list
    holding: int | None
    held: Any
    held_from: str | None
    teed_off: list[bool]
    drawn: list[bool]
    finisher: int | None
    discarded: list
    rng_state: tuple
    scores: list[int] | None

    def copy(self) -> NaiveState:
        """The whole state, every list copied."""
        return NaiveState(
            variant=self.variant,
            players=self.players,
            dealer=self.dealer,
            seed=self.seed,
            phase=self.phase,
            turn=self.turn,
            version=self.version,
            layouts=[list(layout) for layout in self.layouts],
            face_up=[list(up) for up in self.face_up],
            draw_pile=list(self.draw_pile),
            discard_pile=list(self.discard_pile),
            holding=self.holding,
            held=self.held,
            held_from=self.held_from,
            teed_off=list(self.teed_off),
            drawn=list(self.drawn),
            finisher=self.finisher,
            discarded=list(self.discarded),
            rng_state=self.rng_state,
            scores=None if self.scores is None else list(self.scores),
        )


def as_values(state) -> dict[str, Any]:
    """Any state's fields as plain values (tuples as lists), to compare the two engines."""
    return {
        item.name: _plain(getattr(state, item.name))
        for item in fields(NaiveState)
        if item.name != "rng_state"
    } | {"rng_state": state.rng_state}


def _plain(value):
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


def new_hole(variant, players, *, seed=None, deck=None, dealer=0) -> NaiveState:
    """The engine's deal; a seed must be given (the engine picks one where it is not)."""
    rules = VARIANTS[variant]
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise ValueError("The dealer must be one of the seats.")
    if deck is not None:
        cards = list(deck)
        assert Counter(cards) == Counter(rules.deck(players))
        seed = 0 if seed is None else seed
        rng = random.Random(seed)
    else:
        assert seed is not None
        rng = random.Random(seed)
        cards = rules.deck(players)
        rng.shuffle(cards)
    layouts = [[] for _ in range(players)]
    index = 0
    for _ in range(rules.size):
        for offset in range(1, players + 1):
            layouts[(dealer + offset) % players].append(cards[index])
            index += 1
    return NaiveState(
        variant=variant,
        players=players,
        dealer=dealer,
        seed=seed,
        phase=TEE_OFF,
        turn=None,
        version=0,
        layouts=layouts,
        face_up=[[False] * rules.size for _ in range(players)],
        draw_pile=list(reversed(cards[index + 1 :])),
        discard_pile=[cards[index]],
        holding=None,
        held=None,
        held_from=None,
        teed_off=[False] * players,
        drawn=[False] * players,
        finisher=None,
        discarded=[cards[index]],
        rng_state=rng.getstate(),
        scores=None,
    )


_TEE_OFFS = {
    key: list(combinations(range(rules.size), rules.opening_flips))
    for key, rules in VARIANTS.items()
}
_PAIRS = {key: list(combinations(range(rules.size), 2)) for key, rules in VARIANTS.items()}


def _seated(state: NaiveState, seat) -> bool:
    return type(seat) is int and 0 <= seat < state.players


def legal_actions(state: NaiveState, seat) -> list[dict]:
    """Every action `seat` may take now, in the engine's order."""
    if not _seated(state, seat) or state.phase == OVER:
        return []
    rules = VARIANTS[state.variant]
    if state.phase == TEE_OFF:
        if not state.teed_off[seat]:
            return [
                {"type": "tee_off", "positions": list(positions)}
                for positions in _TEE_OFFS[state.variant]
            ]
        return _swaps(state.variant) if rules.can_swap else []
    if state.turn != seat:
        return []
    if state.holding is None:
        actions = []
        if state.draw_pile:
            actions.append({"type": "draw", "source": "pile"})
        if state.discard_pile:
            actions.append({"type": "draw", "source": "discard"})
        if rules.can_knock and state.phase == PLAY:
            actions.append({"type": "knock"})
        if rules.can_swap and not state.drawn[seat]:
            actions.extend(_swaps(state.variant))
        return actions
    actions = [{"type": "replace", "position": position} for position in range(rules.size)]
    if state.held_from == "pile":
        up = state.face_up[seat]
        if rules.can_flip:
            actions.extend(
                {"type": "flip", "position": position}
                for position in range(rules.size)
                if not up[position]
            )
        if rules.may_discard(up.count(False)):
            actions.append({"type": "discard"})
    return actions


def _swaps(variant: str) -> list[dict]:
    return [{"type": "swap", "positions": list(pair)} for pair in _PAIRS[variant]]


_FIELDS = {
    "tee_off": {"type", "positions"},
    "draw": {"type", "source"},
    "replace": {"type", "position"},
    "flip": {"type", "position"},
    "discard": {"type"},
    "knock": {"type"},
    "swap": {"type", "positions"},
}
_NAMES = {"positions": "the positions", "source": "a source", "position": "a position"}


def apply_action(state: NaiveState, seat, action) -> NaiveState:
    """A copy of the whole state with `action` applied; `IllegalAction` if not allowed."""
    if not _seated(state, seat):
        raise IllegalAction("You are not seated at this table.")
    if state.phase == OVER:
        raise IllegalAction("The hole is over.")
    if type(action) is not dict:
        raise IllegalAction("That is not a move.")
    kind = action.get("type")
    wanted = _FIELDS.get(kind) if type(kind) is str else None
    if wanted is None:
        raise IllegalAction("That is not a move of this game.")
    if set(action) != wanted:
        missing = sorted(wanted - set(action))
        if missing:
            raise IllegalAction(f"This move needs {_NAMES[missing[0]]}.")
        extra = sorted(str(key) for key in set(action) - wanted)
        raise IllegalAction(f"This move does not take {extra[0]!r}.")
    rules = VARIANTS[state.variant]
    new = state.copy()
    getattr(_Rules, kind)(new, seat, action, rules)
    return new


def _position(rules, value) -> int:
    if type(value) is not int:
        raise IllegalAction("A position is a whole number.")
    if not 0 <= value < rules.size:
        raise IllegalAction(f"There is no position {value}; positions run 0 to {rules.size - 1}.")
    return value


def _positions(rules, value, count: int) -> list[int]:
    if type(value) is not list:
        raise IllegalAction("Positions come as a list.")
    if len(value) != count:
        raise IllegalAction(f"Choose exactly {count} cards.")
    positions = sorted(_position(rules, item) for item in value)
    if len(set(positions)) != count:
        raise IllegalAction("Choose different cards, not the same one twice.")
    return positions


def _my_turn(state: NaiveState, seat: int) -> None:
    if state.phase == TEE_OFF:
        raise IllegalAction("Everyone tees off before the first draw.")
    if state.turn != seat:
        raise IllegalAction("It is not your turn.")


def _holding(state: NaiveState, seat: int) -> None:
    _my_turn(state, seat)
    if state.holding != seat:
        raise IllegalAction("Take a card first.")


class _Rules:
    """One function per action, each changing the copied state in place."""

    @staticmethod
    def tee_off(state, seat, action, rules):
        positions = _positions(rules, action["positions"], rules.opening_flips)
        if state.phase != TEE_OFF:
            raise IllegalAction("Tee off is over.")
        if state.teed_off[seat]:
            raise IllegalAction("You already teed off.")
        for position in positions:
            state.face_up[seat][position] = True
        state.teed_off[seat] = True
        state.version += 1
        if all(state.teed_off):
            state.phase = PLAY
            state.turn = (state.dealer + 1) % state.players

    @staticmethod
    def draw(state, seat, action, rules):
        source = action["source"]
        if type(source) is not str or source not in ("pile", "discard"):
            raise IllegalAction('Draw from the "pile" or from the "discard" pile.')
        _my_turn(state, seat)
        if state.holding is not None:
            raise IllegalAction("You already drew a card.")
        pile = state.discard_pile if source == "discard" else state.draw_pile
        if not pile:
            name = "discard" if source == "discard" else "draw"
            raise IllegalAction(f"The {name} pile is empty.")
        state.holding = seat
        state.held_from = source
        state.version += 1
        state.drawn[seat] = True
        state.held = pile.pop()
        if source == "pile" and not state.draw_pile:
            rng = random.Random(0)
            rng.setstate(state.rng_state)
            refill = state.discard_pile[:-1]
            rng.shuffle(refill)
            state.draw_pile = refill
            state.discard_pile = state.discard_pile[-1:]
            state.rng_state = rng.getstate()

    @staticmethod
    def replace(state, seat, action, rules):
        position = _position(rules, action["position"])
        _holding(state, seat)
        old = state.layouts[seat][position]
        state.layouts[seat][position] = state.held
        state.face_up[seat][position] = True
        _end_turn(state, seat, old, rules)

    @staticmethod
    def flip(state, seat, action, rules):
        position = _position(rules, action["position"])
        if not rules.can_flip:
            raise IllegalAction(f"{rules.name} has no flip: replace a card or discard.")
        _holding(state, seat)
        if state.held_from == "discard":
            raise IllegalAction("A card from the discard pile must replace one of yours.")
        if state.face_up[seat][position]:
            raise IllegalAction("That card is already face up.")
        state.face_up[seat][position] = True
        _end_turn(state, seat, state.held, rules)

    @staticmethod
    def discard(state, seat, action, rules):
        _holding(state, seat)
        if state.held_from == "discard":
            raise IllegalAction("A card from the discard pile must replace one of yours.")
        if not rules.may_discard(state.face_up[seat].count(False)):
            if rules.can_skip:
                raise IllegalAction(
                    "You may skip only when exactly one of your cards is face down."
                )
            raise IllegalAction(f"{rules.name} has no plain discard: use the card.")
        _end_turn(state, seat, state.held, rules)

    @staticmethod
    def knock(state, seat, action, rules):
        if not rules.can_knock:
            raise IllegalAction(f"There is no knocking in {rules.name}.")
        _my_turn(state, seat)
        if state.holding is not None:
            raise IllegalAction("Knock at the start of your turn, before you draw.")
        if state.phase != PLAY:
            raise IllegalAction("Someone has already knocked.")
        state.phase = FINAL_TURNS
        state.finisher = seat
        state.turn = (seat + 1) % state.players
        state.version += 1

    @staticmethod
    def swap(state, seat, action, rules):
        first, second = _positions(rules, action["positions"], 2)
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
        for items in (state.layouts[seat], state.face_up[seat]):
            items[first], items[second] = items[second], items[first]
        state.version += 1


def _end_turn(state: NaiveState, seat: int, discard, rules) -> None:
    state.discard_pile.append(discard)
    state.discarded.append(discard)
    state.holding = state.held = state.held_from = None
    state.version += 1
    if all(state.face_up[seat]):
        if rules.ends_at_once:
            _finish(state)
            return
        if rules.last_turns_after_out and state.phase == PLAY:
            state.phase = FINAL_TURNS
            state.finisher = seat
    following = (seat + 1) % state.players
    if state.phase == FINAL_TURNS and following == state.finisher:
        _finish(state)
        return
    state.turn = following


def _finish(state: NaiveState) -> None:
    state.phase = OVER
    state.turn = None
    state.face_up = [[True] * len(up) for up in state.face_up]
    state.scores = [score_layout(state.variant, layout) for layout in state.layouts]

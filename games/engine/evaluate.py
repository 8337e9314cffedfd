"""What a decision is worth: expected strokes of the hole, judged from one seat's view.

The evaluator never reads a face-down card or the draw pile's order. It rebuilds the
hole from `view(state, seat)` alone, deals the cards that seat cannot see at random
among the places it cannot see (face-down cards, a card another seat drew blind, the
draw pile), applies the candidate action and plays the hole out with a fast bot for
every seat. The mean of the seat's strokes over a few such samples is the action's
worth. Every action is judged on the same samples, so their differences are not
drowned by the luck of the deal; the same view and seed always give the same figures.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from .bots import choose_action
from .hole import OVER, TEE_OFF, Action, HoleState, _build, apply_action, legal_actions, view
from .variants import RULEBOOK

#: Playouts per action, unless asked otherwise.
SAMPLES = 16
#: The bot that plays every seat after the action under judgement.
PLAYOUT_LEVEL = "greedy"
#: A playout stops after this many actions (the bots end a hole long before).
MAX_PLAYOUT_ACTIONS = 2000
#: A review judges the played and the best action again on this many times the deals,
#: fresh ones (`review_seat`).
RECHECK = 4
#: Sets the fresh deals' seed apart from the first ones'.
RECHECK_SEED = 1 << 40
#: A played action costs strokes only when it is worse than the best by more than this
#: many standard errors on the fresh deals; within them it is as good as any found.
CLEARLY = 2


@dataclass(frozen=True)
class Judgement:
    """An action and the strokes it is reckoned to cost its seat, on average."""

    action: Action
    strokes: float


def determinize(seen: dict[str, Any], rng: random.Random) -> HoleState:
    """A whole hole consistent with a seat's view: the unseen cards dealt at random.

    The unseen cards are the deck less every card in sight; they are shuffled (from a
    canonical order, so only `rng` decides) into the face-down places of every layout,
    a blind-drawn card in another seat's hand, and the draw pile.
    """
    rules = RULEBOOK[seen["variant"]]
    players = seen["players"]
    unseen = Counter(rules.deck(players))
    for layout in seen["layouts"]:
        unseen.subtract(card for card in layout if card is not None)
    unseen.subtract(seen["discard_pile"])
    holding = seen["holding"]
    if seen["held"] is not None:
        unseen.subtract([seen["held"]])
    cards = sorted(unseen.elements())
    rng.shuffle(cards)
    layouts = []
    for layout in seen["layouts"]:
        layouts.append(tuple(card if card is not None else cards.pop() for card in layout))
    held = seen["held"]
    if holding is not None and held is None:
        held = cards.pop()
    if len(cards) != seen["draw_count"]:
        raise ValueError("The view does not add up to the variant's deck.")
    return _build(
        {
            "variant": seen["variant"],
            "players": players,
            "dealer": seen["dealer"],
            "seed": 0,
            "phase": seen["phase"],
            "turn": seen["turn"],
            "version": seen["version"],
            "layouts": tuple(layouts),
            "face_up": tuple(
                tuple(card is not None for card in layout) for layout in seen["layouts"]
            ),
            "draw_pile": tuple(cards),
            "discard_pile": tuple(seen["discard_pile"]),
            "holding": holding,
            "held": held,
            "held_from": seen["held_from"],
            "teed_off": tuple(seen["teed_off"]),
            "drawn": tuple(seen["drawn"]),
            "finisher": seen["finisher"],
            "discarded": tuple(seen["discarded"]),
            "rng_state": random.Random(rng.getrandbits(63)).getstate(),
            "scores": None,
        }
    )


def play_out(state: HoleState, rng: random.Random, level: str = PLAYOUT_LEVEL) -> HoleState:
    """The hole played to its end by bots of `level` in every seat."""
    for _ in range(MAX_PLAYOUT_ACTIONS):
        if state.phase == OVER:
            return state
        # At the tee off, the next seat yet to tee off: one that has may rearrange
        # (three decks) as often as it likes, and would keep the hole from going on.
        seat = state.teed_off.index(False) if state.phase == TEE_OFF else state.turn
        state = apply_action(state, seat, choose_action(state, seat, level, rng))
    raise RuntimeError("A playout did not end.")


def evaluate_actions(
    state: HoleState,
    seat: int,
    actions: Sequence[Action] | None = None,
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    level: str = PLAYOUT_LEVEL,
) -> list[Judgement]:
    """Each action's expected strokes of the hole for `seat`, judged from its view only.

    `actions` defaults to every legal action of the seat. The cost is bounded:
    `samples` playouts per action, each at most `MAX_PLAYOUT_ACTIONS` long.
    """
    if actions is None:
        actions = legal_actions(state, seat)
    if not actions:
        return []
    legal = legal_actions(state, seat)
    for action in actions:
        if action not in legal:
            raise ValueError("Only a legal action can be judged.")
    by_deal = _strokes_by_deal(state, seat, actions, samples, seed, level)
    return [
        Judgement(action, sum(strokes) / samples)
        for action, strokes in zip(actions, by_deal, strict=True)
    ]


def _strokes_by_deal(
    state: HoleState, seat: int, actions: Sequence[Action], samples: int, seed: int, level: str
) -> list[list[int]]:
    """Per action, the seat's strokes on each of the `samples` dealt holes, in order."""
    seen = view(state, seat)
    strokes: list[list[int]] = [[] for _ in actions]
    rng = random.Random(seed)
    for _ in range(samples):
        world = determinize(seen, random.Random(rng.getrandbits(63)))
        bots_seed = rng.getrandbits(63)
        for index, action in enumerate(actions):
            after = apply_action(world, seat, action)
            end = play_out(after, random.Random(bots_seed), level)
            strokes[index].append(end.scores[seat])
    return strokes


def _clearly_worse(played: Sequence[int], best: Sequence[int]) -> bool:
    """Whether `played` took more strokes than `best` on the same deals by more than
    their difference's noise: its mean beyond two standard errors."""
    differences = [p - b for p, b in zip(played, best, strict=True)]
    mean = statistics.fmean(differences)
    if len(differences) < 2:
        return mean > 0
    return mean > CLEARLY * statistics.stdev(differences) / math.sqrt(len(differences))


def best_action(judgements: Sequence[Judgement]) -> Judgement:
    """The judgement with the fewest expected strokes (the first such, on a tie)."""
    return min(judgements, key=lambda judgement: judgement.strokes)


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: what it played and the best action, judged alike."""

    #: The hole's version when the decision was made (its index among the actions).
    version: int
    played: Judgement
    best: Judgement

    @property
    def cost(self) -> float:
        """Strokes the played action is reckoned to give away against the best (>= 0)."""
        return max(0.0, self.played.strokes - self.best.strokes)


def _normal(action: Action) -> Action:
    if "positions" in action:
        return {**action, "positions": sorted(action["positions"])}
    return action


def review_seat(
    start: HoleState,
    moves: Sequence[tuple[int, Action]],
    seat: int,
    *,
    samples: int = SAMPLES,
    seed: int = 0,
    level: str = PLAYOUT_LEVEL,
    skip: Collection[int] = (),
    recheck: int = RECHECK,
) -> list[Decision]:
    """Every decision `seat` made in a hole, each judged from its view at that moment.

    `moves` are the hole's actions from `start` as (seat, action). A move with one
    legal action was no decision and is left out, as are the moves whose indexes are in
    `skip` (a bot played them for the seat). Each decision's judgement is seeded by
    `seed` and its version, so a review is the same however often it is made.

    The best action is the lowest of many noisy figures, so its own figure is low by
    luck (the more actions, the lower): measured against it, even a strong bot's play
    seemed to give away a stroke a decision. So the best is only chosen on the first
    deals; the played action and the best are then judged again on `recheck` times as
    many fresh deals, and the decision's figures are those.
    """
    decisions = []
    state = start
    for index, (mover, action) in enumerate(moves):
        if mover == seat and index not in skip:
            legal = legal_actions(state, seat)
            if len(legal) > 1:
                judged = evaluate_actions(
                    state,
                    seat,
                    legal,
                    samples=samples,
                    seed=seed * 1000 + state.version,
                    level=level,
                )
                played = next(j for j in judged if j.action == _normal(action))
                best = best_action(judged)
                if best.action != played.action:
                    again = _strokes_by_deal(
                        state,
                        seat,
                        [played.action, best.action],
                        samples * recheck,
                        seed * 1000 + state.version + RECHECK_SEED,
                        level,
                    )
                    played, best = (
                        Judgement(j.action, statistics.fmean(strokes))
                        for j, strokes in zip((played, best), again, strict=True)
                    )
                    if not _clearly_worse(*again):
                        # No play found is surely better than the one played.
                        best = played
                decisions.append(Decision(state.version, played, best))
        state = apply_action(state, mover, action)
    return decisions

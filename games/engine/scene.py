"""What a seat knows, as the bots reckon it: the public facts of a decision (`Scene`),
the unseen cards as a pool (`Pool`: the deck less every card in sight), and a
layout's expected strokes under that pool (`Estimator`), scored by the variant's own
scoring so that a bot's judgement and the score at the hole's end cannot drift apart.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .cards import Card
from .variants import RULEBOOK, Variant


@dataclass
class Pool:
    """The unseen cards as a seat reckons them: count per rank, their number and mean value."""

    counts: dict[Any, int]
    size: int
    mean: float
    #: The estimator built on this pool, kept so a decision's look-ahead reuses its sums.
    estimator: Estimator | None = field(default=None, repr=False, compare=False)

    @classmethod
    def unseen(cls, rules: Variant, players: int, visible: list[Card]) -> Pool:
        """Everything in the deck that is not `visible`: face-down cards and the draw pile."""
        remaining = Counter(rules.deck(players))
        remaining.subtract(visible)
        counts: Counter = Counter()
        total = 0
        for card, count in remaining.items():
            if count > 0:
                counts[rules.ranks[card]] += count
                total += rules.values[card] * count
        size = sum(counts.values())
        return cls(dict(counts), size, total / size if size else 0.0)


@dataclass
class Scene:
    """The public facts a decision needs, seen from one seat (face-down cards are None)."""

    rules: Variant
    players: int
    me: int
    phase: str
    version: int
    finisher: int | None
    layouts: list[list[Card | None]]
    discard_top: Card | None
    held: Card | None
    held_from: str | None
    i_hold: bool
    may_swap: bool
    #: Whether knocking is open now (the rules may close the first round to it).
    may_knock: bool
    teed_off: bool
    pool: Pool

    @classmethod
    def from_view(cls, seen: dict[str, Any], pool: Pool | None = None) -> Scene:
        """The scene of the seat whose view this is."""
        rules = RULEBOOK[seen["variant"]]
        me = seen["seat"]
        if pool is None:
            visible = [card for layout in seen["layouts"] for card in layout if card is not None]
            visible.extend(seen["discard_pile"])
            if seen["held"] is not None:
                visible.append(seen["held"])
            pool = Pool.unseen(rules, seen["players"], visible)
        return cls(
            rules=rules,
            players=seen["players"],
            me=me,
            phase=seen["phase"],
            version=seen["version"],
            finisher=seen["finisher"],
            layouts=seen["layouts"],
            discard_top=seen["discard_top"],
            held=seen["held"],
            held_from=seen["held_from"],
            i_hold=seen["holding"] == me,
            may_swap=rules.can_swap and seen["teed_off"][me] and not seen["drawn"][me],
            may_knock=rules.may_knock(seen["drawn"]),
            teed_off=seen["teed_off"][me],
            pool=pool,
        )


class Estimator:
    """Expected strokes of a layout with face-down cards, under one seat's pool.

    Scores with the variant's own scoring: its `score_ranks` with stand-ins for the
    face-down cards, or, where two-card columns score on their own, column by column
    with the scoring's `pair_value` and `pairs_bonus`, which lets a card's worth at
    each position be reckoned without scoring the whole layout again.
    """

    def __init__(self, rules: Variant, pool: Pool) -> None:
        self.rules = rules
        self.pool = pool
        self.columns = [(column, column + rules.cols) for column in range(rules.cols)]
        scoring = rules.scoring
        #: Two-card columns that score on their own: reckoned column by column.
        self.fast = rules.rows == 2 and scoring.by_column
        if self.fast:
            self._pair_value = scoring.pair_value
            self._bonus = scoring.pairs_bonus
            self.bonus = scoring.has_bonus
        self._half: dict[Card, float] = {}

    @classmethod
    def of(cls, scene: Scene) -> Estimator:
        """The estimator of a scene's pool, made once per pool."""
        estimator = scene.pool.estimator
        if estimator is None or estimator.rules is not scene.rules:
            estimator = scene.pool.estimator = cls(scene.rules, scene.pool)
        return estimator

    def _with_one(self, card: Card) -> float:
        # A known card over a face-down one: it may still turn out to be its pair.
        cached = self._half.get(card)
        if cached is None:
            rules, pool = self.rules, self.pool
            rank, value = rules.ranks[card], rules.values[card]
            count = pool.counts.get(rank, 0)
            if pool.size == 0:
                cached = value + pool.mean
            else:
                chance = count / pool.size
                rest = pool.size - count
                other = (pool.mean * pool.size - value * count) / rest if rest else pool.mean
                cached = chance * self._pair_value(rank) + (1 - chance) * (value + other)
            self._half[card] = cached
        return cached

    def _column(self, a: Card | None, b: Card | None) -> tuple[float, Any]:
        """A two-card column's expectation and the rank it pairs on (None if no pair)."""
        if a is None:
            return (2 * self.pool.mean if b is None else self._with_one(b)), None
        if b is None:
            return self._with_one(a), None
        ranks = self.rules.ranks
        if ranks[a] == ranks[b]:
            return self._pair_value(ranks[a]), ranks[a]
        values = self.rules.values
        return values[a] + values[b], None

    def estimate(self, layout: list[Card | None]) -> float:
        """The layout's expected score, face-down cards counted at the pool's mean."""
        rules = self.rules
        if not self.fast:
            ranks = [rules.ranks[c] if c is not None else ("?", i) for i, c in enumerate(layout)]
            mean = self.pool.mean
            values = [rules.values[c] if c is not None else mean for c in layout]
            return rules.score_ranks(ranks, values)
        total = 0.0
        paired = []
        for top, bottom in self.columns:
            value, rank = self._column(layout[top], layout[bottom])
            total += value
            if rank is not None:
                paired.append(rank)
        if self.bonus:
            total += self._bonus(paired)
        return total

    def replacing(self, layout: list[Card | None], card: Card) -> list[float]:
        """The estimate of `layout` with `card` put at each position in turn."""
        if not self.fast:
            result = []
            for position in range(len(layout)):
                trial = list(layout)
                trial[position] = card
                result.append(self.estimate(trial))
            return result
        cols = self.rules.cols
        parts = [self._column(layout[top], layout[bottom]) for top, bottom in self.columns]
        base = sum(value for value, _ in parts)
        paired = [rank for _, rank in parts if rank is not None]
        result = [0.0] * len(layout)
        for position in range(len(layout)):
            column = position % cols
            partner = layout[column + cols] if position < cols else layout[column]
            value, rank = self._column(card, partner)
            old_value, old_rank = parts[column]
            total = base - old_value + value
            if self.bonus and (paired or rank is not None):
                trial = list(paired)
                if old_rank is not None:
                    trial.remove(old_rank)
                if rank is not None:
                    trial.append(rank)
                total += self._bonus(trial)
            result[position] = total
        return result

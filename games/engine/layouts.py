"""Scoring a layout: pairs, cancelled columns and bonuses, one family of games at a time.

Scoring works on two parallel sequences, the cards' ranks (what makes a pair)
and their values (what they score), so that the bots can score a layout with
stand-ins for the cards they cannot see: a stand-in rank equal to nothing, and
the value they expect of it. Every scorer here works on a layout's shape and
those sequences alone; each variant names the scorer of its game.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence

from .cards import HOLE_IN_ONE, Card

Groups = list[tuple[int, ...]]
#: Scores a layout of real cards; a `KeyError` or `TypeError` for anything else.
CardScorer = Callable[[Sequence[Card]], int]


class Scoring:
    """How one family of games scores a layout: which cards pair, and what pairs are worth.

    A layout is row-major, `rows` x `cols`. The cards of a group that pairs up
    cancel (score nothing); `bonus` is what the groups score beyond that.
    """

    #: Whether each column scores on its own, its two cards or its `pair_value` when
    #: they pair, plus `pairs_bonus` over the matched columns' ranks. The bots reckon
    #: two-row layouts of such games column by column.
    by_column = False

    def pair_groups(self, rows: int, cols: int, ranks: Sequence[Hashable]) -> Groups:
        """The position groups that pair up, each in ascending order."""
        raise NotImplementedError

    def bonus(self, cols: int, ranks: Sequence[Hashable], groups: Groups) -> int:
        """What the pairing `groups` score beyond cancelling their cards (nothing here)."""
        return 0

    def score(
        self, rows: int, cols: int, ranks: Sequence[Hashable], values: Sequence[float]
    ) -> float:
        """The strokes of a layout given each card's rank and value (ints for real cards)."""
        groups = self.pair_groups(rows, cols, ranks)
        if not groups:
            return sum(values)
        paired = {position for group in groups for position in group}
        total = sum(value for position, value in enumerate(values) if position not in paired)
        return total + self.bonus(cols, ranks, groups)

    def card_scorer(
        self, rows: int, cols: int, ranks: Mapping[Card, Hashable], values: Mapping[Card, int]
    ) -> CardScorer:
        """The scoring of a game's layouts of real cards (of the right size), built once
        per game with its card tables: the hot path of a hole's end and of `score_layout`."""

        def score(cards: Sequence[Card]) -> int:
            return self.score(
                rows, cols, [ranks[card] for card in cards], [values[card] for card in cards]
            )

        return score


class ColumnScoring(Scoring):
    """Golf's columns: equal ranks in a column cancel (score 0).

    In a column of three, all three or just two of them cancel; with
    `whole_columns_only` only all three do.
    """

    by_column = True
    #: Whether matched columns can earn a bonus together (`pairs_bonus` is not always 0).
    has_bonus = False

    def __init__(self, *, whole_columns_only: bool = False) -> None:
        self.whole_columns_only = whole_columns_only

    def pair_groups(self, rows: int, cols: int, ranks: Sequence[Hashable]) -> Groups:
        groups: Groups = []
        for column in range(cols):
            positions = range(column, len(ranks), cols)
            if rows == 2:
                top, bottom = positions
                if ranks[top] == ranks[bottom]:
                    groups.append((top, bottom))
                continue
            top, middle, bottom = positions
            if ranks[top] == ranks[middle] == ranks[bottom]:
                groups.append((top, middle, bottom))
            elif self.whole_columns_only:
                continue
            elif ranks[top] == ranks[middle]:
                groups.append((top, middle))
            elif ranks[top] == ranks[bottom]:
                groups.append((top, bottom))
            elif ranks[middle] == ranks[bottom]:
                groups.append((middle, bottom))
        return groups

    def pair_value(self, rank: Hashable) -> int:
        """What one matched column of `rank` scores (0 in golf: its cards cancel)."""
        return 0

    def pairs_bonus(self, pair_ranks: Sequence[Hashable]) -> int:
        """What matched columns of these ranks earn together (nothing in golf)."""
        return 0

    def pairs_score(self, pair_ranks: Sequence[Hashable]) -> int:
        """What matched columns of these ranks score in all: their pair values and bonus."""
        total = self.pairs_bonus(pair_ranks)
        for rank in pair_ranks:
            total += self.pair_value(rank)
        return total

    def bonus(self, cols: int, ranks: Sequence[Hashable], groups: Groups) -> int:
        return self.pairs_score([ranks[group[0]] for group in groups])

    def score(
        self, rows: int, cols: int, ranks: Sequence[Hashable], values: Sequence[float]
    ) -> float:
        if rows != 2:
            return super().score(rows, cols, ranks, values)
        # Two rows, column by column: the same rule as `pair_groups`, without
        # building the groups, as a hole's end and the bots score many layouts.
        total = 0
        paired = []
        for top in range(cols):
            bottom = top + cols
            if ranks[top] == ranks[bottom]:
                paired.append(ranks[top])
            else:
                total += values[top] + values[bottom]
        return total + self.pairs_score(paired) if paired else total

    def card_scorer(
        self, rows: int, cols: int, ranks: Mapping[Card, Hashable], values: Mapping[Card, int]
    ) -> CardScorer:
        if rows != 2:
            return super().card_scorer(rows, cols, ranks, values)
        columns = [(top, top + cols) for top in range(cols)]
        # What the matched columns' ranks score together, worked out once per set of ranks.
        pairs_scores: dict[tuple[Hashable, ...], int] = {}

        def paired_score(paired: list[Hashable]) -> int:
            key = tuple(paired)
            extra = pairs_scores.get(key)
            if extra is None:
                extra = pairs_scores[key] = self.pairs_score(paired)
            return extra

        if ranks.keys() == values.keys() and all(
            ranks[card] == card == values[card] for card in ranks
        ):
            # Each card is its own rank and value (Play Nine): once a set has checked
            # them all, score the cards as they are. A stand-in equal to a card that
            # passed the check (True for 1) still scores as an int, as it did.
            known = frozenset(ranks)

            def score_own(cards: Sequence[Card]) -> int:
                if not known.issuperset(cards):
                    raise KeyError
                total = 0
                paired = None
                for upper, lower in columns:
                    top = cards[upper]
                    bottom = cards[lower]
                    if top != bottom:
                        total += top + bottom
                    elif paired is None:
                        paired = [top]
                    else:
                        paired.append(top)
                if paired is not None:
                    total += paired_score(paired)
                return total if type(total) is int else int(total)

            return score_own

        cells = {card: (ranks[card], values[card]) for card in ranks.keys() & values.keys()}
        look = cells.__getitem__

        def score(cards: Sequence[Card]) -> int:
            total = 0
            paired = None
            for upper, lower in columns:
                top, top_value = look(cards[upper])
                bottom, bottom_value = look(cards[lower])
                if top != bottom:
                    total += top_value + bottom_value
                elif paired is None:
                    paired = [top]
                else:
                    paired.append(top)
            if paired is not None:
                total += paired_score(paired)
            return total

        return score


class PlayNineScoring(ColumnScoring):
    """Play Nine: column pairs score 0, a pair of Hole-in-Ones keeps its -10, and each
    value matched in two or more columns earns -5 per pair (-10, -15, -20)."""

    has_bonus = True

    def pair_value(self, rank: Hashable) -> int:
        return 2 * HOLE_IN_ONE if rank == HOLE_IN_ONE else 0

    def pairs_bonus(self, pair_ranks: Sequence[Hashable]) -> int:
        # A value earns its bonus from its second matched column on.
        if len(pair_ranks) < 2:
            return 0
        total = 0
        for rank in set(pair_ranks):
            count = pair_ranks.count(rank)
            if count > 1:
                total -= 5 * count
        return total


class AdjacentScoring(Scoring):
    """Three decks: any two equal ranks side by side or one above the other score 0,
    and -25 once per rank that holds a vertical pair in two different columns."""

    def pair_groups(self, rows: int, cols: int, ranks: Sequence[Hashable]) -> Groups:
        groups: Groups = []
        for position, rank in enumerate(ranks):
            if position % cols < cols - 1 and ranks[position + 1] == rank:
                groups.append((position, position + 1))
            if position + cols < len(ranks) and ranks[position + cols] == rank:
                groups.append((position, position + cols))
        return sorted(groups)

    def bonus(self, cols: int, ranks: Sequence[Hashable], groups: Groups) -> int:
        columns: dict[Hashable, set[int]] = {}
        for first, second in groups:
            if second - first == cols:
                columns.setdefault(ranks[first], set()).add(first % cols)
        return -25 * sum(1 for held in columns.values() if len(held) > 1)


# --- What a hole can score ----------------------------------------------------------------


def score_range(
    scoring: Scoring,
    rows: int,
    cols: int,
    deck: Sequence[Card],
    ranks: Mapping[Card, Hashable],
    values: Mapping[Card, int],
) -> tuple[int, int]:
    """The lowest and highest strokes one hole can score, dealt from `deck` (the largest
    a game uses) into a `rows` x `cols` layout scored by `scoring`.

    Found over every layout built from the three lowest- (for the minimum) or
    highest-scoring ranks, never holding more of a rank than the deck has. Pairs and
    bonuses reward equal ranks whatever they are worth, so no other rank reaches further.
    """
    by_rank: dict[Hashable, list[Card]] = {}
    for card in deck:
        by_rank.setdefault(ranks[card], []).append(card)
    ranked = sorted(by_rank.values(), key=lambda cards: values[cards[0]])
    score = scoring.card_scorer(rows, cols, ranks, values)
    size = rows * cols
    return (
        _extreme_score(score, size, ranked[:3], min),
        _extreme_score(score, size, ranked[-3:], max),
    )


def _extreme_score(
    score: CardScorer, size: int, groups: list[list], pick: Callable[[int, int], int]
) -> int:
    best: int | None = None
    for choice in itertools.product(range(len(groups)), repeat=size):
        counts = Counter(choice)
        if any(counts[i] > len(groups[i]) for i in counts):
            continue
        used: Counter[int] = Counter()
        cards = []
        for i in choice:
            cards.append(groups[i][used[i]])
            used[i] += 1
        strokes = score(cards)
        best = strokes if best is None else pick(best, strokes)
    assert best is not None
    return best

"""Scoring a layout: pairs, cancelled columns and bonuses, game by game.

Scoring works on two parallel sequences, the cards' ranks (what makes a pair)
and their values (what they score), so that the bots can score a layout with
stand-ins for the cards they cannot see: a stand-in rank equal to nothing.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Sequence

from .cards import HOLE_IN_ONE, Card
from .variants import Variant, get_variant

_PLAY_NINE_CARDS = frozenset(range(-5, 13)) - {-4, -3, -2, -1}


def score_layout(variant: str | Variant, cards: Sequence[Card]) -> int:
    """The strokes of a fully face-up layout (row-major) under `variant`'s rules."""
    rules = get_variant(variant)
    if len(cards) != rules.size:
        raise ValueError(f"A {rules.name} layout holds {rules.size} cards.")
    if rules.scoring == "play-nine":
        if not _PLAY_NINE_CARDS.issuperset(cards):
            raise ValueError("A layout to score must hold only Play Nine cards, all face up.")
        return _score_play_nine(cards)
    try:
        ranks = [rules.ranks[card] for card in cards]
        values = [rules.values[card] for card in cards]
    except (KeyError, TypeError):
        raise ValueError(f"A layout to score must hold only {rules.name} cards.") from None
    return score_ranks(rules, ranks, values)


def _score_play_nine(cards: Sequence[int]) -> int:
    # The hot path of the simulator: columns are (c, c + 4); pairs score 0, a
    # pair of Hole-in-Ones keeps its -10, and repeated pairs of a value earn -5 each.
    total = 0
    paired: list[int] | None = None
    for column in range(4):
        top = cards[column]
        bottom = cards[column + 4]
        if top != bottom:
            total += top + bottom
        elif paired is None:
            paired = [top]
        else:
            paired.append(top)
    if paired is not None:
        for value in set(paired):
            count = paired.count(value)
            if value == HOLE_IN_ONE:
                total += 2 * HOLE_IN_ONE * count
            if count > 1:
                total -= 5 * count
    return total


def pair_groups(rules: Variant, ranks: Sequence[Hashable]) -> list[tuple[int, ...]]:
    """The position groups that pair up under `rules`, each in ascending order."""
    cols = rules.cols
    groups: list[tuple[int, ...]] = []
    if rules.scoring == "adjacent":
        for position, rank in enumerate(ranks):
            if position % cols < cols - 1 and ranks[position + 1] == rank:
                groups.append((position, position + 1))
            if position + cols < len(ranks) and ranks[position + cols] == rank:
                groups.append((position, position + cols))
        return sorted(groups)
    for column in range(cols):
        positions = range(column, len(ranks), cols)
        if rules.rows == 2:
            top, bottom = positions
            if ranks[top] == ranks[bottom]:
                groups.append((top, bottom))
            continue
        # Columns of three: equal ranks cancel, all three or just two of them.
        top, middle, bottom = positions
        if ranks[top] == ranks[middle] == ranks[bottom]:
            groups.append((top, middle, bottom))
        elif ranks[top] == ranks[middle]:
            groups.append((top, middle))
        elif ranks[top] == ranks[bottom]:
            groups.append((top, bottom))
        elif ranks[middle] == ranks[bottom]:
            groups.append((middle, bottom))
    return groups


def score_ranks(rules: Variant, ranks: Sequence[Hashable], values: Sequence[float]) -> float:
    """Score a layout given each card's rank and value (an int for real cards)."""
    groups = pair_groups(rules, ranks)
    paired = {position for group in groups for position in group}
    total = sum(value for position, value in enumerate(values) if position not in paired)
    if rules.scoring == "play-nine":
        pair_ranks = [ranks[group[0]] for group in groups]
        for rank in set(pair_ranks):
            count = pair_ranks.count(rank)
            if rank == HOLE_IN_ONE:
                total += 2 * HOLE_IN_ONE * count
            if count > 1:
                total -= 5 * count
    elif rules.scoring == "adjacent":
        # -25 once per rank that holds a vertical pair in two different columns.
        columns: dict[Hashable, set[int]] = {}
        for first, second in groups:
            if second - first == rules.cols:
                columns.setdefault(ranks[first], set()).add(first % rules.cols)
        total -= 25 * sum(1 for held in columns.values() if len(held) > 1)
    return total


def scoring_pairs(variant_key: str, cards: Sequence[Card]) -> list[tuple[int, ...]]:
    """The position groups that scored as pairs in a full face-up layout (for highlighting)."""
    rules = get_variant(variant_key)
    if len(cards) != rules.size:
        raise ValueError(f"A {rules.name} layout holds {rules.size} cards.")
    try:
        ranks = [rules.ranks[card] for card in cards]
    except (KeyError, TypeError):
        raise ValueError(f"A layout must hold only {rules.name} cards.") from None
    return pair_groups(rules, ranks)


# --- What a hole can score ----------------------------------------------------------------


@functools.cache
def hole_score_range(variant: str) -> tuple[int, int]:
    """The lowest and highest strokes one hole of `variant` can score.

    Found with the engine's own `score_layout`, over every layout built from the
    three lowest- (for the minimum) or highest-scoring ranks (for the maximum) of the
    largest deck the variant uses, never holding more of a rank than that deck has.
    Pairs and bonuses reward equal ranks whatever they are worth, so no other rank
    reaches further.
    """
    rules = get_variant(variant)
    by_rank: dict[object, list] = {}
    for card in rules.deck(rules.max_players):
        by_rank.setdefault(rules.ranks[card], []).append(card)
    ranked = sorted(by_rank.values(), key=lambda cards: rules.values[cards[0]])
    return _extreme_score(rules, ranked[:3], min), _extreme_score(rules, ranked[-3:], max)


def _extreme_score(rules: Variant, groups: list[list], pick: Callable[[int, int], int]) -> int:
    best: int | None = None
    for choice in itertools.product(range(len(groups)), repeat=rules.size):
        counts = Counter(choice)
        if any(counts[i] > len(groups[i]) for i in counts):
            continue
        used: Counter[int] = Counter()
        cards = []
        for i in choice:
            cards.append(groups[i][used[i]])
            used[i] += 1
        score = score_layout(rules, cards)
        best = score if best is None else pick(best, score)
    assert best is not None
    return best

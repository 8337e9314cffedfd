"""Teammates kept apart at a night's tables, as a pure rule: no Django, no records.

A seating (random, or a snake by rating) is made first; `keep_apart` then swaps players
between tables, one pair at a time, while a swap leaves fewer pairs to be kept apart at
one table. Among the swaps that help most it takes the one between players nearest in
`rank` (by rating, a balanced seating stays balanced). Where the swaps stall, a seating
built team by team (the largest first, each member at the emptiest table without a
teammate) is tried too, and whichever leaves fewer pairs together is kept; so teams
are split whenever the tables' sizes allow it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping, Sequence

#: At most this many swaps: each one leaves at least one pair fewer together.
MOST_SWAPS = 1_000


def together(
    tables: Sequence[Sequence[int]], apart: Collection[frozenset[int]]
) -> list[frozenset[int]]:
    """The pairs of `apart` who sit at one of `tables`."""
    apart = set(apart)
    return [
        frozenset(pair)
        for table in tables
        for pair in itertools.combinations(table, 2)
        if frozenset(pair) in apart
    ]


def _partners(apart: Collection[frozenset[int]]) -> dict[int, set[int]]:
    partners: dict[int, set[int]] = {}
    for pair in apart:
        a, b = tuple(pair)
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    return partners


def _swapped(
    tables: list[list[int]],
    partners: Mapping[int, set[int]],
    rank: Mapping[int, int],
    may_sit: Callable[[int, int], bool],
) -> list[list[int]]:
    """Swap while a swap helps: the one that helps most, between players nearest in rank."""
    tables = [list(t) for t in tables]

    def clashes(player: int, index: int, leaving: int) -> int:
        mates = partners.get(player, ())
        return sum(
            1 for other in tables[index] if other in mates and other not in (player, leaving)
        )

    for _ in range(MOST_SWAPS):
        best: tuple | None = None
        for i, table in enumerate(tables):
            for p in table:
                if not clashes(p, i, p):
                    continue
                for j, other in enumerate(tables):
                    if j == i:
                        continue
                    for q in other:
                        if not (may_sit(p, j) and may_sit(q, i)):
                            continue
                        before = clashes(p, i, p) + clashes(q, j, q)
                        after = clashes(p, j, q) + clashes(q, i, p)
                        if after >= before:
                            continue
                        key = (after - before, abs(rank.get(p, 0) - rank.get(q, 0)), i, j, p, q)
                        if best is None or key < best:
                            best = key
        if best is None:
            return tables
        *_, i, j, p, q = best
        tables[i][tables[i].index(p)] = q
        tables[j][tables[j].index(q)] = p
    return tables


def _built(sizes: Sequence[int], players: Sequence[int], partners: Mapping[int, set[int]]):
    """A seating built team by team: the largest first, each member at the emptiest
    table holding none of its teammates (the emptiest of all if every table does)."""
    tables: list[list[int]] = [[] for _ in sizes]
    groups: list[list[int]] = []
    seen: set[int] = set()
    for player in players:  # each group: a player and everyone linked to them
        if player in seen:
            continue
        group, todo = [], [player]
        while todo:
            p = todo.pop()
            if p in seen:
                continue
            seen.add(p)
            group.append(p)
            todo.extend(partners.get(p, ()))
        groups.append(sorted(group, key=players.index))
    groups.sort(key=len, reverse=True)
    for group in groups:
        for p in group:
            free = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
            apart_from = [i for i in free if not partners.get(p, set()) & set(tables[i])]
            choice = max(apart_from or free, key=lambda i: (sizes[i] - len(tables[i]), -i))
            tables[choice].append(p)
    return tables


def keep_apart(
    tables: Sequence[Sequence[int]],
    apart: Collection[frozenset[int]],
    *,
    rank: Mapping[int, int] | None = None,
    may_sit: Callable[[int, int], bool] | None = None,
) -> list[list[int]]:
    """`tables` (players' ids) with as few `apart` pairs at one table as swaps find, each
    table keeping its size. `rank`: players' places by rating (swaps prefer players
    near each other in it); `may_sit(player, table index)`: where a player may sit."""
    partners = _partners(apart)
    rank = rank or {}
    allowed = may_sit or (lambda player, index: True)
    best = _swapped([list(t) for t in tables], partners, rank, allowed)
    left = len(together(best, apart))
    if left:
        players = [p for t in tables for p in t]
        built = _swapped(
            _built([len(t) for t in tables], players, partners), partners, rank, allowed
        )
        fits = all(allowed(p, i) for i, t in enumerate(built) for p in t)
        if fits and len(together(built, apart)) < left:
            best = built
    return best

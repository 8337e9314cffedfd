"""Dealing players to tables, as pure rules over plain values: no Django, no records.

Every seating of the leagues comes through here, a league night's and an event's round
alike; the rooms hand in players' keys (player ids) and take back tables of them.

- **Sizes**: as few tables as the players need, as even as can be, largest first
  (`table_sizes`); with a fewest seats a table must have, the players the numbers do not
  fit sit out with a bye (`deal_sizes`).
- **Byes**: to those who have had fewest so far, the lowest ranked among equals
  (`choose_byes`).
- **Order**: best first in a snake, 1, 2, 3, 3, 2, 1, ..., so each table has a share of
  the best (`snake_order`); or in turn, table by table (`in_turn`).
- **Keeping apart** (family, teammates): a pair to keep apart sits at different tables
  wherever the tables' sizes allow, and is reported (`together`) where they do not. A
  seating already made (a league night's, random or balanced) is mended by swaps between
  players near each other in rank, so a balanced seating stays balanced, with a search
  to fall back on where swaps cannot split every pair (`keep_apart`);
  a seating searched for (an event's round, with the meetings so far) weighs a pair kept
  together as `APART_WEIGHT` repeat meetings (`least_cost_seating`).

`deal` puts sizes, byes, order and keeping apart together for a league night.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")

#: At most this many swaps when keeping apart: each one leaves at least one pair fewer
#: together.
MOST_SWAPS = 1_000
#: A pair kept together costs this many repeat meetings: a family or two teammates at one
#: table is worse than two players meeting again.
APART_WEIGHT = 10
#: Seatings tried before the best found so far is taken (a round of 40 players is seated
#: well within it; a round that cannot avoid every meeting stops there).
SEARCH_BUDGET = 50_000


def pair(a: K, b: K) -> frozenset[K]:
    """Two players as a pair, whichever is named first."""
    return frozenset((a, b))


# --- sizes and byes ------------------------------------------------------------------------


def deal_sizes(players: int, most: int, fewest: int | None = None) -> tuple[list[int], int]:
    """Tables of `fewest` to `most` seats for `players` (as even as can be, largest
    first), and how many sit out (byes) because the numbers do not fit. Without
    `fewest`, every table seats `most`."""
    fewest = most if fewest is None else fewest
    if not 1 <= fewest <= most:
        raise ValueError("A table seats from one player up to its most.")
    if players < fewest:
        return [], players
    tables = -(-players // most)
    while tables and players // tables < fewest:
        tables -= 1  # too few for that many tables: seat fewer, the rest have a bye
    seated = min(players, tables * most)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra), players - seated


def table_sizes(players: int, most: int) -> list[int]:
    """Everyone seated, at as few tables of at most `most` as can be, as evenly as can be."""
    return deal_sizes(players, most, 1)[0]


def choose_byes(ranked: Sequence[K], count: int, had: Mapping[K, int]) -> list[K]:
    """The `count` of `ranked` (best first) who sit out: those with the fewest byes so far
    (`had`), the lowest ranked first among equals."""
    if not count:
        return []
    by_need = sorted(range(len(ranked)), key=lambda i: (had.get(ranked[i], 0), -i))
    return [ranked[i] for i in by_need[:count]]


# --- order ---------------------------------------------------------------------------------


def snake_order(players: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """Deal players (best first) to tables in a snake: 1, 2, 3, 3, 2, 1, 1, 2, ...

    A full table is skipped, so smaller tables still get a fair share of the field.
    """
    tables: list[list[T]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    queue = list(players)
    forward = True
    while queue:
        for index in order if forward else reversed(order):
            if queue and len(tables[index]) < sizes[index]:
                tables[index].append(queue.pop(0))
        forward = not forward
    return tables


def in_turn(players: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """Players dealt as they come: the first table filled, then the next."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players[start : start + size]))
        start += size
    return tables


class NowhereToSit(ValueError):
    """A player may sit at none of the tables a swap could take them to."""

    def __init__(self, player: Hashable) -> None:
        super().__init__(f"Player {player!r} may sit at no table a swap could reach.")
        self.player = player


def seat_where_allowed(
    tables: Sequence[Sequence[K]], may_sit: Callable[[K, int], bool]
) -> list[list[K]]:
    """`tables` with every player at a table they may sit at (`may_sit(player, index)`):
    one who may not is swapped with the first player at a table they may sit at who may
    sit at theirs. `NowhereToSit` when there is none."""
    tables = [list(t) for t in tables]
    for index, table in enumerate(tables):
        for position, player in enumerate(table):
            if may_sit(player, index):
                continue
            swap = next(
                (
                    (other, at)
                    for j, other in enumerate(tables)
                    if j != index and may_sit(player, j)
                    for at, candidate in enumerate(other)
                    if may_sit(candidate, index)
                ),
                None,
            )
            if swap is None:
                raise NowhereToSit(player)
            other, at = swap
            table[position], other[at] = other[at], table[position]
    return tables


# --- keeping apart -------------------------------------------------------------------------


def together(tables: Sequence[Sequence[K]], apart: Collection[frozenset[K]]) -> list[frozenset[K]]:
    """The pairs of `apart` who sit at one of `tables`."""
    apart = set(apart)
    return [
        frozenset(two)
        for table in tables
        for two in itertools.combinations(table, 2)
        if frozenset(two) in apart
    ]


def _partners(apart: Collection[frozenset[K]]) -> dict[K, set[K]]:
    partners: dict[K, set[K]] = {}
    for two in apart:
        a, b = tuple(two)
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    return partners


def _swapped(
    tables: list[list[K]],
    partners: Mapping[K, set[K]],
    rank: Mapping[K, int],
    may_sit: Callable[[K, int], bool],
) -> list[list[K]]:
    """Swap while a swap helps: the one that helps most, between players nearest in rank."""
    tables = [list(t) for t in tables]

    def clashes(player: K, index: int, leaving: K) -> int:
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


def _built(
    sizes: Sequence[int], players: Sequence[K], partners: Mapping[K, set[K]]
) -> list[list[K]]:
    """A seating built group by group (a player and everyone linked to them), the largest
    first, each member at the emptiest table holding none of its partners (the emptiest
    of all if every table does)."""
    tables: list[list[K]] = [[] for _ in sizes]
    groups: list[list[K]] = []
    seen: set[K] = set()
    for player in players:
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


def _split(
    sizes: Sequence[int],
    players: Sequence[K],
    partners: Mapping[K, set[K]],
    may_sit: Callable[[K, int], bool],
) -> list[list[K]] | None:
    """A seating at tables of `sizes` with no two partners at one table and everyone
    where they may sit, found depth first (the most linked players first, each at the
    emptiest table that takes them); None when there is none, or none was found within
    `SEARCH_BUDGET` steps."""
    order = sorted(players, key=lambda p: -len(partners.get(p, ())))
    tables: list[list[K]] = [[] for _ in sizes]
    # Empty tables of one size that take the same players are alike: one is tried.
    alike = [(size, tuple(may_sit(p, t) for p in order)) for t, size in enumerate(sizes)]
    steps = 0

    def place(index: int) -> bool:
        nonlocal steps
        steps += 1
        if index == len(order):
            return True
        if steps > SEARCH_BUDGET:
            return False
        player, mates = order[index], partners.get(order[index], set())
        tried_empty: set[tuple] = set()
        for t in sorted(range(len(sizes)), key=lambda t: (len(tables[t]) - sizes[t], t)):
            if len(tables[t]) >= sizes[t] or not may_sit(player, t) or mates & set(tables[t]):
                continue
            if not tables[t]:
                if alike[t] in tried_empty:
                    continue
                tried_empty.add(alike[t])
            tables[t].append(player)
            if place(index + 1):
                return True
            tables[t].pop()
        return False

    return tables if place(0) else None


def keep_apart(
    tables: Sequence[Sequence[K]],
    apart: Collection[frozenset[K]],
    *,
    rank: Mapping[K, int] | None = None,
    may_sit: Callable[[K, int], bool] | None = None,
) -> list[list[K]]:
    """`tables` with as few `apart` pairs at one table as swaps find, each table keeping
    its size. Swaps are made one at a time while one leaves fewer pairs together, the
    one that helps most and, among those, between players nearest in `rank` (players'
    places, by rating). Where the swaps stall, a seating built group by group is tried
    too (teams), and then a search for a seating that splits every pair (pairs linked
    in any other way); whichever leaves fewest pairs together is kept, so the pairs are
    split whenever the tables' sizes allow it. `may_sit(player, table index)`: where a
    player may sit."""
    partners = _partners(apart)
    rank = rank or {}
    allowed = may_sit or (lambda player, index: True)
    best = _swapped([list(t) for t in tables], partners, rank, allowed)
    sizes = [len(t) for t in tables]
    players = [p for t in tables for p in t]
    for attempt in (
        # Teams: built team by team, then mended by swaps.
        lambda: _swapped(_built(sizes, players, partners), partners, rank, allowed),
        # Pairs linked in any other way: a seating that splits them all, if there is one.
        lambda: _split(sizes, players, partners, allowed),
    ):
        left = len(together(best, apart))
        if not left:
            break
        tried = attempt()
        if tried is None:
            continue
        fits = all(allowed(p, i) for i, t in enumerate(tried) for p in t)
        if fits and len(together(tried, apart)) < left:
            best = tried
    return best


class _Search:
    """The seating of least cost (each pair's `met`, and pairs kept together weighed
    `APART_WEIGHT` each), nearest the order among those of that cost."""

    def __init__(
        self, sizes: Sequence[int], met: Mapping[frozenset[K], int], apart: set[frozenset[K]]
    ) -> None:
        self.sizes, self.met, self.apart = list(sizes), met, apart
        self.best: list[tuple[K, ...]] = []
        self.best_cost = float("inf")
        self.nodes = 0

    def cost(self, a: K, b: K) -> int:
        key = pair(a, b)
        return self.met.get(key, 0) + (APART_WEIGHT if key in self.apart else 0)

    def greedy(self, order: list[K]) -> None:
        """Each table headed by the first left, then filled with whoever adds least cost
        (the first of them): a first seating for the search to better."""
        pool, tables, total = list(order), [], 0
        for size in self.sizes:
            table = [pool.pop(0)]
            while len(table) < size:
                added = [sum(self.cost(m, c) for m in table) for c in pool]
                index = added.index(min(added))
                total += added[index]
                table.append(pool.pop(index))
            tables.append(tuple(table))
        self.best, self.best_cost = tables, total

    def search(self, pool: list[K], start: int, done: list, table: list[K], cost: int) -> None:
        """Depth first in order: each table is headed by the first left, its other seats
        taken in order, so each seating is tried once."""
        self.nodes += 1
        if cost >= self.best_cost or self.nodes > SEARCH_BUDGET:
            return
        size = self.sizes[len(done)]
        if len(table) == size:
            done = [*done, tuple(table)]
            if len(done) == len(self.sizes):
                self.best, self.best_cost = done, cost
                return
            self.search(pool[1:], 0, done, [pool[0]], cost)
            return
        need = size - len(table)
        for index in range(start, len(pool) - need + 1):
            candidate = pool[index]
            added = sum(self.cost(member, candidate) for member in table)
            rest = pool[:index] + pool[index + 1 :]
            self.search(rest, index, done, [*table, candidate], cost + added)
            if self.best_cost == 0 or self.nodes > SEARCH_BUDGET:
                return


def least_cost_seating(
    order: Sequence[K],
    sizes: Sequence[int],
    met: Mapping[frozenset[K], int],
    apart: Collection[frozenset[K]] = (),
) -> tuple[tuple[K, ...], ...]:
    """`order` (best placed first) seated at tables of `sizes`: the seating that puts
    fewest pairs together who met before (`met`, a pair's meetings so far) and who are
    to be kept apart (each weighing `APART_WEIGHT` meetings), and among those the
    nearest `order`. The search stops after `SEARCH_BUDGET` seatings with the best found;
    where it leaves a pair together, a seating that splits every pair is taken instead
    when it costs less."""
    if not sizes:
        return ()
    order, apart = list(order), set(apart)
    search = _Search(sizes, met, apart)
    search.greedy(order)
    if search.best_cost:
        search.search(order[1:], 0, [], [order[0]], 0)
    best = [tuple(t) for t in search.best]
    if together(best, apart):
        # Heading each table with the first left misses some seatings at tables of
        # unequal sizes: one that splits every pair is taken where it costs less.
        split = _split(sizes, order, _partners(apart), lambda player, index: True)
        if split is not None and _cost(split, met) < search.best_cost:
            best = [tuple(t) for t in split]
    return tuple(best)


def _cost(tables: Sequence[Sequence[K]], met: Mapping[frozenset[K], int]) -> int:
    return sum(met.get(pair(a, b), 0) for t in tables for a, b in itertools.combinations(t, 2))


# --- a league night ------------------------------------------------------------------------


@dataclass(frozen=True)
class Dealt:
    """A seating: tables of players' keys, who sits out, and the pairs to keep apart who
    could not be."""

    tables: tuple[tuple[Hashable, ...], ...]
    byes: tuple[Hashable, ...] = ()
    together: tuple[frozenset, ...] = ()


def deal(
    players: Sequence[K],
    most: int,
    *,
    byes_had: Mapping[K, int] | None = None,
    balanced: bool = False,
    rng: random.Random | None = None,
    apart: Collection[frozenset[K]] = (),
    may_sit: Callable[[K, int], bool] | None = None,
) -> Dealt:
    """Deal `players` to tables of at most `most`, as even as can be.

    With `byes_had` (each player's byes so far) every table is full and those left over
    sit out: the fewest byes first, drawn at random among equals. `balanced`: `players`
    are best first and are dealt in a snake; otherwise they are drawn at random and
    dealt in turn. Everyone is then moved to a table they may sit at (`may_sit(player,
    table index)`, `NowhereToSit` when a player cannot be), and pairs to keep `apart`
    are split wherever swaps find a way (by rank, when `balanced`). `players`' keys sort
    (the random draw starts from their order)."""
    rng = rng or random.Random()
    sizes, count = deal_sizes(len(players), most, most if byes_had is not None else 1)
    out: list[K] = []
    if byes_had is not None and count:
        drawn = sorted(players)
        rng.shuffle(drawn)
        # The draw is the ranking: the last drawn of those with fewest byes sit out.
        out = choose_byes(drawn[::-1], count, byes_had)
    playing = [p for p in players if p not in out]
    rank = None
    if balanced:
        tables = snake_order(playing, sizes)
        rank = {p: index for index, p in enumerate(playing)}
    else:
        rng.shuffle(playing)
        tables = in_turn(playing, sizes)
    if may_sit is not None:
        tables = seat_where_allowed(tables, may_sit)
    # Only pairs who both play are kept apart: one sitting out is apart already.
    apart = [two for two in apart if two <= set(playing)]
    if apart:
        tables = keep_apart(tables, apart, rank=rank, may_sit=may_sit)
    return Dealt(
        tables=tuple(tuple(t) for t in tables),
        byes=tuple(out),
        together=tuple(together(tables, apart)),
    )

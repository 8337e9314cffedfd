"""Who sits with whom in an event's round: Swiss, knockout and round robin, as pure rules.

Nothing here reads the database: an event's pages and writes hand in the entrants as
they stand and the meetings so far, and take back a `Round`, tables of entrants' keys
(player ids) with the byes and whatever could not be met of what was asked.

- **Swiss**: entrants in the order of the standings sit with those nearest them in the
  standings whom they have not met, and apart from those they must be kept apart from
  (family, teammates). A repeat meeting and a pair kept together are each allowed only
  where no seating avoids them, and then reported (`Round.repeats`, `Round.together`).
- **Knockout**: tables seeded in a snake by rating, so that the best seeds meet last;
  the best `advance` of each table go through (`through`), a tie at the cut played off.
- **Round robin**: at tables of two, everyone meets everyone once (the circle method);
  at larger tables, each round seats those who have met least.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

#: A pair of entrants kept together costs this many repeat meetings: a family or two
#: teammates at one table is worse than two entrants meeting again.
APART_WEIGHT = 10
#: Seatings tried before the best found so far is taken (a round of 40 entrants is
#: seated well within it; a round that cannot avoid every meeting stops there).
SEARCH_BUDGET = 50_000


@dataclass(frozen=True)
class Entrant:
    """One entrant as the standings have them before a round."""

    key: int
    points: float = 0.0
    #: Strokes so far: fewer stand higher among equal points.
    strokes: int = 0
    rating: float = 0.0
    #: Byes had so far: a bye goes to one who has had fewest.
    byes: int = 0


@dataclass(frozen=True)
class Round:
    """A round's seating: tables of entrants' keys, best-placed tables first."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()
    #: Pairs who meet again at this round's tables, where no seating could avoid it.
    repeats: tuple[frozenset[int], ...] = ()
    #: Pairs to be kept apart who sit together, where no seating could avoid it.
    together: tuple[frozenset[int], ...] = ()


def pair(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


def meetings(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """How often each pair of entrants sat at one table, over `tables`."""
    met: dict[frozenset[int], int] = {}
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return met


def table_sizes(entrants: int, most: int, fewest: int | None = None) -> tuple[list[int], int]:
    """Tables of `fewest` to `most` seats for `entrants` (as even as can be, largest
    first), and how many sit out (byes) because the numbers do not fit."""
    if not 2 <= (fewest or most) <= most:
        raise ValueError("A table seats from two players up.")
    fewest = fewest or most
    if entrants < fewest:
        return [], entrants
    tables = -(-entrants // most)
    while tables and entrants // tables < fewest:
        tables -= 1  # too few for that many tables: seat fewer, the rest have a bye
    seated = min(entrants, tables * most)
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra), entrants - seated


def standing_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Best first: most points, then fewest strokes, then the higher rating."""
    return sorted(entrants, key=lambda e: (-e.points, e.strokes, -e.rating, e.key))


def _byes(ordered: list[Entrant], count: int) -> list[Entrant]:
    """Who sits out: the lowest placed of those with fewest byes so far."""
    if not count:
        return []
    # Fewest byes first, the lowest placed first among them.
    by_need = sorted(range(len(ordered)), key=lambda i: (ordered[i].byes, -i))
    return [ordered[i] for i in by_need[:count]]


def swiss_round(
    entrants: Sequence[Entrant],
    met: Mapping[frozenset[int], int],
    most: int,
    fewest: int | None = None,
    apart: Iterable[frozenset[int]] = (),
) -> Round:
    """Seat a Swiss round: see the module's docstring."""
    ordered = standing_order(entrants)
    sizes, bye_count = table_sizes(len(ordered), most, fewest)
    byes = tuple(e.key for e in _byes(ordered, bye_count))
    seated = [e.key for e in ordered if e.key not in byes]
    return _seat(seated, sizes, met, set(apart), byes)


def round_robin_pairs(keys: Sequence[int]) -> list[Round]:
    """Every round of a round robin at tables of two: each pair meets once; with an odd
    number, each entrant has one bye."""
    players: list[int | None] = list(keys)
    if len(players) % 2:
        players.append(None)
    rounds = []
    for _ in range(len(players) - 1):
        half = len(players) // 2
        tables, byes = [], []
        for a, b in zip(players[:half], reversed(players[half:]), strict=True):
            if a is None or b is None:
                byes.append(a if b is None else b)
            else:
                tables.append((a, b))
        rounds.append(Round(tuple(tables), tuple(byes)))
        players = [players[0], players[-1], *players[1:-1]]  # the first stays, the rest turn
    return rounds


def mixing_round(
    keys: Sequence[int],
    met: Mapping[frozenset[int], int],
    most: int,
    fewest: int | None = None,
    apart: Iterable[frozenset[int]] = (),
    byes_had: Mapping[int, int] | None = None,
) -> Round:
    """A round robin's round at tables of more than two: those who have met least sit
    together (a Swiss round in which everyone stands level)."""
    byes_had = byes_had or {}
    entrants = [Entrant(key=k, byes=byes_had.get(k, 0)) for k in keys]
    return swiss_round(entrants, met, most, fewest, apart)


def knockout_round(seeds: Sequence[int], most: int, fewest: int = 2) -> Round:
    """A knockout round: `seeds` best first, dealt to tables in a snake (1, 2, 3, 3, 2,
    1, ...), so that each table has a share of the best; no byes while two can sit."""
    sizes, byes = table_sizes(len(seeds), most, fewest)
    seated = list(seeds[: len(seeds) - byes])
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    forward = True
    while seated:
        for index in order if forward else reversed(order):
            if seated and len(tables[index]) < sizes[index]:
                tables[index].append(seated.pop(0))
        forward = not forward
    # The lowest seeds sit out when the numbers do not fit (they go through unplayed
    # only if the event says so).
    return Round(tuple(tuple(t) for t in tables), tuple(seeds[len(seeds) - byes :]))


@dataclass(frozen=True)
class Cut:
    """Who goes through from one knockout table."""

    through: tuple[int, ...]
    #: Entrants tied at the cut: they play off for the places left (`places`).
    playoff: tuple[int, ...] = ()
    places: int = 0


def through(strokes: Mapping[int, int], advance: int) -> Cut:
    """The best `advance` of a table by strokes (fewest first); entrants level at the cut
    play off for the places that are left."""
    ordered = sorted(strokes, key=lambda k: (strokes[k], k))
    if advance >= len(ordered):
        return Cut(tuple(ordered))
    cut = strokes[ordered[advance - 1]]
    if strokes[ordered[advance]] != cut:
        return Cut(tuple(ordered[:advance]))
    clear = tuple(k for k in ordered if strokes[k] < cut)
    level = tuple(k for k in ordered if strokes[k] == cut)
    return Cut(clear, level, advance - len(clear))


# --- the standings ----------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One entrant's line in a Swiss event's standings, with the tie-breaks shown."""

    key: int
    place: int
    points: float
    strokes: int
    holes: int
    #: The points of every opponent met, once per meeting (Buchholz); a bye counts as a
    #: table of opponents holding the entrant's own points.
    opponents: float

    @property
    def per_hole(self) -> Fraction | None:
        """Strokes per hole played: fair between entrants who played different numbers
        of tables (a bye is no table played)."""
        return Fraction(self.strokes, self.holes) if self.holes else None


def _competition_places(values: Sequence[tuple]) -> list[int]:
    """Places for `values`, sorted best first: equal values share a place, the next
    one down skips the places they take (1, 1, 3: one plus the count of those better)."""
    places: list[int] = []
    for index, value in enumerate(values):
        places.append(places[-1] if index and value == values[index - 1] else index + 1)
    return places


def standings(
    points: Mapping[int, float],
    results: Iterable[Mapping[int, int]],
    holes: Mapping[int, int],
    byes: Mapping[int, int] | None = None,
    bye_opponents: int = 1,
) -> list[Standing]:
    """The standings of a Swiss event: most points, then most opponents' points, then
    fewest strokes per hole played; entrants level on all three share a place, listed by
    key. `results`: each table played, as each entrant's strokes there; `holes`: the
    holes each entrant played. A bye counts for the opponents' points as a table of
    `bye_opponents` opponents, each holding the entrant's own points (as a chess Swiss
    counts an unplayed round: a game against oneself), so that a bye neither lifts nor
    sinks an entrant against those who played that round."""
    results = list(results)
    byes = byes or {}
    strokes = dict.fromkeys(points, 0)
    opponents = {key: byes.get(key, 0) * bye_opponents * points[key] for key in points}
    for table in results:
        for key, count in table.items():
            strokes[key] += count
            opponents[key] += sum(points[other] for other in table if other != key)

    def level(key: int) -> tuple:
        played = holes.get(key, 0)
        # An entrant with no hole played yet ranks below any stroke count.
        per_hole = Fraction(strokes[key], played) if played else Fraction(10**9)
        return (-points[key], -opponents[key], per_hole)

    ordered = sorted(points, key=lambda k: (*level(k), k))
    places = _competition_places([level(k) for k in ordered])
    return [
        Standing(key, place, points[key], strokes[key], holes.get(key, 0), opponents[key])
        for key, place in zip(ordered, places, strict=True)
    ]


# --- the search --------------------------------------------------------------------------


class _Search:
    """The seating of least cost (repeat meetings, and pairs kept together weighed
    `APART_WEIGHT` each), nearest the standings among those of that cost."""

    def __init__(self, sizes: list[int], met: Mapping, apart: set[frozenset[int]]) -> None:
        self.sizes, self.met, self.apart = sizes, met, apart
        self.best: list[tuple[int, ...]] = []
        self.best_cost = float("inf")
        self.nodes = 0

    def cost(self, a: int, b: int) -> int:
        key = pair(a, b)
        return self.met.get(key, 0) + (APART_WEIGHT if key in self.apart else 0)

    def greedy(self, seated: list[int]) -> None:
        """Each table headed by the best placed left, then filled with whoever adds least
        cost (the best placed of them): a first seating for the search to better."""
        pool, tables, total = list(seated), [], 0
        for size in self.sizes:
            table = [pool.pop(0)]
            while len(table) < size:
                added = [sum(self.cost(m, c) for m in table) for c in pool]
                index = added.index(min(added))
                total += added[index]
                table.append(pool.pop(index))
            tables.append(tuple(table))
        self.best, self.best_cost = tables, total

    def search(self, pool: list[int], start: int, done: list, table: list[int], cost: int) -> None:
        """Depth first in standing order: each table is headed by the best placed left,
        its other seats taken in standing order, so each seating is tried once."""
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


def _seat(
    seated: list[int],
    sizes: list[int],
    met: Mapping[frozenset[int], int],
    apart: set[frozenset[int]],
    byes: tuple[int, ...],
) -> Round:
    if not sizes:
        return Round((), byes)
    search = _Search(sizes, met, apart)
    search.greedy(seated)
    if search.best_cost:
        search.search(seated[1:], 0, [], [seated[0]], 0)
    tables = tuple(search.best)
    pairs = [pair(a, b) for t in tables for a, b in itertools.combinations(t, 2)]
    return Round(
        tables,
        byes,
        repeats=tuple(p for p in pairs if met.get(p)),
        together=tuple(p for p in pairs if p in apart),
    )

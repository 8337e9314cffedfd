"""Who sits with whom in an event's round: Swiss, knockout and round robin, as pure rules.

Nothing here reads the database: an event's pages and writes hand in the entrants as
they stand and the meetings so far, and take back a `Round`, tables of entrants' keys
(player ids) with the byes and whatever could not be met of what was asked. These rules
decide who meets whom; the tables' sizes, who has a bye and how pairs are kept apart
are dealing's, as for a league night (`leagues.seating.dealing`).

- **Swiss**: entrants in the order of the standings sit with those nearest them in the
  standings whom they have not met, and apart from those they must be kept apart from
  (family, teammates). A repeat meeting and a pair kept together are each allowed only
  where no seating avoids them, and then reported (`Round.repeats`, `Round.together`).
  A bye goes to the lowest placed of those who have had fewest.
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

from ..seating import dealing
from ..seating.dealing import pair
from ..standings.places import place_in_order


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


def meetings(tables: Iterable[Sequence[int]]) -> dict[frozenset[int], int]:
    """How often each pair of entrants sat at one table, over `tables`."""
    met: dict[frozenset[int], int] = {}
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    return met


def standing_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Best first: most points, then fewest strokes, then the higher rating."""
    return sorted(entrants, key=lambda e: (-e.points, e.strokes, -e.rating, e.key))


def swiss_round(
    entrants: Sequence[Entrant],
    met: Mapping[frozenset[int], int],
    most: int,
    fewest: int | None = None,
    apart: Iterable[frozenset[int]] = (),
) -> Round:
    """Seat a Swiss round: see the module's docstring."""
    ordered = [e.key for e in standing_order(entrants)]
    sizes, bye_count = dealing.deal_sizes(len(ordered), most, fewest)
    had = {e.key: e.byes for e in entrants}
    byes = tuple(dealing.choose_byes(ordered, bye_count, had))
    seated = [key for key in ordered if key not in byes]
    apart = set(apart)
    tables = dealing.least_cost_seating(seated, sizes, met, apart)
    pairs = [pair(a, b) for t in tables for a, b in itertools.combinations(t, 2)]
    return Round(
        tables,
        byes,
        repeats=tuple(p for p in pairs if met.get(p)),
        together=tuple(dealing.together(tables, apart)),
    )


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
    sizes, byes = dealing.deal_sizes(len(seeds), most, fewest)
    tables = dealing.snake_order(seeds[: len(seeds) - byes], sizes)
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
    places = place_in_order(ordered, level)
    return [
        Standing(key, place, points[key], strokes[key], holes.get(key, 0), opponents[key])
        for key, place in zip(ordered, places, strict=True)
    ]

"""Duplicate scoring: every deal of a night compared seat by seat across its tables.

On a night of duplicate deals the tables with the same number of seats share one
deal seed, so hole n deals the same course to seat position p at each of them (the
first dealer follows from the seed too). A deal is one hole at one seat position of
such a group; its results side by side are its traveller.

Matchpoints on a deal: 2 for each player in the same seat at another table of the
group who took more strokes, 1 for each who took as many. A night's result is the
matchpoints won as a percentage of those available (2 for every other table, on
every deal played). Only the nine regulation holes are deals: a playoff hole is
dealt to the tied players alone.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import Prefetch

from games.engine.match import HOLES
from games.models import Scorecard, ScorecardHole, Table

from ..guests import guests_on, name_cards
from ..handicaps.net import net_strokes
from ..models import League, LeagueNight, NightTable
from ..standings.places import place_in_order

MATCHPOINT_RULE = (
    "On each deal (a hole, a seat position) a player scores 2 matchpoints for each "
    "player in the same seat at another table of the same size who took more strokes, "
    "and 1 for each who took as many; a night's result is the percentage of the "
    "matchpoints available."
)


def score_deal(strokes: Sequence[int | Fraction]) -> list[int]:
    """The matchpoints each result of one deal earns against the others."""
    return [
        sum(2 if other > mine else 1 if other == mine else 0 for other in strokes)
        - 1  # a result ties with itself once
        for mine in strokes
    ]


@dataclass
class Entry:
    """One table's result on one deal."""

    night_table: NightTable
    card: Scorecard
    strokes: int
    matchpoints: int = 0
    #: The strokes less the player's handicap per hole, when the league plays net.
    net: Fraction | None = None

    @property
    def on_paper(self) -> bool:
        return self.night_table.table.kind == Table.Kind.PAPER


@dataclass
class Deal:
    """One hole at one seat position of a group of tables that shared their deals."""

    hole: int
    position: int
    entries: list[Entry]

    @property
    def top(self) -> int:
        """The matchpoints available to each result: 2 for every other table."""
        return 2 * (len(self.entries) - 1)


@dataclass
class TravellerRow:
    """One table's line of a hole's traveller: its entry at each seat position."""

    night_table: NightTable
    entries: list[Entry | None]

    @property
    def played(self) -> bool:
        return any(entry is not None for entry in self.entries)


@dataclass
class Traveller:
    """One hole of a group: its deals by seat position, and a row per table."""

    number: int
    deals: list[Deal]
    rows: list[TravellerRow]


@dataclass
class Group:
    """The tables of a night that played the same deals, and their travellers by hole."""

    seats: int
    night_tables: list[NightTable]
    holes: dict[int, Traveller]

    @property
    def positions(self) -> range:
        return range(self.seats)


@dataclass
class NightResult:
    """One card's matchpoints over the night."""

    card: Scorecard
    night_table: NightTable
    matchpoints: int = 0
    available: int = 0
    place: int | None = None
    points: int = 0

    @property
    def percentage(self) -> Fraction | None:
        return Fraction(100 * self.matchpoints, self.available) if self.available else None

    @property
    def percentage_display(self) -> str:
        return "–" if self.percentage is None else f"{float(self.percentage):.2f}%"


@dataclass
class Comparison:
    """A night's deals compared: its groups of tables and every card's result."""

    groups: list[Group] = field(default_factory=list)
    results: list[NightResult] = field(default_factory=list)
    #: Tables with no other table of their deals: nothing to compare them with.
    alone: list[NightTable] = field(default_factory=list)

    @property
    def by_hole(self) -> list[tuple[int, list[tuple[Group, Traveller]]]]:
        """The holes with any strokes, each with its travellers group by group."""
        holes = []
        for number in range(1, HOLES + 1):
            travellers = [(g, g.holes[number]) for g in self.groups if number in g.holes]
            if travellers:
                holes.append((number, travellers))
        return holes


def _tables(night: LeagueNight, finished_only: bool) -> list[NightTable]:
    cards = Scorecard.objects.order_by("position").prefetch_related(
        Prefetch("holes", queryset=ScorecardHole.objects.filter(number__lte=HOLES))
    )
    tables = night.tables.select_related("table").prefetch_related(
        Prefetch("table__scorecards", queryset=cards)
    )
    if finished_only:
        tables = tables.filter(table__status=Table.Status.FINISHED)
    tables = list(tables.order_by("number"))
    guests = guests_on([night.pk])
    for night_table in tables:
        name_cards(night_table.table.scorecards.all(), night.pk, guests)
    return tables


def _played(
    night_table: NightTable,
    position: int,
    number: int,
    reported: Mapping[int, Mapping[int, list[int | None]]],
):
    """The card at `position` of the table and its strokes on hole `number` (or None):
    from its scorecard, else as its players confirmed the hole from their phones."""
    cards = night_table.table.scorecards.all()
    for card in cards:
        if card.position == position:
            strokes = next((h.strokes for h in card.holes.all() if h.number == number), None)
            on_phones = reported.get(night_table.pk, {}).get(number)
            if strokes is None and on_phones:
                index = sorted(c.position for c in cards).index(position)
                strokes = on_phones[index] if index < len(on_phones) else None
            return card, strokes
    return None, None


def compare(
    night: LeagueNight,
    *,
    finished_only: bool = False,
    league: League | None = None,
    handicaps: dict[int, Fraction] | None = None,
    visible: Callable[[Table, int], bool] | None = None,
    reported: Mapping[int, Mapping[int, list[int | None]]] | None = None,
):
    """The night's traveller and matchpoints, with places and points across the night.

    Tables are grouped by their deal seed and size; a deal counts where at least two
    tables of its group have strokes for it (a table still playing has them for the
    holes it finished). With `handicaps` (per player id, for a league playing net)
    each deal compares strokes less the handicap. People are ranked by percentage
    across the night, ties sharing a place; bots are compared but not ranked; a card
    with nothing to be compared with has no percentage and no place. `visible(table,
    number)` leaves out the strokes a screen may not show yet (the night's board).
    `reported`: the strokes paper tables still reporting have confirmed from their
    phones, by night table id and hole number (seat order), compared as their
    scorecards' would be (`reporting.selectors.with_reported`); `visible` holds for them
    too.
    """
    league = league or night.season.league
    by_deal: dict[tuple[int, int], list[NightTable]] = defaultdict(list)
    for night_table in _tables(night, finished_only):
        by_deal[night_table.table.deal_seed, night_table.table.seat_count].append(night_table)
    comparison = Comparison()
    results: dict[int, NightResult] = {}
    for (_seed, seats), night_tables in sorted(by_deal.items(), key=lambda item: item[1][0].number):
        if len(night_tables) < 2:
            comparison.alone.extend(night_tables)
            continue
        group = Group(seats=seats, night_tables=night_tables, holes={})
        for number in range(1, HOLES + 1):
            deals = []
            for position in range(seats):
                entries = []
                for night_table in night_tables:
                    card, strokes = _played(night_table, position, number, reported or {})
                    if visible is not None and not visible(night_table.table, number):
                        strokes = None
                    if strokes is not None:
                        entry = Entry(night_table, card, strokes)
                        if handicaps is not None:
                            handicap = handicaps.get(card.player_id, Fraction(0))
                            entry.net = net_strokes(strokes, 1, handicap)
                        entries.append(entry)
                values = [e.strokes if e.net is None else e.net for e in entries]
                for entry, points in zip(entries, score_deal(values), strict=True):
                    entry.matchpoints = points
                deal = Deal(number, position, entries)
                if len(entries) > 1:
                    for entry in entries:
                        result = results.setdefault(
                            entry.card.pk, NightResult(entry.card, entry.night_table)
                        )
                        result.matchpoints += entry.matchpoints
                        result.available += deal.top
                deals.append(deal)
            if any(deal.entries for deal in deals):
                rows = [
                    TravellerRow(
                        night_table,
                        [
                            next((e for e in deal.entries if e.night_table is night_table), None)
                            for deal in deals
                        ],
                    )
                    for night_table in night_tables
                ]
                group.holes[number] = Traveller(number, deals, rows)
        comparison.groups.append(group)
    ranked = sorted(
        (r for r in results.values() if r.card.player_id is not None),
        key=lambda r: (-r.percentage, r.card.name.lower()),
    )
    for result, place in zip(ranked, place_in_order(ranked, lambda r: r.percentage), strict=True):
        result.place = place
        result.points = league.points_for(place)
    bots = sorted(
        (r for r in results.values() if r.card.player_id is None),
        key=lambda r: (-r.percentage, r.card.name.lower()),
    )
    comparison.results = ranked + bots
    return comparison


def night_points(
    nights: Sequence[LeagueNight],
    league: League,
    handicaps: dict[int, dict[int, Fraction]] | None = None,
    *,
    visible: Callable[[Table, int], bool] | None = None,
) -> dict[tuple[int, int], int]:
    """League points by (night id, player id) earned by matchpoints on duplicate nights.

    Only finished tables count, as in the standings. `handicaps`, by night then
    player, compare net strokes; `visible` leaves out the strokes a screen may not show
    yet (as `compare`).
    """
    points = {}
    for night in nights:
        night_handicaps = None if handicaps is None else handicaps.get(night.pk, {})
        comparison = compare(
            night, finished_only=True, league=league, handicaps=night_handicaps, visible=visible
        )
        for result in comparison.results:
            if result.card.player_id is not None:
                points[night.pk, result.card.player_id] = result.points
    return points


def counts_by_matchpoints(league: League, night: LeagueNight) -> bool:
    """Whether the night's points go by matchpoints (the league's choice, duplicate nights)."""
    return league.night_points == League.NightPoints.MATCHPOINTS and night.duplicate_deals

"""Reads of table reports: who may report a table, a report's holes with their running
totals and what comes next, and what waits for the organiser on a night."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from django.db.models import Prefetch, Q, QuerySet

from games.engine.match import HOLES, match_status
from games.models import Seat, Table, hole_name
from games.scorecards import PaperScoreError, check_paper_scores

from ..models import LeagueNight, NightTable, Player, ReportedHole, TableReport
from ..roles import is_organiser

if TYPE_CHECKING:
    from ..results.selectors import TableView

#: The characters of a short code: no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B that a hand or a
#: font could confuse.
CODE_ALPHABET = "ACDEFHJKMNPQRTUVWXY3479"
CODE_LENGTH = 6


def normalised_code(typed: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes; the look-alike
    digits of letters read as the letters would be (O as nothing, since neither is used)."""
    return re.sub(r"[\s\-]", "", typed or "").upper()


def shown_code(code: str) -> str:
    """A code as printed: two groups of three, easy to read out."""
    return f"{code[:3]}-{code[3:]}" if len(code) == CODE_LENGTH else code


def report_of(night_table: NightTable) -> TableReport | None:
    """The paper table's report, made with its code as the table was seated."""
    return TableReport.objects.filter(night_table=night_table).first()


def report_by_code(code: str) -> TableReport | None:
    return (
        TableReport.objects.select_related(
            "night_table__table", "night_table__night__season__league__club"
        )
        .filter(code=normalised_code(code))
        .first()
    )


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in order, with their players: those prefetched with the table
    (`night_reports`), or read now."""
    if "seats" in getattr(table, "_prefetched_objects_cache", {}):
        return sorted(table.seats.all(), key=lambda seat: seat.position)
    return list(table.seats.select_related("player").order_by("position"))


def _holes_of(report: TableReport) -> list[ReportedHole]:
    """The report's holes in order, with who entered and checked them: those prefetched
    with the report (`night_reports`), or read now."""
    if "holes" in getattr(report, "_prefetched_objects_cache", {}):
        return sorted(report.holes.all(), key=lambda hole: hole.number)
    return list(report.holes.select_related("entered_by", "checked_by").order_by("number"))


def is_seated(player: Player, table: Table) -> bool:
    return player.is_authenticated and table.seats.filter(player_id=player.pk).exists()


def may_report(player: Player, night_table: NightTable) -> bool:
    """Whether `player` may see and write the table's report: seated at it, or an
    organiser of its league's club."""
    return is_seated(player, night_table.table) or is_organiser(
        player, night_table.night.season.league.club
    )


@dataclass
class HoleLine:
    """A hole of the report as the page prints it: its strokes, state and who did what."""

    number: int
    strokes: list[int | None]
    names: list[str]
    hole: ReportedHole | None = None

    @property
    def name(self) -> str:
        return hole_name(self.number)

    @property
    def cells(self) -> list[tuple[str, int | None]]:
        """(player's name, strokes) of the seats that play the hole."""
        playing = self.hole is None or self.number <= HOLES
        return [
            (n, s)
            for n, s in zip(self.names, self.strokes, strict=True)
            if playing or s is not None
        ]

    @property
    def state(self) -> str:
        return self.hole.state if self.hole else "empty"


@dataclass
class ReportView:
    """A report read whole: its holes in order, the totals so far and what is left."""

    report: TableReport
    names: list[str]
    lines: list[HoleLine]
    totals: list[int]
    #: The hole to enter next, and the seats that play it (a playoff is for the tied).
    next_number: int | None
    next_seats: list[int]
    #: What still keeps the match from being complete, in the results form's words.
    problems: list[str] = field(default_factory=list)

    @property
    def standing(self) -> list[tuple[str, int]]:
        """Each seat's name with its total, in seat order."""
        return list(zip(self.names, self.totals, strict=True))

    @property
    def waiting(self) -> list[HoleLine]:
        return [line for line in self.lines if line.state == ReportedHole.State.ENTERED]

    @property
    def disputed(self) -> list[HoleLine]:
        return [line for line in self.lines if line.state == ReportedHole.State.DISPUTED]

    @property
    def confirmed(self) -> int:
        return sum(line.state == ReportedHole.State.CONFIRMED for line in self.lines)


def grid_of(holes: list[ReportedHole], *, confirmed: bool = False) -> list[list[object]]:
    """The holes' strokes as `check_paper_scores` reads them, hole 1 first; a hole not
    entered is a row of None. With `confirmed`, the figures last confirmed."""
    by_number = {h.number: (h.confirmed_strokes if confirmed else h.strokes) for h in holes}
    last = max(by_number, default=0)
    width = len(holes[0].strokes) if holes else 0
    return [by_number.get(n) or [None] * width for n in range(1, last + 1)]


def report_view(report: TableReport) -> ReportView:
    table = report.night_table.table
    names = [seat.name for seat in seats_of(table)]
    holes = _holes_of(report)
    by_number = {hole.number: hole for hole in holes}
    grid = [
        row if any(v is not None for v in row) else [None] * len(names) for row in grid_of(holes)
    ]
    totals = [sum(v for row in grid[:HOLES] if type(v := row[p]) is int) for p in range(len(names))]
    entered = [n for n in range(1, HOLES + 1) if n not in by_number]
    next_number: int | None
    next_seats = list(range(len(names)))
    if entered:
        next_number = entered[0]
    else:
        # The nine are in: a playoff follows a tie for the lowest total, among the tied.
        try:
            status = match_status(grid, len(names))
        except ValueError:  # a playoff hole the holes before it no longer call for
            next_number, next_seats = None, []
        else:
            next_number = None if status.over else len(grid) + 1
            next_seats = [] if status.over else list(status.contenders)
    last = max([HOLES, *by_number])
    lines = [
        HoleLine(
            n,
            by_number[n].strokes if n in by_number else [None] * len(names),
            names,
            by_number.get(n),
        )
        for n in range(1, last + 1)
    ]
    problems: list[str] = []
    try:
        check_paper_scores(table.rules, grid_of(holes), names)
    except PaperScoreError as error:
        problems = [problem.message for problem in error.problems]
    return ReportView(report, names, lines, totals, next_number, next_seats, problems)


def night_reports(night: LeagueNight) -> list[ReportView]:
    """The reports of a night's paper tables that wait for the organiser: a table whose
    results are not in yet, or a hole still waiting for confirmation or disputed; what
    is confirmed, waiting and disputed at each. A night whose results are all in and
    settled reads none of its reports' holes, and the rest are read together."""
    unsettled = Q(holes__state__in=[ReportedHole.State.ENTERED, ReportedHole.State.DISPUTED])
    reports = (
        TableReport.objects.filter(
            Q(night_table__night=night, night_table__table__kind=Table.Kind.PAPER)
            & (~Q(night_table__table__status=Table.Status.FINISHED) | unsettled)
        )
        .distinct()
        .select_related("night_table__table")
        .prefetch_related(
            Prefetch("night_table__table__seats", Seat.objects.select_related("player")),
            Prefetch("holes", ReportedHole.objects.select_related("entered_by", "checked_by")),
        )
    )
    return [report_view(report) for report in reports.order_by("night_table__number")]


def paper_tables(night: LeagueNight) -> QuerySet[NightTable]:
    return (
        night.tables.filter(table__kind=Table.Kind.PAPER).select_related("table").order_by("number")
    )


@dataclass
class ReportedResults:
    """A paper table's report as the organiser's results form starts from it: the
    confirmed strokes filled in, and what is still waiting or disputed."""

    view: ReportView
    initial: dict[str, int]


def reported_results(night_table: NightTable) -> ReportedResults | None:
    """The table's report for its results form, or None if it has none."""
    report = report_of(night_table)
    if report is None:
        return None
    view = report_view(report)
    initial = {
        f"h{line.number}_s{position}": strokes
        for line in view.lines
        if line.state == ReportedHole.State.CONFIRMED
        for position, strokes in enumerate(line.hole.confirmed_strokes)
        if strokes is not None
    }
    return ReportedResults(view, initial)


def counted_strokes(night_table_ids: Sequence[int]) -> dict[int, dict[int, list[int | None]]]:
    """The strokes last confirmed on each paper table's report, by night table and hole
    number (seat order), for tables whose results are not written yet. One query."""
    counted: dict[int, dict[int, list[int | None]]] = {}
    holes = ReportedHole.objects.filter(
        report__night_table_id__in=list(night_table_ids), confirmed_strokes__isnull=False
    ).values_list("report__night_table_id", "number", "confirmed_strokes")
    for night_table_id, number, strokes in holes:
        counted.setdefault(night_table_id, {})[number] = strokes
    return counted


@dataclass
class Reported:
    """A night's scorecards with the holes its paper tables' players confirmed from
    their phones (`with_reported`)."""

    #: The scorecards, a paper table still reporting with its confirmed holes filled in
    #: and marked `reported`: they are not final until its results are in.
    views: list[TableView]
    #: How many holes in a row from the first each of those tables has reported, by
    #: table id: what `games.deal_visibility` counts as played.
    played: dict[int, int]
    #: The confirmed strokes, by night table id and hole number (seat order).
    strokes: dict[int, dict[int, list[int | None]]]


def with_reported(views: Sequence[TableView]) -> Reported:
    """`views` (a night's `results.selectors.table_view`s) with what their paper tables
    have confirmed from the players' phones, for tables whose results are not written
    yet. The holes a viewer may not see are the caller's to mask, after this."""
    paper = [
        v.night_table.pk
        for v in views
        if v.table.kind == Table.Kind.PAPER and v.table.status != Table.Status.FINISHED
    ]
    counted = counted_strokes(paper) if paper else {}
    played: dict[int, int] = {}
    shown = []
    for view in views:
        holes = counted.get(view.night_table.pk)
        if not holes:
            shown.append(view)
            continue
        played[view.table.pk] = next(n for n in range(1, HOLES + 2) if n not in holes) - 1
        order = sorted(c.card.position for c in view.cards)
        cards = [
            replace(
                card,
                holes=[
                    seat_strokes(holes.get(number), order.index(card.card.position))
                    for number in range(1, HOLES + 1)
                ],
            )
            for card in view.cards
        ]
        shown.append(replace(view, cards=cards, reported=True))
    return Reported(shown, played, counted)


def seat_strokes(strokes: list[int | None] | None, index: int) -> int | None:
    """The strokes of the seat at `index` (seat order) on a reported hole, if any."""
    return None if strokes is None or index >= len(strokes) else strokes[index]

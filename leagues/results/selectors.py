"""Reads of results: a night's tables and scorecards as the pages print them, what a
correction would make of a finished match, and the corrections log."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from games.engine.match import HOLES, match_status
from games.models import Scorecard, ScorecardHole, Seat, Table, hole_name
from games.scorecards import Grid

from ..guests import guests_on, name_cards
from ..models import League, LeagueNight, NightTable, ScoreCorrection

#: What a paper table says until its results are entered: it is not played on the site.


AWAITING_RESULTS = "Results to enter"


def night_tables(night: LeagueNight) -> list[NightTable]:
    """A night's tables with their seats, cards and holes, ready for the scorecards: each
    with its `scorecard_grid`, the strokes read as plain rows in one query (a night's
    hundreds of holes as records would cost more than the rest of its page)."""
    tables = list(
        night.tables.select_related("table")
        .prefetch_related(
            "table__seats__player",
            Prefetch("table__scorecards", queryset=Scorecard.objects.order_by("position")),
        )
        .order_by("number")
    )
    strokes: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for card_id, number, hole_strokes in ScorecardHole.objects.filter(
        scorecard__table__night_table__night=night
    ).values_list("scorecard_id", "number", "strokes"):
        strokes[card_id].append((number, hole_strokes))
    guests = guests_on([night.pk])
    for night_table in tables:
        cards = night_table.table.scorecards.all()
        name_cards(cards, night.pk, guests)
        night_table.scorecard_grid = Grid.from_rows(
            [
                (card, number, s)
                for card in cards
                for number, s in strokes[card.pk] or [(None, None)]
            ]
        )
    return tables


@dataclass
class CardView:
    """One scorecard as the pages print it: the nine holes, playoff holes, total, place."""

    card: Scorecard
    holes: list[int | None]
    playoff: list[int | None]
    #: Some holes are blank, and the total and place left out: a deal the viewer has yet
    #: to play (`deal_results`).
    hidden: bool = False


@dataclass
class TableView:
    night_table: NightTable
    cards: list[CardView]
    playoff_numbers: list[int]
    #: The table deals what the viewer has yet to play (`deal_results`).
    hidden: bool = False
    #: The holes are those its players confirmed from their phones, its results not in
    #: yet (`reporting.selectors.with_reported`): not final.
    reported: bool = False

    @property
    def table(self) -> Table:
        return self.night_table.table

    @property
    def seated(self) -> list[Seat]:
        """Who sits where at a live table not yet started: it has no cards until then,
        and the organiser seats it (and starts it) from the night's page."""
        if self.cards or self.table.kind != Table.Kind.LIVE:
            return []
        return sorted(self.table.seats.all(), key=lambda seat: seat.position)

    @property
    def playoff_names(self) -> list[str]:
        return [hole_name(number) for number in self.playoff_numbers]

    @property
    def awaiting_results(self) -> bool:
        """A paper table not played on the site, its results still to be entered."""
        return self.table.kind == Table.Kind.PAPER and self.table.status != Table.Status.FINISHED

    @property
    def status_label(self) -> str:
        """The table's status in words, as the night's page shows it."""
        return AWAITING_RESULTS if self.awaiting_results else self.table.get_status_display()

    @property
    def status_code(self) -> str:
        """The status as the scorecards CSV gives it: the stored value, except that a
        paper table still to be entered says so in the night page's words."""
        return AWAITING_RESULTS.lower() if self.awaiting_results else self.table.status


def table_view(night_table: NightTable) -> TableView:
    """The printable grid of one table: a row per card, a column per hole."""
    grid = getattr(night_table, "scorecard_grid", None) or Grid.of(
        list(night_table.table.scorecards.all())
    )
    views = [
        CardView(card=row.card, holes=row.strokes[:HOLES], playoff=row.strokes[HOLES:])
        for row in grid.rows
    ]
    playoff_numbers = [n for n in grid.numbers if n > HOLES]
    return TableView(night_table=night_table, cards=views, playoff_numbers=playoff_numbers)


def corrections_in(league: League) -> QuerySet[ScoreCorrection]:
    """Every correction made to the league's scorecards, newest first, with what the log
    shows of each and what says whether a viewer may read it (its table's deal). Read by
    the correction's own league (an index in the log's order): a page counts and sorts
    the league's rows alone, and joins its cards' nights for its own rows only."""
    return (
        ScoreCorrection.objects.filter(league=league)
        .select_related("scorecard__table__night_table__night__season", "corrected_by")
        .only(
            *("hole_number", "old_strokes", "new_strokes", "reason", "corrected_at"),
            *("scorecard__name", "scorecard__table__deal_seed"),
            *(
                "scorecard__table__night_table__number",
                "scorecard__table__night_table__night__date",
            ),
            "scorecard__table__night_table__night__season__name",
            *("corrected_by__username", "corrected_by__display_name"),
        )
    )


@dataclass(frozen=True)
class CorrectedMatch:
    """A finished match as a correction of one hole would leave it."""

    names: list[str]
    #: Strokes by hole then seat, the corrected hole changed and `unneeded` left out.
    scores: list[list[int | None]]
    #: The playoff holes the corrected scores no longer need, in order.
    unneeded: list[int]
    #: The hole after which the corrected match is decided (None if it is not).
    decided_after: int | None


def corrected_match(scorecard: Scorecard, number: int, strokes: int) -> CorrectedMatch:
    """What changing `scorecard`'s hole `number` to `strokes` makes of its finished match.

    A correction can decide a match earlier than its playoff did (after the nine holes,
    say, where there was a tie): the playoff holes after that point are `unneeded`.
    A table still in play is left to the live match, so nothing is unneeded there.
    """
    table = scorecard.table
    grid = Grid.read(table)
    cards = grid.cards
    names = [card.name for card in cards]
    numbers = sorted(grid.played)
    scores = grid.by_hole()
    if number not in numbers:
        return CorrectedMatch(names, scores, [], None)
    scores[numbers.index(number)][[card.pk for card in cards].index(scorecard.pk)] = strokes
    if table.status != Table.Status.FINISHED:
        return CorrectedMatch(names, scores, [], None)
    for played in range(HOLES, len(scores) + 1):
        try:
            decided = match_status(scores[:played], len(cards)).over
        except ValueError:
            # Not a match the rules allow: the checks name what is wrong with it.
            break
        if decided:
            return CorrectedMatch(names, scores[:played], numbers[played:], numbers[played - 1])
    return CorrectedMatch(names, scores, [], None)


def corrections_for(night: LeagueNight) -> QuerySet[ScoreCorrection]:
    """The corrections made to the night's scorecards, newest first."""
    return ScoreCorrection.objects.filter(
        scorecard__table__night_table__night=night
    ).select_related("scorecard__table__night_table__night__season", "corrected_by")

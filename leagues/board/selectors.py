"""Reads of the night's board: its link, and the night as the whole room may see it.

Every table's holes as they land (live or on paper), where each table is, and the
night's running standings: gross strokes, net where handicaps count, and matchpoints
on a night of duplicate deals; in a team league, the teams' running scores. Only
finished holes have strokes, and on a duplicate night a hole shows nowhere until every
table dealt the same cards has played it (`deal_results.room_views`), nor counts in a
team's score: the board hangs in the room where everyone reads it. Nothing here
decides a rule: places, handicaps, matchpoints and team scores come from their rooms.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from games.engine.match import HOLES
from games.models import Hole, Table, hole_name

from .. import deal_results
from ..duplicate import matchpoints
from ..handicaps import selectors as handicaps
from ..handicaps.net import net_strokes
from ..models import League, LeagueNight, NightBoard
from ..reporting.selectors import with_reported
from ..results.selectors import TableView, night_tables, table_view
from ..standings.places import place_in_order
from ..teams.standings import counted_words, night_team_scores

#: Tables on one page of the board, by the most seats at a table of the night: more
#: pages take turns on the screen (`static/js/board.js`).
TABLES_PER_PAGE = ((4, 6), (6, 4), (8, 2))
#: Lines of the standings on one page of the board; in a team league, which shares the
#: column with the teams, lines of each.
STANDINGS_PER_PAGE = 16
STANDINGS_BESIDE_TEAMS = 9
TEAMS_PER_PAGE = 4


def board_by_token(token: str) -> NightBoard | None:
    """The board whose link holds `token`, revoked or not (None: no such link)."""
    if not token or len(token) > 64:
        return None
    return (
        NightBoard.objects.filter(token=token).select_related("night__season__league__club").first()
    )


def live_board(night: LeagueNight) -> NightBoard | None:
    """The night's board link that works, if it has one."""
    return NightBoard.objects.filter(night=night, revoked=False).first()


@dataclass(frozen=True)
class BoardCard:
    """One card at a table: strokes of the holes the room may see (None: not yet)."""

    name: str
    holes: tuple[int | None, ...]
    playoff: tuple[int | None, ...]
    #: Strokes over the regulation holes shown.
    total: int | None
    place: int | None = None


@dataclass(frozen=True)
class BoardTable:
    number: int
    on_paper: bool
    #: Where the table is, in words: "Hole 4", "Playoff 1", "Finished", ...
    where: str
    #: The hole being played (its column is marked), or None.
    playing: int | None
    finished: bool
    cards: tuple[BoardCard, ...]
    playoff_names: tuple[str, ...]
    #: Some finished holes wait for another table dealt the same cards.
    waiting: bool


@dataclass(frozen=True)
class StandingLine:
    """A person's running result on the night."""

    place: int
    name: str
    table: int
    #: Regulation holes shown.
    thru: int
    gross: int
    net: str = ""
    matchpoints: str = ""


@dataclass(frozen=True)
class TeamLine:
    """A team's running score on the night (a team league's)."""

    place: int
    name: str
    #: Members whose points are in: their tables finished and shown whole.
    finished: int
    points: int


@dataclass(frozen=True)
class Board:
    night: LeagueNight
    league: League
    tables: tuple[BoardTable, ...]
    standings: tuple[StandingLine, ...]
    show_net: bool
    show_matchpoints: bool
    #: How the standings are ordered, in words.
    order: str
    #: A team league's teams, most points first (empty in any other league).
    teams: tuple[TeamLine, ...] = ()
    #: How a team's score is made, in words.
    team_rule: str = ""
    #: A digest of everything the board shows: a client that holds another resyncs.
    stamp: str = field(default="")

    @property
    def most_seats(self) -> int:
        """The most seats at a table of the night: the screen sizes its tables by it."""
        return max((len(t.cards) for t in self.tables), default=0)

    @property
    def table_pages(self) -> list[Sequence[BoardTable]]:
        size = next((n for seats, n in TABLES_PER_PAGE if self.most_seats <= seats), 2)
        return _pages(self.tables, size)

    @property
    def standing_pages(self) -> list[Sequence[StandingLine]]:
        size = STANDINGS_BESIDE_TEAMS if self.teams else STANDINGS_PER_PAGE
        return _pages(self.standings, size)

    @property
    def team_pages(self) -> list[Sequence[TeamLine]]:
        return _pages(self.teams, TEAMS_PER_PAGE) if self.teams else []

    @property
    def holes(self) -> range:
        return range(1, HOLES + 1)


def _pages(items: Sequence, size: int) -> list[Sequence]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [items]


def _where(view: TableView, latest: tuple[int, bool] | None) -> tuple[str, int | None]:
    """Where a table is, in words, and the hole it plays (None between holes or when
    not in play)."""
    table = view.table
    if table.status == Table.Status.FINISHED:
        return "Finished", None
    if table.status == Table.Status.ABANDONED:
        return "Abandoned", None
    if table.kind == Table.Kind.PAPER:
        entered = max(
            (n for c in view.cards for n, s in enumerate(c.holes, 1) if s is not None), default=0
        )
        return ("On paper" if not entered else f"On paper, {hole_name(entered + 1)}"), None
    if table.status == Table.Status.OPEN or latest is None:
        return "Not started", None
    number, finished = latest
    if finished:
        return f"{hole_name(number + 1)} next", None
    return hole_name(number), number


def _cards(view: TableView) -> tuple[BoardCard, ...]:
    finished = view.table.status == Table.Status.FINISHED
    if not view.cards:  # a live table not started: its seats, no strokes yet
        seats = sorted(view.table.seats.all(), key=lambda seat: seat.position)
        return tuple(BoardCard(seat.name, (None,) * HOLES, (), None) for seat in seats)
    return tuple(
        BoardCard(
            name=c.card.name,
            holes=tuple(c.holes),
            playoff=tuple(c.playoff),
            total=sum(s for s in c.holes if s is not None)
            if finished or any(s is not None for s in c.holes)
            else None,
            place=c.card.place if finished and not c.hidden else None,
        )
        for c in view.cards
    )


@dataclass(frozen=True)
class _Person:
    table: int
    name: str
    player_id: int
    card_id: int | None
    holes: Sequence[int | None]


def _people(views: Sequence[TableView]):
    """Everyone seated at the night with the strokes the room may see: people only, as
    in the standings (bots are compared but not ranked); a table not started yet has
    its seats and no card."""
    for view in views:
        number = view.night_table.number
        if not view.cards:
            for seat in view.table.seats.all():
                if seat.player_id is not None:
                    yield _Person(number, seat.name, seat.player_id, None, ())
        for c in view.cards:
            if c.card.player_id is not None:
                yield _Person(number, c.card.name, c.card.player_id, c.card.pk, c.holes)


def _standings(
    people: Sequence[_Person],
    league: League,
    night_handicaps: dict[int, Fraction],
    percentages: dict[int, Fraction | None],
    by_matchpoints: bool,
    show_net: bool,
) -> list[StandingLine]:
    """The night's running standings: by matchpoints where they earn the points, then by
    strokes per hole shown (net where the league plays net), players level sharing a
    place; a player yet to finish a hole the room may see comes last."""
    lines = []
    for person in people:
        shown = [s for s in person.holes if s is not None]
        handicap = night_handicaps.get(person.player_id, Fraction(0))
        net = net_strokes(sum(shown), len(shown), handicap)
        per_hole = Fraction(net if league.by_net else sum(shown)) / len(shown) if shown else None
        percentage = percentages.get(person.card_id)
        key = (
            -percentage if by_matchpoints and percentage is not None else 0,
            per_hole if per_hole is not None else Fraction(10**6),
        )
        lines.append((key, person, shown, net, percentage))
    lines.sort(key=lambda line: (line[0], line[1].name.lower()))
    standings: list[StandingLine] = []
    places = place_in_order(lines, lambda line: line[0])
    for place, (_key, person, shown, net, percentage) in zip(places, lines, strict=True):
        standings.append(
            StandingLine(
                place=place,
                name=person.name,
                table=person.table,
                thru=len(shown),
                gross=sum(shown),
                net=f"{float(net):.1f}" if show_net else "",
                matchpoints="" if percentage is None else f"{float(percentage):.0f}%",
            )
        )
    return standings


def _teams(night: LeagueNight, views: deal_results.RoomViews) -> tuple[TeamLine, ...]:
    """A team league's running team scores, by the team standings' own rule, from the
    tables the board shows whole: a table still hiding a hole counts nothing yet, and
    matchpoints compare only the holes the board shows."""
    if not night.season.league.is_team_league:
        return ()
    shown = {
        view.table.pk
        for view in views
        if view.table.status == Table.Status.FINISHED and not view.hidden
    }
    return tuple(
        TeamLine(t.place, t.team.name, len(t.played), t.score)
        for t in night_team_scores(night, shown, views.unplayed.may_see_hole)
    )


def night_board(night: LeagueNight) -> Board:
    """The night as its board shows it, with the stamp of what it shows."""
    league = night.season.league
    reported = with_reported([table_view(nt) for nt in night_tables(night)])
    views = deal_results.room_views(reported.views, reported.played)
    latest: dict[int, tuple[int, bool]] = {}
    holes = Hole.objects.filter(table_id__in=[v.table.pk for v in views])
    for table_id, number, finished_at in holes.values_list("table_id", "number", "finished_at"):
        if table_id not in latest or number > latest[table_id][0]:
            latest[table_id] = (number, finished_at is not None)
    tables = []
    for view in views:
        where, playing = _where(view, latest.get(view.table.pk))
        tables.append(
            BoardTable(
                number=view.night_table.number,
                on_paper=view.table.kind == Table.Kind.PAPER,
                where=where,
                playing=playing,
                finished=view.table.status == Table.Status.FINISHED and not view.hidden,
                cards=_cards(view),
                playoff_names=tuple(view.playoff_names),
                waiting=view.hidden,
            )
        )
    night_handicaps = handicaps.frozen(night)
    show_matchpoints = night.duplicate_deals
    percentages: dict[int, Fraction | None] = {}
    if show_matchpoints:
        comparison = matchpoints.compare(
            night,
            league=league,
            handicaps=night_handicaps if league.by_net else None,
            visible=views.unplayed.may_see_hole,
            reported=reported.strokes,
        )
        percentages = {r.card.pk: r.percentage for r in comparison.results}
    people = list(_people(views))
    show_net = league.by_net or any(night_handicaps.get(p.player_id) for p in people)
    by_matchpoints = matchpoints.counts_by_matchpoints(league, night)
    standings = _standings(people, league, night_handicaps, percentages, by_matchpoints, show_net)
    if by_matchpoints:
        order = "By matchpoints, then strokes per hole"
    elif league.by_net:
        order = "By net strokes per hole"
    else:
        order = "By strokes per hole"
    board = Board(
        night=night,
        league=league,
        tables=tuple(tables),
        standings=tuple(standings),
        show_net=show_net,
        show_matchpoints=show_matchpoints,
        order=order,
        teams=_teams(night, views),
        team_rule=f"Points of finished tables: a team scores {counted_words(league)}"
        if league.is_team_league
        else "",
    )
    digest = hashlib.sha256(
        repr((board.tables, board.standings, board.teams)).encode()
    ).hexdigest()[:16]
    return replace(board, stamp=digest)

"""Reads of a player's record in a league: their figures over every match, their latest
matches with their points as the league scores them, a page of their history, pairs
made, and the strokes given away by match and by night over their latest matches."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from functools import cached_property

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet

from games.engine.match import HOLES
from games.models import HoleReview, Scorecard

from ..attendance.models import guest_label
from ..guests import guests_on
from ..handicaps import selectors as handicaps
from ..models import League, LeagueNight, NightTable, Player
from ..standings import figures
from ..standings.models import CardResult, PlayerFigures


@dataclass
class MatchLine:
    night_table: NightTable
    card: Scorecard
    date: date
    points: int = 0
    handicap: Fraction = Fraction(0)
    net_total: Fraction = Fraction(0)
    #: The place at the table that earned points: the net one in a league playing net.
    place: int | None = None
    #: Whom the result counts for when not the player (a substitute's, a seat the bot
    #: finished): a name, or "nobody"; its points are then not the player's.
    counts_for: str = ""
    #: The guest who played the player's seat that night ("Walt (guest)"), if one did.
    played_by: str = ""

    @property
    def handicap_display(self) -> str:
        return handicaps.display(self.handicap)

    @property
    def net_display(self) -> str:
        return f"{float(self.net_total):.1f}"


#: The latest matches the player page charts, and lists beside its charts.
RECENT_MATCHES = 30
#: Matches a page of a player's history lists, newest first.
MATCHES_PER_PAGE = 25


@dataclass
class PlayerRecord:
    """A player's league record: their figures over every match, and their latest
    matches (at most `RECENT_MATCHES`, oldest first) for the charts."""

    player: Player
    #: The latest matches, oldest first.
    matches: list[MatchLine] = field(default_factory=list)
    #: How many matches, wins and strokes in all, of every match.
    played: int = 0
    wins: int = 0
    match_strokes: int = 0
    #: (strokes, how many regulation holes) for every score made, lowest first.
    spread: list[tuple[int, int]] = field(default_factory=list)
    pairs_made: int | None = None
    pairs_holes: int = 0

    @property
    def holes(self) -> int:
        return sum(count for _strokes, count in self.spread)

    @property
    def strokes(self) -> int:
        return sum(strokes * count for strokes, count in self.spread)

    @property
    def mean_per_hole(self) -> float | None:
        return self.strokes / self.holes if self.holes else None

    @property
    def mean_per_match(self) -> float | None:
        return self.match_strokes / self.played if self.played else None

    @property
    def best_hole(self) -> int | None:
        return self.spread[0][0] if self.spread else None

    @property
    def worst_hole(self) -> int | None:
        return self.spread[-1][0] if self.spread else None

    @property
    def earlier(self) -> int:
        """Matches played before those charted."""
        return self.played - len(self.matches)

    @cached_property
    def given_away(self) -> dict[tuple[int, int], list[float]]:
        """The strokes given away over the latest matches (`_given_away`), read once."""
        return _given_away(self)


def _results(league: League, player: Player, leave_out: Q | None) -> QuerySet[CardResult]:
    """The stored figures of the player's cards in the league, less those `leave_out`
    hides from the viewer."""
    results = CardResult.objects.filter(
        night_table__night__season__league=league, scorecard__player=player
    )
    if leave_out is not None:
        results = results.exclude(scorecard__in=Scorecard.objects.filter(leave_out))
    return results


#: The order of a player's matches, newest first.
NEWEST_FIRST = ("-night_table__night__date", "-night_table__night_id", "-scorecard__table_id")


def _lines(results: list[CardResult], player: Player) -> list[MatchLine]:
    """A line for each of the player's `results`, in their order."""
    guests = guests_on({result.night_table.night_id for result in results})
    lines = []
    for result in results:
        card = result.scorecard
        night_table = result.night_table
        card.night_id = night_table.night_id
        owner = result.counts_for
        counts_for = "" if result.counts_for_id == player.pk else owner.name if owner else "nobody"
        key = (night_table.night_id, player.pk)
        lines.append(
            MatchLine(
                night_table,
                card,
                night_table.night.date,
                0 if counts_for else result.points,
                handicap=result.handicap,
                net_total=result.net_total,
                place=result.place,
                counts_for=counts_for,
                played_by=guest_label(guest) if (guest := guests.get(key)) else "",
            )
        )
    return lines


def _with_lines(results: QuerySet[CardResult]) -> QuerySet[CardResult]:
    return results.select_related("scorecard__table", "night_table__night", "counts_for")


def player_record(league: League, player: Player, leave_out: Q | None = None) -> PlayerRecord:
    """What the player page shows about `player` in `league` (regulation holes): their
    figures over every match, as kept (`PlayerFigures`), and their latest matches;
    `leave_out`: a filter for scorecards the viewer may not see yet, whose figures are
    taken away from those kept. Three or four queries, whatever the player's history:
    the latest matches, their guests, the figures kept, and those of the cards left out
    (none when there are none)."""
    results = _results(league, player, leave_out)
    latest = list(_with_lines(results).order_by(*NEWEST_FIRST)[:RECENT_MATCHES])
    kept = PlayerFigures.objects.filter(league=league, player=player).first()
    total = figures.Tally.of(kept) if kept is not None else figures.Tally()
    if leave_out is not None:
        hidden = _results(league, player, None).filter(
            scorecard__in=Scorecard.objects.filter(leave_out)
        )
        for row in figures.contributions(hidden):
            total.count(row, -1)
    return PlayerRecord(
        player=player,
        matches=_lines(latest[::-1], player),
        played=total.played,
        wins=total.wins,
        match_strokes=total.strokes,
        spread=figures.spread_list(total.spread),
        pairs_holes=total.pairs_holes,
        pairs_made=total.pairs if total.pairs_holes else None,
    )


def matches_page(
    league: League,
    player: Player,
    number: object,
    leave_out: Q | None = None,
    record: PlayerRecord | None = None,
) -> Page:
    """Page `number` of the player's matches in `league`, newest first (a number that is
    not a page gives the first or last), each as a `MatchLine`. Given the player's
    `record` (read with the same `leave_out`), it counts no matches, and the first page
    is its latest matches: no query."""
    results = _with_lines(_results(league, player, leave_out)).order_by(*NEWEST_FIRST)
    paginator = Paginator(results, MATCHES_PER_PAGE)
    if record is not None:
        paginator.count = record.played
    page = paginator.get_page(number)
    if record is not None and page.number == 1 and MATCHES_PER_PAGE <= RECENT_MATCHES:
        page.object_list = record.matches[::-1][:MATCHES_PER_PAGE]
    else:
        page.object_list = _lines(list(page.object_list), player)
    return page


def _given_away(record: PlayerRecord) -> dict[tuple[int, int], list[float]]:
    """Strokes given away in each reviewed regulation hole, by (table, position) of the
    record's matches. A hole the player made no decision in (a bot played it for them)
    gave nothing away and counts for nothing."""
    lines = {(line.card.table_id, line.card.position) for line in record.matches}
    reviews = (
        HoleReview.objects.filter(
            hole__table_id__in={table for table, _ in lines}, hole__number__lte=HOLES
        )
        .exclude(decisions=[])
        .values_list("hole__table_id", "position", "given_away")
    )
    given: dict[tuple[int, int], list[float]] = defaultdict(list)
    for table, position, away in reviews:
        if (table, position) in lines:
            given[table, position].append(away)
    return given


def given_away_by_match(record: PlayerRecord) -> list[tuple[date, float]]:
    """Per match with reviewed holes, the mean strokes the player gave away a hole."""
    given = record.given_away
    keys = ((line.card.table_id, line.card.position, line.date) for line in record.matches)
    return [
        (day, sum(given[table, position]) / len(given[table, position]))
        for table, position, day in keys
        if given.get((table, position))
    ]


@dataclass(frozen=True)
class NightGivenAway:
    """The strokes a player gave away on one league night, over its reviewed holes."""

    night: LeagueNight
    holes: int
    total: float

    @property
    def per_hole(self) -> float:
        """Strokes given away a reviewed hole: the night's total over its reviewed holes,
        so that a night of more matches weighs each of its holes alike."""
        return self.total / self.holes


def given_away_by_night(record: PlayerRecord) -> list[NightGivenAway]:
    """Per league night with reviewed holes, oldest first: the player's reviewed holes
    of all its matches, the strokes given away over them and a hole on average."""
    given = record.given_away
    nights: dict[int, tuple[LeagueNight, list[float]]] = {}
    for line in record.matches:
        night = line.night_table.night
        away = given.get((line.card.table_id, line.card.position))
        if away:
            nights.setdefault(night.pk, (night, []))[1].extend(away)
    return [NightGivenAway(night, len(away), sum(away)) for night, away in nights.values()]

"""Reads of a player's record in a league: every match with its points as the league
scores it, their holes, pairs made, and the strokes given away by match and by night."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from django.db.models import Q

from games.engine import scoring_pairs
from games.engine.match import HOLES
from games.models import Hole, HoleReview, Scorecard, ScorecardHole, Table

from ..attendance.models import guest_label
from ..guests import guests_on
from ..handicaps import selectors as handicaps
from ..models import League, LeagueNight, NightTable, Player
from ..standings.models import CardResult


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


@dataclass
class PlayerRecord:
    """A player's league record: matches, holes and what the holes looked like."""

    player: Player
    matches: list[MatchLine] = field(default_factory=list)
    hole_strokes: list[int] = field(default_factory=list)
    pairs_made: int | None = None
    pairs_holes: int = 0

    @property
    def holes(self) -> int:
        return len(self.hole_strokes)

    @property
    def strokes(self) -> int:
        return sum(self.hole_strokes)

    @property
    def mean_per_hole(self) -> float | None:
        return self.strokes / self.holes if self.holes else None

    @property
    def mean_per_match(self) -> float | None:
        if not self.matches:
            return None
        return sum(line.card.total for line in self.matches) / len(self.matches)

    @property
    def wins(self) -> int:
        return sum(line.place == 1 for line in self.matches)

    @property
    def best_hole(self) -> int | None:
        return min(self.hole_strokes) if self.hole_strokes else None

    @property
    def worst_hole(self) -> int | None:
        return max(self.hole_strokes) if self.hole_strokes else None

    @property
    def spread(self) -> list[tuple[int, int]]:
        """(strokes, how many holes) for every score the player made, lowest first."""
        return sorted(Counter(self.hole_strokes).items())


def player_record(league: League, player: Player, leave_out: Q | None = None) -> PlayerRecord:
    """Everything the player page shows about `player` in `league` (regulation holes),
    from the stored figures of their cards; `leave_out`: a filter for scorecards the
    viewer may not see yet."""
    record = PlayerRecord(player=player)
    hidden = Scorecard.objects.filter(leave_out) if leave_out is not None else None
    results = (
        CardResult.objects.filter(
            night_table__night__season__league=league, scorecard__player=player
        )
        .select_related("scorecard__table", "night_table__night", "counts_for")
        .order_by("night_table__night__date", "night_table__night_id", "scorecard__table_id")
    )
    if hidden is not None:
        results = results.exclude(scorecard__in=hidden)
    results = list(results)
    guests = guests_on({result.night_table.night_id for result in results})
    strokes = defaultdict(list)
    for card_id, number, hole_strokes in ScorecardHole.objects.filter(
        scorecard_id__in=[result.scorecard_id for result in results], number__lte=HOLES
    ).values_list("scorecard_id", "number", "strokes"):
        strokes[card_id].append((number, hole_strokes))
    live_cards = []
    for result in results:
        card = result.scorecard
        night_table = result.night_table
        card.night_id = night_table.night_id
        owner = result.counts_for
        counts_for = "" if result.counts_for_id == player.pk else owner.name if owner else "nobody"
        key = (night_table.night_id, player.pk)
        record.matches.append(
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
        record.hole_strokes.extend(value for _number, value in sorted(strokes[card.pk]))
        if card.table.kind == Table.Kind.LIVE:
            live_cards.append(card)
    record.pairs_made, record.pairs_holes = _pairs_made(live_cards)
    return record


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
    given = _given_away(record)
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
    given = _given_away(record)
    nights: dict[int, tuple[LeagueNight, list[float]]] = {}
    for line in record.matches:
        night = line.night_table.night
        away = given.get((line.card.table_id, line.card.position))
        if away:
            nights.setdefault(night.pk, (night, []))[1].extend(away)
    return [NightGivenAway(night, len(away), sum(away)) for night, away in nights.values()]


def _pairs_made(cards: Iterable[Scorecard]) -> tuple[int | None, int]:
    """Pairs scored on live holes whose final layouts are known (None when none are)."""
    pairs, holes = 0, 0
    by_table = defaultdict(list)
    for card in cards:
        by_table[card.table_id].append(card.position)
    for hole in Hole.objects.filter(table_id__in=by_table, number__lte=HOLES):
        state = hole.state or {}
        if state.get("phase") != "over" or "layouts" not in state:
            continue
        for position in by_table[hole.table_id]:
            if position not in hole.seat_positions:
                continue
            layout = state["layouts"][hole.seat_positions.index(position)]
            try:
                pairs += len(scoring_pairs(state["variant"], layout))
            except (KeyError, ValueError):
                continue
            holes += 1
    return (pairs if holes else None), holes

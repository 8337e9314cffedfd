"""Reads of standings: a season's, with each player's movement, its champions, and the
rules that order them, in words.

Standings are computed from finished tables' scorecards every time: nothing here is
stored, so a correction shows at once. A closed season's are read as they were frozen.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.db.models import Count, F, Q, QuerySet

from games.engine.match import HOLES
from games.models import Scorecard, Table

from ..attendance.selectors import credited_to, missed_points
from ..duplicate import matchpoints as duplicate
from ..handicaps import selectors as handicaps
from ..models import Absence, FrozenStanding, League, LeagueNight, NightTable, Player, Season
from .scoring import Scoring

TIE_BREAK_RULE = (
    "Ordered by league points, then match wins, then fewer strokes per hole, then name. "
    "Players level on points, wins and strokes per hole share a place."
)


@dataclass
class StandingRow:
    """One player's line in a season's standings."""

    player: Player
    matches: int = 0
    holes: int = 0
    strokes: int = 0
    wins: int = 0
    points: int = 0
    place: int = 0
    movement: int | None = None
    is_new: bool = False
    net_strokes: Fraction = Fraction(0)
    #: Whether ties on points go by net strokes per hole (a league playing net).
    by_net: bool = False
    #: Nights away, byes, and the points they earned (included in `points`).
    absences: int = 0
    byes: int = 0
    missed_points: int = 0

    @property
    def mean(self) -> Fraction | None:
        """Strokes per hole, exact (shown rounded)."""
        return Fraction(self.strokes, self.holes) if self.holes else None

    @property
    def mean_display(self) -> str:
        return f"{float(self.mean):.2f}" if self.mean is not None else "–"

    @property
    def net_mean(self) -> Fraction | None:
        """Net strokes per hole, exact."""
        return self.net_strokes / self.holes if self.holes else None

    @property
    def net_display(self) -> str:
        return f"{float(self.net_strokes):.1f}"

    @property
    def net_mean_display(self) -> str:
        return f"{float(self.net_mean):.2f}" if self.net_mean is not None else "–"

    def sort_key(self) -> tuple:
        mean = self.net_mean if self.by_net else self.mean
        mean = mean if mean is not None else Fraction(10**6)
        return (-self.points, -self.wins, mean, self.player.name.lower(), self.player.pk)

    def level_key(self) -> tuple:
        return self.sort_key()[:3]


def _season_cards(season: Season, before: date | None = None) -> QuerySet[Scorecard]:
    cards = Scorecard.objects.filter(
        table__night_table__night__season=season,
        table__status=Table.Status.FINISHED,
        player__isnull=False,
    )
    if before is not None:
        cards = cards.filter(table__night_table__night__date__lt=before)
    return cards.select_related("player").annotate(
        regulation_holes=Count("holes", filter=Q(holes__number__lte=HOLES)),
        night_id=F("table__night_table__night_id"),
    )


def points_rule(league: League) -> str:
    """How the league's nights earn points, in a few sentences for the standings."""
    per_place = f"Points per place: {league.points_per_place}."
    if league.night_points != League.NightPoints.MATCHPOINTS:
        rule = f"{per_place} A night earns points by place at the table."
    else:
        rule = (
            f"{per_place} A night of duplicate deals earns points by matchpoint percentage, "
            f"ranked across the night (bots are compared but not ranked); other nights, and "
            f"a table with no other of its size, by place at the table. "
            f"{duplicate.MATCHPOINT_RULE}"
        )
    if league.by_net:
        rule += (
            " Places, wins and matchpoints go by net strokes (players level on net share "
            "a place at the table), and ties on points by net strokes per hole. "
            f"{handicaps.HANDICAP_RULE}"
        )
    return rule


def _standings(season: Season, before: date | None = None) -> list[StandingRow]:
    league = season.league
    rows: dict[int, StandingRow] = {}
    cards = list(_season_cards(season, before))
    nights = LeagueNight.objects.filter(pk__in={card.night_id for card in cards})
    scoring = Scoring(league, cards, nights)
    credit = credited_to(league, cards)
    absences = list(
        Absence.objects.filter(night__in=nights).exclude(night__substitutes__member=F("player"))
    )
    people = Player.objects.in_bulk(
        set(credit.values()) | {absence.player_id for absence in absences} - {None}
    )

    def row_of(player_id: int) -> StandingRow:
        if player_id not in rows:
            rows[player_id] = StandingRow(player=people[player_id], by_net=league.by_net)
        return rows[player_id]

    played: dict[int, set[int]] = defaultdict(set)
    for card in cards:
        owner = credit[card.pk]
        if owner is None:
            continue
        row = row_of(owner)
        row.matches += 1
        row.holes += card.regulation_holes
        row.strokes += card.total
        row.net_strokes += scoring.net_total(card)
        row.wins += scoring.place(card) == 1
        row.points += scoring.points(card)
        played[owner].add(card.night_id)
    # Nights missed earn what the league says, the average from the nights played.
    averages = {
        pk: Fraction(row.points, len(played[pk])) if played[pk] else Fraction(0)
        for pk, row in rows.items()
    }
    for absence in absences:
        row = row_of(absence.player_id)
        average = averages.get(absence.player_id, Fraction(0))
        if absence.kind == Absence.Kind.BYE:
            earned = missed_points(league.bye_points, league.bye_fixed_points, average)
            row.byes += 1
        else:
            row.absences += 1
            earned = 0
            if absence.kind == Absence.Kind.NOTICE or not league.absence_needs_notice:
                earned = missed_points(league.absence_points, league.absence_fixed_points, average)
        row.missed_points += earned
        row.points += earned
    ordered = sorted(rows.values(), key=StandingRow.sort_key)
    for index, row in enumerate(ordered):
        if index and row.level_key() == ordered[index - 1].level_key():
            row.place = ordered[index - 1].place
        else:
            row.place = index + 1
    return ordered


def season_standings(season: Season, before: date | None = None) -> list[StandingRow]:
    """The season's standings, with each player's movement since the previous night
    (`before` a date: as they stood before it, without movement).

    Only finished tables count, and only people (bots are not ranked). See
    `TIE_BREAK_RULE` for the order. `movement` is how many places a player rose
    (negative: fell) since the standings before the latest night with results;
    `is_new` marks a player who had no result before it.
    """
    if season.is_closed:
        return _frozen_standings(season)
    if before is not None:
        return _standings(season, before)
    rows = _standings(season)
    dates = sorted(
        set(
            NightTable.objects.filter(
                night__season=season, table__status=Table.Status.FINISHED
            ).values_list("night__date", flat=True)
        )
    )
    if len(dates) < 2:
        return rows
    before = {row.player.pk: row.place for row in _standings(season, before=dates[-1])}
    for row in rows:
        if row.player.pk in before:
            row.movement = before[row.player.pk] - row.place
        else:
            row.is_new = True
    return rows


def _frozen_standings(season: Season) -> list[StandingRow]:
    return [
        StandingRow(
            player=line.player,
            matches=line.matches,
            holes=line.holes,
            strokes=line.strokes,
            wins=line.wins,
            points=line.points,
            place=line.place,
        )
        for line in FrozenStanding.objects.filter(season=season).select_related("player")
    ]


def champions(season: Season) -> list[Player]:
    """Whoever stood first in a closed season's standings (several when level)."""
    return [
        line.player
        for line in FrozenStanding.objects.filter(season=season, place=1).select_related("player")
    ]

"""Reads of standings: a season's, with each player's movement, its champions, and the
rules that order them, in words.

Standings add up the stored figures of the season's cards (`CardResult`, kept by the
writes that change them, so a correction shows at once): a few sums over the season,
whatever the league's history. A closed season's are read as they were frozen.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from django.db.models import Count, F, Q, Sum

from games.engine.match import HOLES

from ..attendance.selectors import missed_points
from ..duplicate import matchpoints as duplicate
from ..handicaps import selectors as handicaps
from ..handicaps.net import net_strokes
from ..models import Absence, FrozenStanding, League, Player, Season
from .models import CardResult
from .places import place_in_order

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
    played = CardResult.objects.filter(night_table__night__season=season)
    if before is not None:
        played = played.filter(night_table__night__date__lt=before)
    results = played.filter(counts_for__isnull=False)
    # A night counts its absences once it has results.
    absences = Absence.objects.filter(night__in=played.values("night_table__night")).exclude(
        night__substitutes__member=F("player")
    )
    # Sums by player; the handicaps by player and denominator, so that net strokes stay
    # exact. Handicaps have a denominator of their own almost every night: that read
    # is kept to plain rows of three numbers.
    sums = results.values("counts_for_id").annotate(
        matches=Count("pk"),
        holes=Sum("holes"),
        strokes=Sum("scorecard__total"),
        wins=Count("pk", filter=Q(place=1)),
        points=Sum("points"),
    )
    handicap_sums = (
        results.values("counts_for_id", "handicap_denominator")
        .annotate(numerators=Sum("handicap_numerator"))
        .values_list("counts_for_id", "handicap_denominator", "numerators")
        .order_by()
    )
    nights = dict(
        results.values("counts_for_id")
        .annotate(nights=Count("night_table__night", distinct=True))
        .values_list("counts_for_id", "nights")
    )
    absences = list(absences.values_list("player_id", "kind"))
    people = Player.objects.in_bulk(set(nights) | {player for player, _kind in absences})
    rows: dict[int, StandingRow] = {}

    def row_of(player_id: int) -> StandingRow:
        if player_id not in rows:
            rows[player_id] = StandingRow(player=people[player_id], by_net=league.by_net)
        return rows[player_id]

    for line in sums:
        row = row_of(line["counts_for_id"])
        row.matches = line["matches"]
        row.holes = line["holes"]
        row.strokes = line["strokes"]
        row.wins = line["wins"]
        row.points = line["points"]
    handicaps: dict[int, dict[int, int]] = defaultdict(dict)  # numerators by denominator
    for player_id, denominator, numerators in handicap_sums:
        handicaps[player_id][denominator] = numerators
    # Net strokes add up: the sum of each card's is the strokes' less the handicaps'
    # (added over their common denominator, in whole numbers).
    for player_id, by_denominator in handicaps.items():
        common = math.lcm(*by_denominator)
        total = sum(n * (common // d) for d, n in by_denominator.items())
        row = rows[player_id]
        row.net_strokes = net_strokes(row.strokes, HOLES, Fraction(total, common))
    # Nights missed earn what the league says, the average from the nights played.
    averages = {
        pk: Fraction(row.points, nights[pk]) if nights.get(pk) else Fraction(0)
        for pk, row in rows.items()
    }
    for player_id, kind in absences:
        row = row_of(player_id)
        average = averages.get(player_id, Fraction(0))
        if kind == Absence.Kind.BYE:
            earned = missed_points(league.bye_points, league.bye_fixed_points, average)
            row.byes += 1
        else:
            row.absences += 1
            earned = 0
            if kind == Absence.Kind.NOTICE or not league.absence_needs_notice:
                earned = missed_points(league.absence_points, league.absence_fixed_points, average)
        row.missed_points += earned
        row.points += earned
    ordered = sorted(rows.values(), key=StandingRow.sort_key)
    for row, place in zip(ordered, place_in_order(ordered, StandingRow.level_key), strict=True):
        row.place = place
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
    dates = (
        CardResult.objects.filter(night_table__night__season=season)
        .order_by("-night_table__night__date")
        .values_list("night_table__night__date")
    )
    dates = list(dates.distinct()[:2])
    if len(dates) < 2:
        return rows
    before = {row.player.pk: row.place for row in _standings(season, before=dates[0][0])}
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

"""Handicaps: how many strokes a hole a player usually takes beyond the league's mean.

A player's handicap for a night is worked out from the finished league holes played
before it, so nothing that night moves it, and frozen when the night is seated
(`services.freeze`), or when a result of the night is first recorded for a player seated
without one: a correction to an earlier night afterwards leaves it, and the night's net
results, as they were. Only holes whose result moves their player's handicap count
(`attendance.selectors.rated_cards`: not a guest's in a member's name, for one).

`worked_out` reads the stored figures of the cards before the night (a few small
queries, whatever the league's history).

    handicap = mean of the best 10 of the player's last 20 holes
               - the league's mean strokes per hole (every person's holes)

With fewer than 20 holes the best half of them (rounded up) count; a player with no
holes yet plays off 0. Net strokes for a match are its strokes less nine times the
handicap (one per regulation hole); on a deal, the strokes less the handicap.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from fractions import Fraction

from django.db.models import F, Q, Sum, Window
from django.db.models.functions import RowNumber

from games.engine.match import HOLES
from games.models import ScorecardHole

from ..models import League, LeagueNight
from ..standings.models import CardResult

RECENT = 20
BEST = 10

HANDICAP_RULE = (
    f"A handicap is the mean of a player's best {BEST} of their last {RECENT} league holes "
    f"before the night (the best half, with fewer), less the league's mean strokes per hole "
    f"over the same holes; a newcomer plays off 0. It is frozen when the night is seated, "
    f"so a later correction to an earlier night leaves it. Net strokes for a match are its "
    f"strokes less {HOLES} times the handicap."
)


def handicap(recent: Sequence[int], league_mean: Fraction | None) -> Fraction:
    """The handicap from a player's holes (oldest first) and the league's mean."""
    last = list(recent)[-RECENT:]
    if not last or league_mean is None:
        return Fraction(0)
    best = sorted(last)[: min(BEST, math.ceil(len(last) / 2))]
    return Fraction(sum(best), len(best)) - league_mean


def worked_out(
    league: League, players: Iterable[int], night: LeagueNight | None = None
) -> dict[int, Fraction]:
    """The players' handicaps (by id) worked out from the rated holes before `night`
    (None: every hole so far, the next night's), from the stored card figures."""
    results = CardResult.objects.filter(night_table__night__season__league=league, rated=True)
    if night is not None:
        results = results.filter(
            Q(night_table__night__date__lt=night.date)
            | Q(night_table__night__date=night.date, night_table__night_id__lt=night.pk)
        )
    totals = results.aggregate(strokes=Sum("scorecard__total"), holes=Sum("holes"))
    mean = Fraction(totals["strokes"], totals["holes"]) if totals["holes"] else None
    players = set(players)
    # Each player's last RECENT holes, newest first, in one read.
    night = "scorecard__table__night_table__night"
    newest_first = [
        F(f"{night}__date").desc(),
        F(f"{night}_id").desc(),
        F("scorecard__table_id").desc(),
        F("number").desc(),
    ]
    rows = (
        ScorecardHole.objects.filter(
            scorecard__league_result__in=results.filter(scorecard__player__in=players),
            number__lte=HOLES,
        )
        .annotate(
            back=Window(
                RowNumber(), partition_by=[F("scorecard__player_id")], order_by=newest_first
            ),
        )
        .filter(back__lte=RECENT)
        .values_list("scorecard__player_id", "back", "strokes")
    )
    recent: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for player, back, strokes in rows:
        recent[player].append((back, strokes))
    return {
        player: handicap([strokes for _back, strokes in sorted(recent[player], reverse=True)], mean)
        for player in players
    }


def frozen(night: LeagueNight) -> dict[int, Fraction]:
    """The night's frozen handicaps by player id (a player without one plays off 0)."""
    return {
        player: Fraction(numerator, denominator)
        for player, numerator, denominator in night.handicaps.values_list(
            "player_id", "numerator", "denominator"
        )
    }


def display(value: Fraction | None) -> str:
    """A handicap as shown: one decimal, with a plus sign over 0."""
    if value is None:
        return "–"
    return f"{float(value):+.1f}" if value else "0.0"

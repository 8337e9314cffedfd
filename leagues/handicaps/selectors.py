"""Handicaps: how many strokes a hole a player usually takes beyond the league's mean.

A player's handicap for a night is worked out from the finished league holes played
before it, so nothing that night moves it, and frozen when the night is seated
(`services.freeze`), or when a result of the night is first recorded for a player seated
without one: a correction to an earlier night afterwards leaves it, and the night's net
results, as they were. Only holes whose result moves their player's handicap count
(`attendance.selectors.rated_cards`: not a guest's in a member's name, for one).

`worked_out` reads the stored figures: the league's mean from its players' figures, and
each player's latest cards (a few small queries).

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

from games.engine.match import HOLES
from games.models import ScorecardHole

from ..models import League, LeagueNight
from ..standings.models import CardResult, PlayerFigures

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
    (None: every hole so far, the next night's), from the stored card figures: the
    league's mean from its players' figures when no card comes on or after `night` (as
    when it is seated in turn), and each player's last holes from their latest cards."""
    results = CardResult.objects.filter(night_table__night__season__league=league, rated=True)
    if night is not None:
        before = Q(night_table__night__date__lt=night.date) | Q(
            night_table__night__date=night.date, night_table__night_id__lt=night.pk
        )
        later = results.exclude(before).exists()
        results = results.filter(before)
    if night is None or not later:
        mean = league_mean(league)
    else:
        totals = results.aggregate(strokes=Sum("strokes"), holes=Sum("holes"))
        mean = Fraction(totals["strokes"], totals["holes"]) if totals["holes"] else None
    players = set(players)
    # Each player's latest cards, newest first, as far back as their last RECENT holes
    # go: a card whose newer cards hold fewer than RECENT holes.
    night_of = "night_table__night"
    newest_first = [
        F(f"{night_of}__date").desc(),
        F(f"{night_of}_id").desc(),
        F("scorecard__table_id").desc(),
    ]
    cards = (
        results.filter(scorecard__player__in=players)
        .annotate(
            reach=Window(
                Sum("holes"), partition_by=[F("scorecard__player_id")], order_by=newest_first
            )
        )
        .filter(reach__lt=RECENT + F("holes"))
        .values_list("scorecard_id", "scorecard__player_id", "reach")
    )
    newer = {card: (player, reach) for card, player, reach in cards}
    holes = ScorecardHole.objects.filter(scorecard_id__in=list(newer), number__lte=HOLES)
    recent: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for card, number, strokes in holes.values_list("scorecard_id", "number", "strokes").order_by():
        player, reach = newer[card]
        recent[player].append((reach, -number, strokes))
    return {
        player: handicap(
            [strokes for *_order, strokes in sorted(recent[player])[:RECENT]][::-1], mean
        )
        for player in players
    }


def league_mean(league: League) -> Fraction | None:
    """The league's mean strokes a hole over every rated card, from its players'
    figures (`PlayerFigures`): one query, however long the league's history."""
    totals = PlayerFigures.objects.filter(league=league).aggregate(
        strokes=Sum("rated_strokes"), holes=Sum("rated_holes")
    )
    return Fraction(totals["strokes"], totals["holes"]) if totals["holes"] else None


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

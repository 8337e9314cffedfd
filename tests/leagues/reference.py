"""The league's figures worked out from scratch, from every scorecard and hole, as the
site did before it kept them: the reference the stored figures are checked against."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from fractions import Fraction

from games.engine.match import HOLES
from games.models import ScorecardHole, Table
from leagues.handicaps.selectors import handicap
from leagues.models import League, LeagueNight, NightHandicap


def by_night(
    league: League, rated: Collection[int] | None = None
) -> dict[int | None, dict[int, Fraction]]:
    """Every night's handicaps by player id, worked out from scratch: frozen when the
    night was seated, else from the holes of the nights before it; under `None` the
    handicaps from every hole so far (the next night's). `rated`: the ids of the cards
    whose holes count (None: every person's).

    A player without an entry plays off 0. One read of the league's holes.
    """
    holes = (
        ScorecardHole.objects.filter(
            scorecard__table__night_table__night__season__league=league,
            scorecard__table__status=Table.Status.FINISHED,
            scorecard__player__isnull=False,
            number__lte=HOLES,
        )
        .order_by(
            "scorecard__table__night_table__night__date",
            "scorecard__table__night_table__night_id",
            "scorecard__table_id",
            "number",
        )
        .values_list("scorecard__table__night_table__night_id", "scorecard__player_id", "strokes")
    )
    if rated is not None:
        holes = holes.filter(scorecard_id__in=list(rated))
    played: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for night_id, player_id, strokes in holes:
        played[night_id].append((player_id, strokes))
    nights = LeagueNight.objects.filter(season__league=league).order_by("date", "pk")
    history: dict[int, list[int]] = defaultdict(list)
    total, count = 0, 0
    result = {}
    for night in nights.values_list("pk", flat=True):
        mean = Fraction(total, count) if count else None
        result[night] = {player: handicap(strokes, mean) for player, strokes in history.items()}
        for player_id, strokes in played.get(night, []):
            history[player_id].append(strokes)
            total += strokes
            count += 1
    mean = Fraction(total, count) if count else None
    result[None] = {player: handicap(strokes, mean) for player, strokes in history.items()}
    frozen = NightHandicap.objects.filter(night__season__league=league).values_list(
        "night_id", "player_id", "numerator", "denominator"
    )
    for night_id, player_id, numerator, denominator in frozen:
        result[night_id][player_id] = Fraction(numerator, denominator)
    return result

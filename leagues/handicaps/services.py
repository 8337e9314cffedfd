"""Writes of handicaps: a night's handicaps frozen when it is seated (see `selectors`
for how a handicap is worked out)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ..models import LeagueNight, NightHandicap
from .selectors import by_night


def freeze(night: LeagueNight, players: Iterable[int]) -> None:
    """Store the handicaps of the players (ids) seated for `night`, as they stand now.

    A player's handicap once frozen for the night stays: seating the night again does
    not work it out afresh from holes corrected since.
    """
    league = night.season.league
    worked_out = by_night(league)[night.pk]
    NightHandicap.objects.bulk_create(
        [
            NightHandicap(
                night=night,
                player_id=player,
                numerator=value.numerator,
                denominator=value.denominator,
            )
            for player in players
            for value in [worked_out.get(player, Fraction(0))]
        ],
        ignore_conflicts=True,
    )

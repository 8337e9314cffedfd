"""Writes of handicaps: a night's handicaps frozen when it is seated (see `selectors`
for how a handicap is worked out)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ..models import LeagueNight, NightHandicap
from .selectors import frozen, worked_out


def freeze(night: LeagueNight, players: Iterable[int]) -> dict[int, Fraction]:
    """Store the handicaps of the players (ids) seated for `night`, as they stand now,
    and return the night's handicaps of those players.

    A player's handicap once frozen for the night stays: seating the night again does
    not work it out afresh from holes corrected since.
    """
    held = frozen(night)
    players = set(players)
    missing = players - held.keys()
    if not missing:
        return {player: held[player] for player in players}
    new = worked_out(night.season.league, missing, night)
    NightHandicap.objects.bulk_create(
        [
            NightHandicap(
                night=night,
                player_id=player,
                numerator=value.numerator,
                denominator=value.denominator,
            )
            for player, value in new.items()
        ],
        ignore_conflicts=True,
    )
    return {**{player: held[player] for player in players - missing}, **new}

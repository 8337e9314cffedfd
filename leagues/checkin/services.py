"""Writes of check-in: a member checks in to tonight's night, or takes it back, until
the night is seated.

Each holds the season's row first (`hold_season`), as seating does: two check-ins at
once go one after the other, and a check-in racing the seating either comes first (and
is seated) or sees the tables and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction

from games import announce

from ..locks import hold_season
from ..models import Absence, CheckIn, LeagueNight, Membership, Player
from ..news import send_arrivals_changed
from ..teams.selectors import left_out_of_line_up
from ..words import possessive
from .selectors import closed_reason


def arrivals_group(night_id: int) -> str:
    """The channel-layer group of a night's pages open on its arrivals."""
    return f"night_arrivals_{night_id}"


def announce_arrivals(night_id: int) -> None:
    """After the commit, tell the night's open pages that who is here changed
    (`leagues.news.arrivals_changed`, connected in `leagues.signals`)."""
    announce.group_changed(arrivals_group(night_id), {"type": "arrivals.changed"})


@dataclass(frozen=True)
class Arrival:
    """What a check-in did: the check-in, whether it was there already, and the absence
    it took back (its kind's words), if the member had been marked away."""

    check_in: CheckIn
    again: bool
    was_away: str = ""


def _require_open_to(night: LeagueNight, player: Player) -> None:
    club = night.season.league.club
    if not Membership.objects.filter(club=club, player=player).exists():
        raise ValidationError(
            f"Only members of {club.name} can check in: ask an organiser to add you."
        )
    reason = closed_reason(night)
    if reason:
        raise ValidationError(reason)


@transaction.atomic
def check_in(*, night: LeagueNight, player: Player) -> Arrival:
    """Check `player` in to `night`: they are present, ready to be seated.

    Only a member of the league's club, on the night's day, before it is seated. Twice
    is harmless: the first check-in stands, and so does whatever the organiser did
    since. A member marked away who comes after all is no longer away: the absence is
    taken back, and `was_away` says what it was. A member for whom a substitute is
    named is refused: the organiser decides who plays. So is a member whose team set a
    line-up for the night without them: the line-up says who plays for the team.
    """
    hold_season(night.season)
    _require_open_to(night, player)
    substitute = night.substitutes.filter(member=player).select_related("player").first()
    if substitute is not None:
        raise ValidationError(
            f"{substitute.name} plays for you tonight: ask an organiser to remove the "
            "substitute first."
        )
    left_out = left_out_of_line_up(night, player)
    if left_out is not None:
        raise ValidationError(
            f"{possessive(left_out.name)} line-up tonight leaves you out: ask your captain (or an "
            "organiser) to put you in it."
        )
    arrival, created = CheckIn.objects.get_or_create(night=night, player=player)
    if not created:
        # The first check-in stands, and so does what the organiser did since.
        return Arrival(check_in=arrival, again=True)
    night.players.add(player)
    send_arrivals_changed(night.pk)
    absence = night.absences.filter(player=player).exclude(kind=Absence.Kind.BYE).first()
    was_away = ""
    if absence is not None:
        was_away = absence.get_kind_display()
        absence.delete()
    return Arrival(check_in=arrival, again=False, was_away=was_away)


@transaction.atomic
def undo_check_in(*, night: LeagueNight, player: Player) -> bool:
    """Take back `player`'s check-in to `night` (and their place among those present)
    until the night is seated. Whether there was one to take back."""
    hold_season(night.season)
    _require_open_to(night, player)
    deleted, _ = CheckIn.objects.filter(night=night, player=player).delete()
    if deleted:
        night.players.remove(player)
        send_arrivals_changed(night.pk)
    return bool(deleted)

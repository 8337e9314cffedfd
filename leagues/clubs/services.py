"""Writes to a club: its members and their roles, and its new leagues (organisers only)."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError

from ..guards import require_organiser
from ..models import Club, League, Membership, Player
from .models import LEAGUE_RULES


def add_member(
    *, club: Club, player: Player, role: str = Membership.Role.PLAYER, by: Player | None = None
) -> Membership:
    """Add `player` to `club` (or change their role).

    An organiser is made staff, so the admin opens for them (scoped to their clubs).
    """
    if by is not None:
        require_organiser(by, club)
    membership, _ = Membership.objects.update_or_create(
        club=club, player=player, defaults={"role": role}
    )
    if role == Membership.Role.ORGANISER and not player.is_staff:
        player.is_staff = True
        player.save(update_fields=["is_staff"])
    return membership


def create_league(
    *,
    club: Club,
    name: str,
    variant: str,
    points_per_place: str = "6,4,2,0",
    night_points: str = League.NightPoints.PLACE,
    points_from: str = League.Strokes.GROSS,
    house_rules: Sequence[str] = (),
    by: Player,
    **rules: object,
) -> League:
    """A new league of the club (organisers only), whose nights' tables all play
    `house_rules` (keys of its game's house rules).

    `rules` are the league's other settings by field name: what absences and byes earn,
    whom a substitute's result counts for, which bot finishes a member's seat and
    whether that result counts.
    """
    require_organiser(by, club)
    unknown = set(rules) - set(LEAGUE_RULES)
    if unknown:
        raise ValidationError(f"A league has no setting {sorted(unknown)[0]!r}.")
    league = League(
        club=club,
        name=name,
        variant=variant,
        points_per_place=points_per_place,
        night_points=night_points,
        points_from=points_from,
        house_rules=list(house_rules),
        **rules,
    )
    league.full_clean()
    league.save()
    return league

"""Writes to a club: a club made by a player, its members and their roles, and its new
leagues (organisers only). A club always keeps an organiser: the last one can be neither
removed nor made a plain player."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify

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
    with transaction.atomic():
        if role != Membership.Role.ORGANISER:
            _keep_an_organiser(club, player)
        membership, _ = Membership.objects.update_or_create(
            club=club, player=player, defaults={"role": role}
        )
    if role == Membership.Role.ORGANISER and not player.is_staff:
        player.is_staff = True
        player.save(update_fields=["is_staff"])
    return membership


LAST_ORGANISER = "{name} is the club's last organiser: name another organiser first."


def _keep_an_organiser(club: Club, player: Player) -> None:
    """Refuse to leave `club` without an organiser once `player` is no longer one. The
    club's organisers' rows are locked, so that two organisers stepping down at once
    cannot both pass."""
    organisers = list(
        Membership.objects.select_for_update()
        .filter(club=club, role=Membership.Role.ORGANISER)
        .values_list("player_id", flat=True)
    )
    if organisers == [player.pk]:
        raise ValidationError(LAST_ORGANISER.format(name=player.name))


def remove_member(*, club: Club, player: Player, by: Player) -> None:
    """Take `player` out of `club` (organisers only; never the last organiser). Their
    past results stay where they are: a league's pages read its scorecards."""
    require_organiser(by, club)
    with transaction.atomic():
        _keep_an_organiser(club, player)
        deleted, _ = Membership.objects.filter(club=club, player=player).delete()
    if not deleted:
        raise ValidationError(f"{player.name} is not a member of {club.name}.")


def _free_slug(name: str) -> str:
    base = slugify(name)[:40].strip("-")
    if not base or base == "new":  # "new" is the address of the page that makes a club
        base = f"{base or 'club'}-club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    number = 2
    while f"{base}-{number}" in taken:
        number += 1
    return f"{base}-{number}"


def create_club(*, name: str, by: Player) -> Club:
    """A club made by a signed-in player, who is its first organiser. It runs at once,
    or waits for a superuser's approval when the site asks for it
    (FAIRWAY_CLUBS_NEED_APPROVAL)."""
    if not by.is_authenticated or not by.is_active:
        raise ValidationError("Sign in to make a club.")
    name = " ".join(name.split())
    status = Club.Status.PENDING if settings.FAIRWAY_CLUBS_NEED_APPROVAL else Club.Status.ACTIVE
    with transaction.atomic():
        club = Club(name=name, slug=_free_slug(name), status=status)
        club.full_clean()
        club.save()
        Membership.objects.create(club=club, player=by, role=Membership.Role.ORGANISER)
    if not by.is_staff:
        by.is_staff = True
        by.save(update_fields=["is_staff"])
    return club


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

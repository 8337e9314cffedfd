"""A player's role in a club: player, organiser, or none. Every room asks it (who may
see a page, who may change a league), so it sits below them all, beside the models."""

from __future__ import annotations

from .models import Club, Membership, Player


def role_in(player: Player, club: Club) -> str | None:
    """The player's role in `club` ("player" or "organiser"), or None for a non-member.

    A superuser counts as an organiser of every club.
    """
    if not player.is_authenticated:
        return None
    if player.is_superuser:
        return Membership.Role.ORGANISER
    return (
        Membership.objects.filter(club=club, player=player).values_list("role", flat=True).first()
    )


def is_organiser(player: Player, club: Club) -> bool:
    """Whether the player may change the club's leagues."""
    return role_in(player, club) == Membership.Role.ORGANISER

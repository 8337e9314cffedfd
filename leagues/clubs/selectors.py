"""Reads about clubs: the clubs a player belongs to or organises, who may see whom in a
league, and a club's members. A player's role in a club is `leagues.roles`'."""

from __future__ import annotations

from django.db.models import QuerySet

from games.models import Scorecard

from ..models import Club, League, Membership, Player


def clubs_of(player: Player) -> QuerySet[Club]:
    """The clubs a player belongs to (every club for a superuser)."""
    if player.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(memberships__player=player).distinct()


def organised_clubs(player: Player) -> QuerySet[Club]:
    """The clubs a player organises (every club for a superuser)."""
    if player.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__player=player, memberships__role=Membership.Role.ORGANISER
    ).distinct()


def in_league(player: Player, league: League) -> bool:
    """Whether the player belongs to the league: a member of its club, or on its scorecards."""
    return (
        Membership.objects.filter(club_id=league.club_id, player=player).exists()
        or Scorecard.objects.filter(
            player=player, table__night_table__night__season__league=league
        ).exists()
    )


def may_see_player(viewer: Player, person: Player, league: League) -> bool:
    """Whether `viewer` may open `person`'s page in `league`.

    Superusers may; anyone else must belong to the league, and then sees their own
    page and those of the people who belong to it too, no one else's.
    """
    if not viewer.is_authenticated:
        return False
    if viewer.is_superuser:
        return True
    if not in_league(viewer, league):
        return False
    return viewer.pk == person.pk or in_league(person, league)


def club_members(club: Club) -> QuerySet[Player]:
    """The club's members, by name."""
    return Player.objects.filter(memberships__club=club).order_by("display_name", "username")

"""The checks every write of leagues makes first: only a club's organisers change its
leagues (`PermissionDenied` for anyone else), a club waiting for approval or suspended
changes no more, and a closed season changes no more."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError

from .models import Club, Player, Season
from .roles import is_organiser


def require_organiser(by: Player, club: Club) -> None:
    """Refuse `by` unless they organise `club` (a superuser organises every club)."""
    if not is_organiser(by, club):
        raise PermissionDenied("Only the club's organisers may do that.")
    require_active(club)


def require_active(club: Club) -> None:
    """Refuse a change to a club waiting for the site's approval, or suspended."""
    if not club.is_active:
        raise PermissionDenied(club.held_reason)


def require_open(season: Season) -> None:
    """Refuse a change to a closed season: its standings are frozen."""
    if season.is_closed:
        raise ValidationError(
            f"{season.name} is closed: its standings are frozen and its nights stay as they were."
        )

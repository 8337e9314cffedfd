"""Reads of public leagues: a league only if it is public."""

from __future__ import annotations

from ..models import League


def public_league(league_id: int) -> League | None:
    """The league if it is public, else None (for pages read without an account)."""
    return League.objects.filter(pk=league_id, is_public=True).select_related("club").first()

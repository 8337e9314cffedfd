"""Writes of public leagues: an organiser opens a league's results to anyone, or closes them."""

from __future__ import annotations

from ..guards import require_organiser
from ..models import League, Player


def set_league_public(*, league: League, is_public: bool, by: Player) -> League:
    """Open a league's results to anyone without an account, or close them again."""
    require_organiser(by, league.club)
    league.is_public = is_public
    league.save(update_fields=["is_public"])
    return league

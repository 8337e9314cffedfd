"""Writes of calendars: the secret in a player's feed addresses, made once and renewed
on request."""

from __future__ import annotations

import secrets

from ..models import Player


def calendar_token(*, player: Player) -> str:
    """The secret of the player's calendar feeds, made the first time it is asked for."""
    if not player.calendar_token:
        return reset_calendar_token(player=player)
    return player.calendar_token


def reset_calendar_token(*, player: Player) -> str:
    """A new secret for the player's calendar feeds: the old addresses stop working."""
    player.calendar_token = secrets.token_urlsafe(32)
    player.save(update_fields=["calendar_token"])
    return player.calendar_token

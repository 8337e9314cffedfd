"""Writes to a player's own account: the name they show, their email and their mail."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from ..models import Player
from . import selectors


def update_account(
    *,
    player: Player,
    display_name: str,
    email: str,
    email_reminders: bool | None = None,
    email_results: bool | None = None,
) -> Player:
    """Change the name a player shows at tables, the address their mail goes to, and
    whether they get reminders and results by mail (None leaves a choice as it is).

    Cards already written keep the name they were written with. An email address
    another account has (in any case) is refused.
    """
    email = Player.objects.normalize_email(email.strip())
    if selectors.email_in_use(email, other_than=player):
        raise ValidationError({"email": selectors.EMAIL_TAKEN})
    player.display_name = display_name.strip()
    player.email = email
    if email_reminders is not None:
        player.email_reminders = email_reminders
    if email_results is not None:
        player.email_results = email_results
    player.full_clean()
    player.save(update_fields=["display_name", "email", "email_reminders", "email_results"])
    return player

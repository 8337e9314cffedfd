"""Reads about accounts: whether an email address is already another player's."""

from __future__ import annotations

from ..models import Player

EMAIL_TAKEN = "Another account uses that email address. Give an address of your own."


def email_in_use(email: str, *, other_than: Player | None = None) -> bool:
    """Whether an account other than `other_than` has `email`, in any case: an address
    is one player's, so that a password reset or a league's mail reaches one account."""
    if not email:
        return False
    taken = Player.objects.filter(email__iexact=email)
    if other_than is not None and other_than.pk is not None:
        taken = taken.exclude(pk=other_than.pk)
    return taken.exists()

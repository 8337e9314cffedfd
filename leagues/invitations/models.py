"""A club's ways in: its join link, and invitations mailed to one address each.
Models of the `leagues` app, kept in the invitations room; `leagues.models` holds them.

Both carry a secret in their address. Only its SHA-256 is stored
(`secret_links.hash_secret`): the database alone opens no club.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone

from ..clubs.models import Club


class JoinLink(models.Model):
    """The club's one join link: whoever follows it, signed in, becomes a member.

    Renewing it makes a new secret (the old address stops working) and starts its uses
    again; an organiser may give it an expiry and a limit on uses.
    """

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="join_link")
    secret_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.club}'s join link"

    def closed_reason(self, now) -> str:
        """Why the link lets no one in now (empty when it does)."""
        if self.expires_at is not None and now >= self.expires_at:
            return "This join link has expired: ask the club's organisers for a new one."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This join link has been used as often as it may be: ask for a new one."
        return ""


class Invitation(models.Model):
    """An invitation mailed to one address; pending until accepted or withdrawn."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    name = models.CharField(max_length=80, blank=True)
    # Empty until its mail is sent: the task that mails it makes the secret, so that
    # the task queue never holds one.
    secret_hash = models.CharField(max_length=64, blank=True, db_index=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["club", "email"]
        constraints = [
            models.UniqueConstraint(
                "club",
                Lower("email"),
                condition=Q(accepted_at__isnull=True, withdrawn_at__isnull=True),
                name="one_pending_invitation_an_address",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.email} to {self.club}"

    @property
    def is_pending(self) -> bool:
        return self.accepted_at is None and self.withdrawn_at is None

    def closed_reason(self, now) -> str:
        """Why the invitation lets no one in now (empty when it does)."""
        if self.withdrawn_at is not None:
            return "This invitation was withdrawn by the club's organisers."
        if self.accepted_at is not None:
            return "This invitation has been used already."
        if self.expires_at is not None and now >= self.expires_at:
            return "This invitation has expired: ask the club's organisers for a new one."
        return ""

"""The link of a night's board. Models of the `leagues` app, kept in the board room;
`leagues.models` holds them too."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse


def new_board_token() -> str:
    return secrets.token_urlsafe(32)


class NightBoard(models.Model):
    """The secret in the address of a night's board: whoever has it sees the board
    without signing in, until an organiser revokes it (a new link revokes the old)."""

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="boards"
    )
    token = models.CharField(max_length=43, unique=True, default=new_board_token)
    revoked = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["night", "-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["night"], condition=Q(revoked=False), name="one_board_link_per_night"
            ),
        ]

    def __str__(self) -> str:
        return f"Board of {self.night}{' (revoked)' if self.revoked else ''}"

    def get_absolute_url(self) -> str:
        return reverse("leagues:board", args=[self.token])

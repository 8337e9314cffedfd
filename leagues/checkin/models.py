"""A member's check-in to a league night: they are at the club, ready to be seated."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class CheckIn(models.Model):
    """A member who said "I'm here" on a night, and when; one a member a night.

    Checking in marks the member present (the night's `players`); taking it back, before
    the night is seated, takes them off again.
    """

    # By name: leagues.models takes this model in, so this room cannot import it.
    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="check_ins"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="check_ins"
    )
    checked_in_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "checked_in_at", "pk"]
        verbose_name = "check-in"
        verbose_name_plural = "check-ins"
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="unique_check_in"),
        ]

    def __str__(self) -> str:
        return f"{self.player} checked in to {self.night}"

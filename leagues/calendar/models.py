"""The mail sent about a night, kept so that none is sent twice. A model of the `leagues`
app, kept in the calendar room; `leagues.models` holds it too."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class NightNotice(models.Model):
    """A mail sent to a member about a night, kept so that none is sent twice."""

    class Kind(models.TextChoices):
        REMINDER = "reminder", "Reminder"
        RESULTS = "results", "Results"

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="notices"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="night_notices"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "kind", "player"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player", "kind"], name="unique_night_notice"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.night} to {self.player}"

"""A closed season's standings, as they stood when it was closed. A model of the
`leagues` app, kept in the standings room; `leagues.models` holds it too."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FrozenStanding(models.Model):
    """A line of a closed season's standings, as they stood when it was closed."""

    season = models.ForeignKey(
        "leagues.Season", on_delete=models.CASCADE, related_name="frozen_standings"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="frozen_standings"
    )
    place = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    holes = models.PositiveIntegerField()
    strokes = models.IntegerField()
    wins = models.PositiveIntegerField()
    points = models.IntegerField()
    order = models.PositiveIntegerField(help_text="The line's position in the standings.")

    class Meta:
        ordering = ["season", "order"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="unique_frozen_standing"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.place} in {self.season}"

"""A player's handicap for a night, frozen when the night is seated. A model of the
`leagues` app, kept in the handicaps room; `leagues.models` holds it too."""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.db import models
from django.db.models import Q


class NightHandicap(models.Model):
    """A player's handicap for a night, frozen when the night is seated: a correction to
    an earlier night changes the holes it was worked out from, not the night's result.

    Kept as a fraction (numerator over denominator), as it was worked out."""

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="handicaps"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="night_handicaps"
    )
    numerator = models.IntegerField()
    denominator = models.PositiveIntegerField()
    frozen_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "player"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="unique_night_handicap"),
            models.CheckConstraint(
                condition=Q(denominator__gt=0), name="night_handicap_denominator"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.value} on {self.night}"

    @property
    def value(self) -> Fraction:
        return Fraction(self.numerator, self.denominator)

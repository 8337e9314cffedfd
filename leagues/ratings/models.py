"""A league's ratings: each player's current one, and its history match by match.

Models of the `leagues` app, kept in the ratings room; `leagues.models` holds them too.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Rating(models.Model):
    """A player's current openskill rating in a league (rebuilt from the matches)."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["league", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="unique_rating"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ordinal:.1f} in {self.league}"

    @property
    def ordinal(self) -> float:
        """The conservative rating shown and ranked by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """A player's rating after one rated match: the history behind `Rating`."""

    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="rating_changes"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    night_table = models.ForeignKey(
        "leagues.NightTable", on_delete=models.CASCADE, related_name="rating_changes"
    )
    sequence = models.PositiveIntegerField(help_text="The match's place in the league's order.")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        ordering = ["league", "sequence", "player"]
        constraints = [
            models.UniqueConstraint(fields=["night_table", "player"], name="unique_rating_change"),
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.night_table}: {self.ordinal:.1f}"

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def ordinal_before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

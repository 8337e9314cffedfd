"""A league's seasons and their nights. Models of the `leagues` app, kept in the seasons
room; `leagues.models` holds them too."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from games.text import validate_shown


class Season(models.Model):
    """A stretch of a league's nights with its own standings."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80, validators=[validate_shown])
    start = models.DateField()
    end = models.DateField()
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the season was closed; its standings are frozen."
    )
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["league", "-start"]

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"

    def clean(self) -> None:
        if self.start and self.end and self.end < self.start:
            raise ValidationError({"end": "A season ends on or after the day it starts."})

    def get_absolute_url(self) -> str:
        return reverse("leagues:season", args=[self.pk])

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class LeagueNight(models.Model):
    """One evening of a season: the players present and the tables they sat at."""

    season = models.ForeignKey("leagues.Season", on_delete=models.CASCADE, related_name="nights")
    date = models.DateField()
    start_time = models.TimeField(
        null=True, blank=True, help_text="When play starts, in the club's time zone."
    )
    venue = models.CharField(
        max_length=200,
        blank=True,
        validators=[validate_shown],
        help_text="Where the night is played: a room, an address.",
    )
    duplicate_deals = models.BooleanField(
        default=False,
        help_text="Tables with the same number of seats play the same deals, hole by hole.",
    )
    players = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="league_nights"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "date", "pk"]

    def __str__(self) -> str:
        return f"{self.season}, {self.date:%d %b %Y}"

    def get_absolute_url(self) -> str:
        return reverse("leagues:night", args=[self.pk])

"""A league's seasons and their nights. Models of the `leagues` app, kept in the seasons
room; `leagues.models` holds them too."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Case, F, Q, When
from django.db.models.functions import TruncDate
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from games.text import validate_shown

#: The times per move an online round may give: a turn-based table's, as its lobby offers.
ROUND_MOVE_TIMES = [
    (value, label.removeprefix("Turn-based: ")) for value, label in Table.MoveTime.choices if value
]


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


class LeagueNightQuerySet(models.QuerySet):
    def with_last_day(self) -> LeagueNightQuerySet:
        """The nights, each with `last_day`: the day it is over by, in the current time
        zone. An online round is played until its due time, which may be days after its
        date (its opening's day); any other night (and a round not yet given a due time)
        is over by its date. Said here alone, so that the calendar and the morning-after
        mail cannot disagree."""
        return self.annotate(
            last_day=Case(
                When(Q(online=True, due_at__isnull=False), then=TruncDate("due_at")),
                default=F("date"),
                output_field=models.DateField(),
            )
        )


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
    online = models.BooleanField(
        default=False,
        verbose_name="an online round",
        help_text="Played at turn-based live tables between its opening and its due time; "
        "at the due time the league's stand-in bot plays every unfinished table out.",
    )
    move_time = models.PositiveIntegerField(
        choices=ROUND_MOVE_TIMES,
        null=True,
        blank=True,
        verbose_name="time per move",
        help_text="An online round's: each player's time for a move.",
    )
    opens_at = models.DateTimeField(
        null=True,
        blank=True,
        verbose_name="opens",
        help_text="When an online round's tables tee off.",
    )
    due_at = models.DateTimeField(
        null=True,
        blank=True,
        verbose_name="due",
        help_text="When an online round's unfinished tables are played out by the stand-in bot.",
    )
    opened_at = models.DateTimeField(
        null=True, blank=True, editable=False, help_text="When the online round's tables teed off."
    )
    played_out_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="When the online round's unfinished tables were played out.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueNightQuerySet.as_manager()

    class Meta:
        ordering = ["season", "date", "pk"]

    def __str__(self) -> str:
        return f"{self.season}, {self.date:%d %b %Y}"

    def clean_fields(self, exclude=None) -> None:
        if self.online and self.opens_at is not None:
            self.date = timezone.localdate(self.opens_at)  # a round's date: its opening's day
        super().clean_fields(exclude=exclude)

    def clean(self) -> None:
        """An online round has a time per move, an opening and a due time after it, far
        enough apart for a move; its date is its opening's day."""
        if not self.online:
            return
        errors = {}
        if not self.move_time:
            errors["move_time"] = "Choose the time per move of the online round."
        if self.opens_at is None:
            errors["opens_at"] = "Give the day and time the online round opens."
        if self.due_at is None:
            errors["due_at"] = "Give the day and time the online round is due."
        if not errors and self.due_at <= self.opens_at:
            errors["due_at"] = "An online round is due after it opens."
        elif not errors and (self.due_at - self.opens_at).total_seconds() < self.move_time:
            errors["move_time"] = (
                f"{self.get_move_time_display()} does not fit between the opening and the "
                "due time: choose a shorter time per move or a later due time."
            )
        if errors:
            raise ValidationError(errors)

    def get_absolute_url(self) -> str:
        return reverse("leagues:night", args=[self.pk])

    @property
    def pace(self) -> dict | None:
        """An online round's tables' pace, as `games.lobby.create_table` takes it."""
        if not self.online:
            return None
        return {"move_time": self.move_time, "playing_hours": None, "away_days": 0}

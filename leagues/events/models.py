"""A club's events: Swiss, knockout or round robin over rounds of tables. Models of the
`leagues` app, kept in the events room; `leagues.models` holds them too."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.urls import reverse

from games.models import PlaysByRules, Table, variant_choices
from games.text import validate_shown

from .. import bounds

#: The longest round of a turn-based event, in days.
MAX_ROUND_DAYS = 60


class Event(PlaysByRules, models.Model):
    """An event a club's organiser runs: its format, game, tables, entry and rounds."""

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss: a set number of rounds, players of like scores meet"
        KNOCKOUT = "knockout", "Knockout: the best of each table go through"
        ROUND_ROBIN = "round_robin", "Round robin: everyone meets everyone"

    class TableKind(models.TextChoices):
        LIVE = "live", "Played live"
        PAPER = "hand", "Played with a physical deck (paper results)"

    class Status(models.TextChoices):
        ENTRY = "entry", "Taking entries"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="events")
    league = models.ForeignKey(
        "leagues.League",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        help_text="Optional: a knockout is seeded by this league's ratings.",
    )
    name = models.CharField(max_length=80, validators=[validate_shown])
    format = models.CharField(max_length=12, choices=Format.choices, default=Format.SWISS)
    variant = models.CharField(max_length=20, choices=variant_choices, default="play-nine")
    house_rules = models.JSONField(default=list, blank=True)
    seats_per_table = models.PositiveSmallIntegerField(default=4)
    rounds = models.PositiveSmallIntegerField(
        default=3, help_text="Swiss and round robin at tables of more than two."
    )
    advance = models.PositiveSmallIntegerField(
        default=2, help_text="Knockout: how many of each table go through."
    )
    table_kind = models.CharField(max_length=8, choices=TableKind.choices, default=TableKind.PAPER)
    paper_tables = models.PositiveSmallIntegerField(
        default=0, help_text="With live tables: how many of each round's last tables play on paper."
    )
    turn_timer = models.PositiveSmallIntegerField(
        choices=Table.Timer.choices,
        default=Table.Timer.OFF,
        help_text="Live tables: a bot plays the turn of anyone who runs out of time.",
    )
    move_time = models.PositiveIntegerField(
        choices=Table.MoveTime.choices,
        default=Table.MoveTime.LIVE,
        help_text="Live tables: played in one sitting, or turn-based with a time per move.",
    )
    round_days = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, f"A round lasts 1 to {MAX_ROUND_DAYS} days."),
            MaxValueValidator(MAX_ROUND_DAYS, f"A round lasts 1 to {MAX_ROUND_DAYS} days."),
        ],
        help_text="Turn-based rounds: each round's deadline is this many days after it is "
        "seated; its tables unfinished then are played out by the bot.",
    )
    starts_at = models.DateTimeField()
    entry_closes_at = models.DateTimeField()
    late_entries = models.BooleanField(
        default=False, help_text="The organiser may still add players after the cut-off."
    )
    max_entries = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[bounds.entries_cap_low, bounds.entries_cap_high],
        verbose_name="most entries",
        help_text="Entries past it wait in order; a withdrawal lets the first in. Empty: no limit.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ENTRY)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    champion = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="A knockout's winner (a Swiss's or round robin's come from its standings).",
    )

    class Meta:
        ordering = ["-starts_at", "pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"

    def get_absolute_url(self) -> str:
        return reverse("leagues:event", args=[self.pk])

    @property
    def format_name(self) -> str:
        """The format in a word or two: "Swiss", "Round robin"."""
        return self.get_format_display().partition(":")[0]

    @property
    def turn_based(self) -> bool:
        """Rounds played over days at turn-based tables, each with a deadline."""
        return self.move_time > 0

    @property
    def pace(self) -> dict | None:
        """What a turn-based round's tables are created with (`lobby.create_table`'s pace
        keywords); None for tables played in one sitting."""
        return {"move_time": self.move_time} if self.turn_based else None

    def round_length(self) -> timedelta | None:
        """From a round's seating to its deadline; None when its rounds have none."""
        return timedelta(days=self.round_days) if self.turn_based and self.round_days else None

    def pace_errors(self) -> dict[str, str]:
        """Why the event's pace cannot be run, by field: turn-based rounds are played
        at live tables, with no turn timer, over a round of at least a move's time."""
        errors: dict[str, str] = {}
        if not self.turn_based:
            if self.round_days:
                errors["round_days"] = (
                    "A round's length in days is for turn-based rounds: choose a time "
                    "per move, or leave the length empty."
                )
            return errors
        if self.table_kind != self.TableKind.LIVE:
            errors["move_time"] = (
                "Turn-based rounds are played at live tables: choose “Played live”."
            )
        elif self.paper_tables:
            errors["paper_tables"] = "A turn-based event plays every table live: none on paper."
        if self.turn_timer:
            errors["turn_timer"] = (
                "A turn-based table has a time per move, not a turn timer: turn the timer off."
            )
        if not self.round_days:
            errors["round_days"] = (
                f"Give each round's length in days (1 to {MAX_ROUND_DAYS}): its deadline."
            )
        elif self.round_days * 86400 < self.move_time:
            days = -(-self.move_time // 86400)
            errors["round_days"] = (
                f"A round is shorter than one move's time: give it at least {days} days."
            )
        return errors

    def clean(self) -> None:
        errors = self.pace_errors()
        if errors:
            raise ValidationError(errors)


class EventEntry(models.Model):
    """A player entered in an event; checked in before round 1, or dropped as a no-show."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_entries"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    late = models.BooleanField(default=False, help_text="Added by an organiser after the cut-off.")
    checked_in_at = models.DateTimeField(null=True, blank=True)
    dropped = models.BooleanField(
        default=False, help_text="Not checked in when round 1 was seated."
    )

    class Meta:
        ordering = ["event", "entered_at", "pk"]
        verbose_name_plural = "event entries"
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_event_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class EventApart(models.Model):
    """Two entrants the organiser keeps apart (family): never at one table if avoidable."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="apart")
    first = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["event", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "first", "second"], name="unique_event_apart"),
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="event_apart_order"),
        ]

    def __str__(self) -> str:
        return f"{self.first} apart from {self.second} in {self.event}"


class EventRound(models.Model):
    """A round of an event, seated by the system; closed once its tables are done or an
    organiser closes it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="event_rounds")
    number = models.PositiveSmallIntegerField()
    byes = models.JSONField(default=list, blank=True, help_text="Player ids sitting out.")
    #: Pairs seated together although asked apart, as [id, id]: no seating avoided it.
    together = models.JSONField(default=list, blank=True)
    repeats = models.PositiveSmallIntegerField(default=0, help_text="Pairs meeting again.")
    seated_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(
        null=True,
        blank=True,
        help_text="A turn-based round's: its tables unfinished then are played out by the bot.",
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Empty when the round closed as its last table finished.",
    )

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="unique_event_round"),
        ]

    def __str__(self) -> str:
        return f"{self.event}, round {self.number}"


class EventTable(models.Model):
    """A table of an event's round: one games.Table, live or on paper. A knockout's
    playoff table seats entrants level at the cut, for `places` places."""

    round = models.ForeignKey(EventRound, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="event_table"
    )
    number = models.PositiveSmallIntegerField()
    playoff_of = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="playoffs"
    )
    places = models.PositiveSmallIntegerField(default=0, help_text="A playoff's places to win.")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="unique_event_table"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, table {self.number}"


class EventNotice(models.Model):
    """A reminder mailed to an entrant before an event, kept so none is sent twice."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "player"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_event_notice"),
        ]

    def __str__(self) -> str:
        return f"Reminder of {self.event} to {self.player}"


class EventWaiting(models.Model):
    """A member waiting for a place in a full event, in order of `position` (lowest
    first): the first is let in when an entrant withdraws, and told by mail."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="waiting")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_waits"
    )
    position = models.PositiveIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="unique_event_waiting"),
        ]

    def __str__(self) -> str:
        return f"{self.player} waiting for {self.event} ({self.position})"

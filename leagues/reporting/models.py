"""A paper table's report: its short code, and the holes its players have entered.

Models of the `leagues` app, kept in the reporting room; `leagues.models` holds them too.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import hole_name
from games.text import validate_shown_lines


class TableReport(models.Model):
    """A paper table's card: the short code its players type (or its QR code opens) to
    report the table's strokes themselves."""

    night_table = models.OneToOneField(
        "leagues.NightTable", on_delete=models.CASCADE, related_name="report"
    )
    code = models.CharField(
        max_length=8,
        unique=True,
        help_text="Printed on the table card; letters and digits that cannot be mistaken.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night_table"]

    def __str__(self) -> str:
        return f"{self.night_table}: code {self.code}"


class ReportedHole(models.Model):
    """One hole of a paper table as its players reported it: every seat's strokes,
    entered by one player and confirmed (or disputed) by another.

    `version` goes up with every change, so that two phones writing the same hole at
    once never lose a stroke: a write made on an older version is refused and shown the
    newer one. `confirmed_strokes` keeps the figures last confirmed, so that a change
    to them is logged as a correction.
    """

    class State(models.TextChoices):
        ENTERED = "entered", "Waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"

    report = models.ForeignKey(TableReport, on_delete=models.CASCADE, related_name="holes")
    number = models.PositiveSmallIntegerField()
    strokes = models.JSONField(
        help_text="Each seat's strokes in seat order; null for a seat that sits out a playoff."
    )
    confirmed_strokes = models.JSONField(null=True, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.ENTERED)
    version = models.PositiveIntegerField(default=1)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who confirmed, disputed or settled the hole.",
    )
    dispute_reason = models.TextField(blank=True, validators=[validate_shown_lines])
    change_reason = models.TextField(
        blank=True,
        validators=[validate_shown_lines],
        help_text="Why confirmed strokes are being changed: the correction's reason.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["report", "number"]
        constraints = [
            models.UniqueConstraint(fields=["report", "number"], name="unique_reported_hole"),
        ]

    def __str__(self) -> str:
        return f"{self.report.night_table}, {self.name}: {self.get_state_display()}"

    @property
    def name(self) -> str:
        return hole_name(self.number)


class ReportEntry(models.Model):
    """One write of a report, as a phone sent it, by the key the phone gave it.

    A phone that lost its connection sends what it kept again when the connection
    returns, without knowing whether the first send arrived: the key makes a second
    send of the same entry answer as the first did and change nothing. `digest` is of
    what was sent (the hole, the kind of write and its figures), so that a key sent
    again with other figures is refused rather than taken for the first.
    """

    class Kind(models.TextChoices):
        ENTER = "enter", "Entered"
        CONFIRM = "confirm", "Confirmed"
        DISPUTE = "dispute", "Disputed"
        SETTLE = "settle", "Settled"

    key = models.UUIDField(unique=True)
    report = models.ForeignKey(TableReport, on_delete=models.CASCADE, related_name="entries")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    digest = models.CharField(max_length=64)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["report", "created_at"]

    def __str__(self) -> str:
        return f"{self.report.night_table}, {hole_name(self.number)}: {self.get_kind_display()}"

"""The audit trail of score corrections, and a scorecard as the leagues' admin sees it.
Models of the `leagues` app, kept in the results room; `leagues.models` holds them too."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Scorecard, hole_name
from games.text import validate_shown_lines


class ScoreCorrection(models.Model):
    """The audit record of a changed hole: old and new strokes, who, when and why.

    A playoff hole that a correction made unnecessary is removed from the card; its
    record keeps the old strokes and has no new ones.
    """

    scorecard = models.ForeignKey(
        "games.Scorecard", on_delete=models.CASCADE, related_name="corrections"
    )
    #: The scorecard's league (its table's night's season's), kept on the record so that
    #: the league's log reads its own rows by one index, however long its history (the
    #: log's index below, which leads with the league, serves the key's lookups too).
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="corrections", db_index=False
    )
    hole_number = models.PositiveSmallIntegerField()
    old_strokes = models.IntegerField()
    new_strokes = models.IntegerField(
        null=True, blank=True, help_text="Empty when the hole was removed from the card."
    )
    reason = models.TextField(validators=[validate_shown_lines])
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="score_corrections",
    )
    corrected_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-corrected_at", "-pk"]
        indexes = [
            # The league's log, newest first: a page of it without sorting the rest.
            models.Index(fields=["league", "-corrected_at", "-id"], name="correction_league_log"),
        ]

    def __str__(self) -> str:
        now = "removed" if self.removed else self.new_strokes
        return f"{self.scorecard.name}, {self.hole_name}: {self.old_strokes} -> {now}"

    @property
    def removed(self) -> bool:
        """Whether the hole was taken off the card (a playoff no longer needed)."""
        return self.new_strokes is None

    @property
    def hole_name(self) -> str:
        return hole_name(self.hole_number)


class LeagueScorecard(Scorecard):
    """A scorecard seen from the leagues: the admin's door to corrections, scoped by club."""

    class Meta:
        proxy = True
        verbose_name = "league scorecard"
        verbose_name_plural = "league scorecards"

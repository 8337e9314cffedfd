"""The standings room's records: each league card's figures as the league scores it,
kept by the writes that change them, and a closed season's standings as they stood when
it was closed. Models of the `leagues` app; `leagues.models` holds them too.

Standings and team standings read `CardResult` rows rather than scoring every
scorecard of a season again, and a player's page reads their `PlayerFigures` rather
than summing every card they played; `leagues.standings.services` writes both, a night
(or one table) at a time, in the same transaction as the result, correction or rule it
follows.
"""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings
from django.db import models

from games.engine.match import HOLES

from ..handicaps.net import net_strokes


class CardResult(models.Model):
    """A person's scorecard at a finished league table, as the league scores it: its
    handicap and place, the points it earns, whom they count for, and whether it moves
    its player's rating and handicap. What the card itself holds (its player, strokes,
    night) is read from the card; its strokes and the spread of its hole scores are
    kept too, as they were when it was scored, for what its player's figures were
    summed from (`PlayerFigures`)."""

    scorecard = models.OneToOneField(
        "games.Scorecard", on_delete=models.CASCADE, related_name="league_result"
    )
    night_table = models.ForeignKey(
        "leagues.NightTable", on_delete=models.CASCADE, related_name="card_results"
    )
    counts_for = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="credited_results",
        help_text="Whom the result counts for in the standings (none: nobody).",
    )
    rated = models.BooleanField(
        help_text="Whether the result moves its player's rating and handicap: only a "
        "result that counts for the person who played it does."
    )
    holes = models.PositiveSmallIntegerField(help_text="Regulation holes on the card.")
    handicap_numerator = models.IntegerField(default=0)
    handicap_denominator = models.PositiveIntegerField(default=1)
    place = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="The place that earned points: net in a league playing net.",
    )
    points = models.IntegerField()
    pairs = models.PositiveSmallIntegerField(
        default=0, help_text="Pairs scored on the card's live holes whose final layouts are known."
    )
    pairs_holes = models.PositiveSmallIntegerField(
        default=0, help_text="Those live holes (none at a paper table)."
    )
    strokes = models.IntegerField(default=0, help_text="The card's total when it was scored.")
    spread = models.JSONField(
        default=dict,
        help_text="How many regulation holes the card scored each score on: "
        '{"strokes": holes}, as when it was scored.',
    )

    def __str__(self) -> str:
        return f"{self.scorecard.name} at {self.night_table}: {self.points} points"

    @property
    def handicap(self) -> Fraction:
        return Fraction(self.handicap_numerator, self.handicap_denominator)

    @property
    def net_total(self) -> Fraction:
        """The card's strokes less nine times the handicap."""
        return net_strokes(self.scorecard.total, HOLES, self.handicap)

    @property
    def win(self) -> bool:
        return self.place == 1


class PlayerFigures(models.Model):
    """A player's figures over every card they played in a league (`CardResult`): the
    player page's totals, kept up to date by the writes of those cards, so that the page
    reads one row however long the player's history."""

    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="player_figures"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_figures"
    )
    played = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    strokes = models.IntegerField(default=0, help_text="The cards' totals, summed.")
    pairs = models.PositiveIntegerField(default=0)
    pairs_holes = models.PositiveIntegerField(default=0)
    spread = models.JSONField(
        default=dict, help_text='Regulation holes by score: {"strokes": holes}.'
    )
    rated_strokes = models.IntegerField(
        default=0, help_text="The totals of the cards that move ratings and handicaps."
    )
    rated_holes = models.PositiveIntegerField(
        default=0, help_text="The regulation holes of those cards."
    )

    class Meta:
        verbose_name_plural = "player figures"
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="unique_player_figures"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {self.played} matches"


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

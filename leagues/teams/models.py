"""Teams of a league, their members and captains, and a team's line-up for a night.
Models of the `leagues` app, kept in the teams room; `leagues.models` holds them too.

`TeamRules` is the league's own settings for teams: `League` is built on it, so they
are the league's fields, edited with the rest of its settings.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q

from games.text import validate_shown

from ..words import possessive

#: The fewest and the most members a team has.
FEWEST_MEMBERS = 2
MOST_MEMBERS = 4


class TeamRules(models.Model):
    """A league's team settings: whether it is a team league, and how a team scores."""

    class TeamScore(models.TextChoices):
        SUM = "sum", "The sum of every line-up member's points"
        BEST = "best", "The sum of the best n line-up members' points"

    team_size = models.PositiveSmallIntegerField(
        default=0,
        validators=[MaxValueValidator(MOST_MEMBERS)],
        verbose_name="team size",
        help_text="0: not a team league. 2 to 4: the most members a team has, and so the "
        "most who play for it a night.",
    )
    team_score = models.CharField(
        max_length=4,
        choices=TeamScore.choices,
        default=TeamScore.SUM,
        verbose_name="a team's night score",
    )
    team_counted = models.PositiveSmallIntegerField(
        default=2,
        validators=[MaxValueValidator(MOST_MEMBERS)],
        verbose_name="n: members whose points count",
        help_text="For the best n: how many line-up members' points count each night.",
    )

    class Meta:
        abstract = True

    def clean(self) -> None:
        super().clean()
        if self.team_size and not FEWEST_MEMBERS <= self.team_size <= MOST_MEMBERS:
            raise ValidationError(
                {"team_size": f"A team has {FEWEST_MEMBERS} to {MOST_MEMBERS} members (0: none)."}
            )
        best = self.team_size and self.team_score == self.TeamScore.BEST
        if best and not 1 <= self.team_counted <= self.team_size:
            raise ValidationError(
                {"team_counted": f"The best n counts 1 to {self.team_size} members' points."}
            )

    @property
    def is_team_league(self) -> bool:
        return bool(self.team_size)

    @property
    def counts_best(self) -> bool:
        return self.team_score == self.TeamScore.BEST


class Team(models.Model):
    """A team of a league: 2 to 4 of its club's members, one of them its captain."""

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(max_length=60, validators=[validate_shown])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="unique_team_name"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A member of a team. `league` is the team's, kept here so that the database itself
    keeps a player on one team of a league at most."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="team_memberships"
    )
    is_captain = models.BooleanField(default=False)

    class Meta:
        ordering = ["team", "-is_captain", "player__username"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="one_team_per_league"),
            models.UniqueConstraint(
                fields=["team"], condition=Q(is_captain=True), name="one_captain_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.team}{', captain' if self.is_captain else ''})"


class LineUp(models.Model):
    """Who of a team plays a night: its members among them are the night's players of
    that team."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="line_ups")
    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="line_ups"
    )
    players = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="+")
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["night", "team"]
        constraints = [
            models.UniqueConstraint(fields=["team", "night"], name="one_line_up_per_night"),
        ]

    def __str__(self) -> str:
        return f"{possessive(self.team)} line-up, {self.night}"

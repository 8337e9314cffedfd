"""Clubs, their members and roles, and the leagues a club runs with the league's rules.
Models of the `leagues` app, kept in the clubs room; `leagues.models` holds them too."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.urls import reverse

from games.engine import with_house_rules
from games.models import PlaysByRules, variant_choices
from games.text import validate_shown

from .. import bounds
from ..teams.models import TeamRules

#: The league's settings for nights missed and seats played by someone else.
LEAGUE_RULES = (
    "absence_points",
    "absence_fixed_points",
    "absence_needs_notice",
    "bye_points",
    "bye_fixed_points",
    "substitute_counts",
    "stand_in_counts",
    "stand_in_level",
    # A team league's: its team size (0: no teams) and how a team's night score is made.
    "team_size",
    "team_score",
    "team_counted",
)


class Club(models.Model):
    """A club that runs leagues; its members are players and organisers."""

    name = models.CharField(max_length=80, validators=[validate_shown])
    slug = models.SlugField(max_length=50, unique=True)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="clubs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:club", args=[self.slug])


class Membership(models.Model):
    """A player's place in a club: a player, or an organiser who runs its leagues."""

    class Role(models.TextChoices):
        PLAYER = "player", "Player"
        ORGANISER = "organiser", "Organiser"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "player__username"]
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="unique_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.get_role_display()}, {self.club})"


points_validator = RegexValidator(
    r"^\s*\d+(\s*,\s*\d+)*\s*$",
    "Points per place are whole numbers separated by commas, first place first: 6,4,2,0.",
)


class League(PlaysByRules, TeamRules, models.Model):
    """A club's league of one variant; points per place turn places into standings.

    A night earns points by each player's place at their table, or, on a night of
    duplicate deals, by their place across the night in matchpoint percentage.
    """

    class Strokes(models.TextChoices):
        GROSS = "gross", "Gross: strokes as played"
        NET = "net", "Net: strokes less the handicap"

    class Missed(models.TextChoices):
        NOTHING = "nothing", "Nothing"
        FIXED = "fixed", "A fixed number of points"
        AVERAGE = "average", "The member's season average points per night"

    class SubstituteCounts(models.TextChoices):
        MEMBER = "member", "For the member who was away"
        SUBSTITUTE = "substitute", "For the substitute"
        TABLE = "table", "Only for the table (places, not standings)"

    class StandIn(models.TextChoices):
        EXPERT = "expert", "Expert"
        MASTER = "master", "Master (the strongest)"

    class NightPoints(models.TextChoices):
        PLACE = "place", "By place at the table"
        MATCHPOINTS = "matchpoints", "By duplicate matchpoint percentage, ranked across the night"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=80, validators=[validate_shown])
    variant = models.CharField(max_length=20, choices=variant_choices, default="play-nine")
    house_rules = models.JSONField(
        default=list,
        blank=True,
        help_text="The keys of the house rules every table of the league's nights plays "
        "with, as a list (the rules page lists each game's).",
    )
    points_per_place = models.CharField(
        max_length=60,
        default="6,4,2,0",
        validators=[points_validator, bounds.validate_points_per_place],
        help_text="Points for 1st, 2nd, 3rd... place in a match; places beyond the list score 0.",
    )
    is_public = models.BooleanField(
        default=False,
        help_text="Standings, nights, scorecards and corrections readable by anyone, "
        "without an account.",
    )
    night_points = models.CharField(
        max_length=12,
        choices=NightPoints.choices,
        default=NightPoints.PLACE,
        verbose_name="how a night earns points",
        help_text="Matchpoints count on nights of duplicate deals; other nights go by place "
        "at the table.",
    )
    points_from = models.CharField(
        max_length=8,
        choices=Strokes.choices,
        default=Strokes.GROSS,
        verbose_name="points are earned by",
        help_text="Net strokes take each player's handicap off, so that a newer player can "
        "win a night.",
    )
    absence_points = models.CharField(
        max_length=8,
        choices=Missed.choices,
        default=Missed.NOTHING,
        verbose_name="an absence earns",
    )
    absence_fixed_points = models.PositiveSmallIntegerField(
        default=0, verbose_name="fixed points for an absence", validators=[bounds.points_limit]
    )
    absence_needs_notice = models.BooleanField(
        default=True,
        verbose_name="only an absence with notice earns them",
        help_text="An absence without notice then earns nothing.",
    )
    bye_points = models.CharField(
        max_length=8,
        choices=Missed.choices,
        default=Missed.AVERAGE,
        verbose_name="a bye earns",
        help_text="A bye: present, but left over when the tables are filled evenly.",
    )
    bye_fixed_points = models.PositiveSmallIntegerField(
        default=0, verbose_name="fixed points for a bye", validators=[bounds.points_limit]
    )
    substitute_counts = models.CharField(
        max_length=10,
        choices=SubstituteCounts.choices,
        default=SubstituteCounts.MEMBER,
        verbose_name="a substitute's result counts",
    )
    stand_in_counts = models.BooleanField(
        default=True,
        verbose_name="a result finished by the bot counts",
        help_text="When a member leaves a live table mid-match the league's stand-in bot "
        "plays their seat out; if this is off, that match earns them nothing.",
    )
    stand_in_level = models.CharField(
        max_length=10,
        choices=StandIn.choices,
        default=StandIn.EXPERT,
        verbose_name="the bot that plays out a member's seat",
        help_text="When a member leaves a live table mid-match.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="unique_league_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"

    def clean(self) -> None:
        super().clean()
        try:
            rules = with_house_rules(self.variant, self.house_rules)
        except ValueError as error:
            raise ValidationError({"house_rules": str(error)}) from None
        self.house_rules = list(rules.house_rule_keys)

    def get_absolute_url(self) -> str:
        return reverse("leagues:league", args=[self.pk])

    @property
    def points(self) -> list[int]:
        """Points per place, first place first."""
        return [int(part) for part in self.points_per_place.split(",") if part.strip()]

    @property
    def by_net(self) -> bool:
        return self.points_from == self.Strokes.NET

    def points_for(self, place: int | None) -> int:
        """The league points a match place earns (0 beyond the list or without a place)."""
        if place is None or not 1 <= place <= len(self.points):
            return 0
        return self.points[place - 1]

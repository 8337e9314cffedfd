"""Players (the user model), clubs and their members, leagues, seasons, nights and ratings.

Standings and ratings are computed from games' scorecards; the only numbers stored
here are ratings (rebuildable from scratch) and the audit trail of score corrections.
"""

from __future__ import annotations

import re
from fractions import Fraction

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse

from games.engine import with_house_rules
from games.models import PlaysByRules, Scorecard, hole_name, variant_choices
from games.text import validate_shown, validate_shown_lines

from . import bounds

# Check-ins, table reports, boards, teams, events and the ratings' models live in their
# rooms; they are this app's models all the same.
from .board.models import NightBoard as NightBoard
from .checkin.models import CheckIn as CheckIn
from .events.models import Event as Event
from .events.models import EventApart as EventApart
from .events.models import EventEntry as EventEntry
from .events.models import EventNotice as EventNotice
from .events.models import EventRound as EventRound
from .events.models import EventTable as EventTable
from .ratings.models import Rating as Rating
from .ratings.models import RatingChange as RatingChange
from .reporting.models import ReportedHole as ReportedHole
from .reporting.models import TableReport as TableReport
from .standings.models import CardResult as CardResult
from .teams.models import LineUp as LineUp
from .teams.models import Team as Team
from .teams.models import TeamMember as TeamMember
from .teams.models import TeamRules
from .usernames import USERNAME_TAKEN, username_key


class Player(AbstractUser):
    """A person who signs in and plays; `display_name` is what the tables show."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        validators=[validate_shown],
        help_text="The name other players see at the table. Defaults to the username.",
    )
    email_reminders = models.BooleanField(
        "Remind me of league nights",
        default=True,
        help_text="An email the day before each night of your clubs' leagues.",
    )
    email_results = models.BooleanField(
        "Send me the results",
        default=True,
        help_text="An email the morning after a night of your clubs' leagues, with its results.",
    )
    # The secret in the address of a player's calendar feeds: a calendar app fetches
    # them without a session. Made when first needed; a new one cuts off the old address.
    calendar_token = models.CharField(max_length=43, unique=True, null=True, blank=True)
    username_key = models.CharField(
        max_length=150,
        unique=True,
        editable=False,
        help_text="The username casefolded and NFKC-normalised: two names equal so are one.",
    )

    class Meta:
        verbose_name = "player"
        verbose_name_plural = "players"

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        key = username_key(self.username or "")
        if self.username_key.partition("#")[0] == key:
            return  # the name is unchanged (an account that clashed before keeps it)
        if Player.objects.filter(username_key=key).exclude(pk=self.pk).exists():
            raise ValidationError({"username": USERNAME_TAKEN})

    def save(self, *args, **kwargs) -> None:
        key = username_key(self.username or "")
        # An account that clashed before keys were kept has its key marked with its id
        # ("#" is in no username): it keeps it until its username changes.
        if self.username_key.partition("#")[0] != key:
            self.username_key = key
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.display_name or self.username


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


class Season(models.Model):
    """A stretch of a league's nights with its own standings."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
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

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="nights")
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


class Absence(models.Model):
    """A member who did not play a night: away (with or without notice), or given a bye."""

    class Kind(models.TextChoices):
        NOTICE = "notice", "Absent, with notice"
        NO_NOTICE = "no_notice", "Absent, without notice"
        BYE = "bye", "Bye"

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="absences")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="absences"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)

    class Meta:
        ordering = ["night", "player__username"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="unique_absence"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_kind_display()}, {self.night}"


class Substitute(models.Model):
    """Someone who plays a night for an absent member: another member, or a named guest.

    A member substitute sits at the night's tables as themselves; a guest, who has no
    account, plays the member's own seat (at a paper table) under the member's card.
    """

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="substitutes")
    member = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="substituted"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="substitutions",
    )
    guest_name = models.CharField(max_length=40, blank=True, validators=[validate_shown])

    class Meta:
        ordering = ["night", "member__username"]
        constraints = [
            models.UniqueConstraint(fields=["night", "member"], name="unique_substitute"),
            models.CheckConstraint(
                condition=Q(player__isnull=False, guest_name="")
                | Q(player__isnull=True) & ~Q(guest_name=""),
                name="substitute_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} for {self.member}, {self.night}"

    @property
    def name(self) -> str:
        return self.player.name if self.player_id else guest_label(self.guest_name)


def guest_label(name: str) -> str:
    """A guest's name as the pages give it, marked once: "Walt (guest)", even when the
    organiser typed the mark in the name themselves."""
    return f"{GUEST_MARK.sub('', name).strip()} (guest)"


GUEST_MARK = re.compile(r"\s*\(guest\)\s*$", re.IGNORECASE)


class NightNotice(models.Model):
    """A mail sent to a member about a night, kept so that none is sent twice."""

    class Kind(models.TextChoices):
        REMINDER = "reminder", "Reminder"
        RESULTS = "results", "Results"

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="night_notices"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "kind", "player"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player", "kind"], name="unique_night_notice"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.night} to {self.player}"


class NightHandicap(models.Model):
    """A player's handicap for a night, frozen when the night is seated: a correction to
    an earlier night changes the holes it was worked out from, not the night's result.

    Kept as a fraction (numerator over denominator), as it was worked out."""

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="handicaps")
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


class FrozenStanding(models.Model):
    """A line of a closed season's standings, as they stood when it was closed."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="frozen_standings")
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


class NightTable(models.Model):
    """A table of a league night: one games.Table, played live or with a physical deck."""

    night = models.ForeignKey(LeagueNight, on_delete=models.CASCADE, related_name="tables")
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="night_table"
    )
    number = models.PositiveSmallIntegerField(help_text="Table 1, 2, ... of the night.")

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="unique_night_table"),
        ]

    def __str__(self) -> str:
        return f"{self.night}, table {self.number}"

    @property
    def is_hand(self) -> bool:
        return self.table.kind == self.table.Kind.HAND

    def get_absolute_url(self) -> str:
        return f"{self.night.get_absolute_url()}#table-{self.number}"


class ScoreCorrection(models.Model):
    """The audit record of a changed hole: old and new strokes, who, when and why.

    A playoff hole that a correction made unnecessary is removed from the card; its
    record keeps the old strokes and has no new ones.
    """

    scorecard = models.ForeignKey(
        "games.Scorecard", on_delete=models.CASCADE, related_name="corrections"
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

"""Who was away from a night, and who played it in a member's place. Models of the
`leagues` app, kept in the attendance room; `leagues.models` holds them too."""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.text import validate_shown

from .. import bounds


class Absence(models.Model):
    """A member who did not play a night: away (with or without notice), or given a bye."""

    class Kind(models.TextChoices):
        NOTICE = "notice", "Absent, with notice"
        NO_NOTICE = "no_notice", "Absent, without notice"
        BYE = "bye", "Bye"

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="absences"
    )
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

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="substitutes"
    )
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


class Answer(models.Model):
    """A member's answer to "are you coming?" for a night ahead: the organiser's count
    and expected tables, and the order of the check-in list on the night."""

    class Choice(models.TextChoices):
        COMING = "coming", "Coming"
        MAYBE = "maybe", "Maybe"
        NOT_COMING = "not_coming", "Not coming"

    night = models.ForeignKey(
        "leagues.LeagueNight", on_delete=models.CASCADE, related_name="answers"
    )
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="night_answers"
    )
    choice = models.CharField(max_length=10, choices=Choice.choices)
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["night", "player__username"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="unique_night_answer"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_choice_display()}, {self.night}"


class AnswerRule(models.Model):
    """A league's deadline for answers: how many hours before each night's start they
    close (no rule: until the night starts). Kept beside the answers, in a table of its
    own, so that the league's own row does not change for it."""

    league = models.OneToOneField(
        "leagues.League", on_delete=models.CASCADE, related_name="answer_rule"
    )
    close_hours = models.PositiveSmallIntegerField(
        validators=[bounds.answers_close_limit],
        verbose_name="answers close (hours before a night)",
        help_text="Members say whether they are coming until this many hours before the "
        "night starts (the end of its day, if it has no start time).",
    )

    def __str__(self) -> str:
        return f"{self.league}: answers close {self.close_hours} hours before"


class AnswerKey(models.Model):
    """A member's secret for the one-click answer links of their mail: a new secret
    makes every link sent before it stop working (a forwarded mail, a shared screen)."""

    player = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="answer_key"
    )
    secret = models.CharField(max_length=64)
    renewed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Answer links of {self.player}"

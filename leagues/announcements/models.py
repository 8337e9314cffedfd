"""An organiser's announcements, each member's mail of one, and members who turned a
club's announcements off. Models of the `leagues` app, kept in the announcements room;
`leagues.models` holds them too."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.text import validate_shown

#: The longest subject and text an announcement takes.
SUBJECT_LENGTH = 120
BODY_LENGTH = 10_000


class Announcement(models.Model):
    """A mail an organiser wrote to the club's members (or to one league's players)."""

    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="announcements")
    league = models.ForeignKey(
        "leagues.League",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="announcements",
    )
    subject = models.CharField(max_length=SUBJECT_LENGTH, validators=[validate_shown])
    body = models.TextField(max_length=BODY_LENGTH)
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    #: How many members it was for when written (with an address, not turned off).
    recipients = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.club}: {self.subject}"


class AnnouncementMail(models.Model):
    """One member's mail of an announcement: written with the mail, so that a task tried
    again sends nobody the same announcement twice."""

    announcement = models.ForeignKey(Announcement, on_delete=models.CASCADE, related_name="mails")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["announcement", "player"], name="unique_announcement_mail"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.announcement} to {self.player}"


class AnnouncementOptOut(models.Model):
    """A member who wants no more announcements from a club."""

    club = models.ForeignKey("leagues.Club", on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="announcement_opt_outs"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="unique_announcement_opt_out"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: no announcements from {self.club}"

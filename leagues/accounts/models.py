"""A player: the user model, who signs in and plays. A model of the `leagues` app, kept
in the accounts room; `leagues.models` holds it too."""

from __future__ import annotations

import zoneinfo

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models

from games import pace
from games.text import validate_shown

from ..usernames import USERNAME_TAKEN, username_key

#: What a profile's time zone that is none says.
UNKNOWN_ZONE = "%(value)s is no time zone we know: choose one from the list, like Europe/Paris."


def validate_zone(name: str) -> None:
    """Refuse a name that is no IANA time zone."""
    if name and not pace.valid_zone(name):
        raise ValidationError(UNKNOWN_ZONE, params={"value": name[:64]}, code="invalid_choice")


class TurnMail(models.TextChoices):
    """When a player hears by mail that a turn-based table waits for them."""

    AT_ONCE = "now", "At once, one mail a turn"
    HOURLY = "hourly", "An hourly digest"
    DAILY = "daily", "A daily digest"
    NEVER = "never", "Never"


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
    turn_mail = models.CharField(
        "Tell me it is my turn",
        max_length=8,
        choices=TurnMail.choices,
        default=TurnMail.AT_ONCE,
        help_text="A mail when a turn-based table waits for your move (live tables send none).",
    )
    email_results = models.BooleanField(
        "Send me the results",
        default=True,
        help_text="An email the morning after a night of your clubs' leagues, with its results.",
    )
    time_zone = models.CharField(
        "Your time zone",
        max_length=64,
        blank=True,
        validators=[validate_zone],
        help_text="The times of your mail, and the playing hours of your turn-based tables, "
        "are in it. Empty: this device's zone at each new table, the site's in mail.",
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

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The time zone the player's mail gives times in: their own, else the site's."""
        return pace.zone_named(self.time_zone)

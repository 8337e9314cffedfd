"""Players (the user model), and later clubs, leagues, seasons and nights."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import models


class Player(AbstractUser):
    """A person who signs in and plays; `display_name` is what the tables show."""

    display_name = models.CharField(
        max_length=40,
        blank=True,
        help_text="The name other players see at the table. Defaults to the username.",
    )

    class Meta:
        verbose_name = "player"
        verbose_name_plural = "players"

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return self.display_name or self.username

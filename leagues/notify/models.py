"""A "your turn" notice: one row per player, table and turn, written when the turn
passes to the player and marked once mailed (at once or in a digest) and once pushed, so
that no turn is mailed or pushed twice; and the devices a player allowed to show notices
(`PushSubscription`). Models of the `leagues` app, kept in the notify room."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class TurnNotice(models.Model):
    """That `table` waits on `player` (at seat `position`) for the turn whose deadline is
    `deadline`: a turn's deadline stands until someone new is to move, so it names the
    turn."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="turn_notices"
    )
    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    deadline = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "table", "deadline"], name="turn_notice_once_a_turn"
            )
        ]
        indexes = [
            models.Index(
                fields=["player", "created_at"],
                name="turn_notice_pending",
                condition=models.Q(sent_at__isnull=True),
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at table {self.table_id}, due {self.deadline:%Y-%m-%d %H:%M}"


class PushSubscription(models.Model):
    """One device (one browser's service worker) where `player` turned on "Notify me on
    this device": the push service's address for it and the keys a push is encrypted
    with (RFC 8291). The address is the device's: one player at a time."""

    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=50)
    device = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.player_id} on {self.device or 'a device'}"

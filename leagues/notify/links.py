"""The one-click unsubscribe link of a "your turn" mail, with no log-in: signed for one
member with the member's mail secret (`attendance.links`), so renewing that secret makes
it stop working. A GET shows a button; a POST (the button, or a mail client's RFC 8058
one-click request) records the choice."""

from __future__ import annotations

from django.urls import reverse

from ..attendance.links import BadLink, read_unsubscribe, sign_unsubscribe
from ..models import Player


def unsubscribe_link(player: Player) -> str:
    """The path that turns "your turn" mail off for `player`."""
    token = sign_unsubscribe(player, "notify", {"turns": True})
    return reverse("leagues:turn_mail_off", args=[player.pk, token])


def read_token(player_id: int, token: str) -> Player:
    """The member the link was made for, or BadLink."""
    player, value = read_unsubscribe(player_id, "notify", token, elsewhere="on your account page")
    if value != {"turns": True}:
        raise BadLink("This link does not work.")
    return player

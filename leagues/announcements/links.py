"""The one-click unsubscribe link of an announcement's mail, with no log-in: signed for
one member and one club with the member's mail secret (`attendance.links`), so renewing
that secret makes it stop working. A GET shows a button; a POST (the button, or a mail
client's RFC 8058 one-click request) records the choice."""

from __future__ import annotations

from django.urls import reverse

from ..attendance.links import BadLink, read_unsubscribe, sign_unsubscribe
from ..models import Club, Player


def unsubscribe_link(player: Player, club: Club) -> str:
    """The path that turns `club`'s announcements off for `player`."""
    token = sign_unsubscribe(player, "announcements", {"c": club.pk})
    return reverse("leagues:unsubscribe", args=[player.pk, token])


def read_token(player_id: int, token: str) -> tuple[Player, int]:
    """The member and club id the link was made for, or BadLink."""
    player, value = read_unsubscribe(player_id, "announcements", token, elsewhere="on this page")
    if not isinstance(value, dict) or not isinstance(value.get("c"), int):
        raise BadLink("This link does not work.")
    return player, value["c"]

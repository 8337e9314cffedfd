"""The one-click unsubscribe link of an announcement's mail, with no log-in: signed for
one member and one club with the member's mail secret (`attendance.links`), so renewing
that secret makes it stop working. A GET shows a button; a POST (the button, or a mail
client's RFC 8058 one-click request) records the choice."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from ..attendance.links import BadLink, member_secret
from ..models import AnswerKey, Club, Player


def _signer(player_id: int, secret: str) -> signing.Signer:
    return signing.Signer(salt=f"leagues.announcements.{player_id}.{secret}")


def unsubscribe_link(player: Player, club: Club) -> str:
    """The path that turns `club`'s announcements off for `player`."""
    token = _signer(player.pk, member_secret(player)).sign_object({"c": club.pk})
    return reverse("leagues:unsubscribe", args=[player.pk, token])


def read_token(player_id: int, token: str) -> tuple[Player, int]:
    """The member and club id the link was made for, or BadLink."""
    key = AnswerKey.objects.select_related("player").filter(player_id=player_id).first()
    try:
        if key is None:
            raise signing.BadSignature
        value = _signer(player_id, key.secret).unsign_object(token)
    except signing.BadSignature:
        raise BadLink(
            "This link does not work (altered, or replaced by newer links): sign in and "
            "choose on this page instead."
        ) from None
    if not isinstance(value, dict) or not isinstance(value.get("c"), int):
        raise BadLink("This link does not work.")
    return key.player, value["c"]

"""The one-click unsubscribe link of a "your turn" mail, with no log-in: signed for one
member with the member's mail secret (`attendance.links`), so renewing that secret makes
it stop working. A GET shows a button; a POST (the button, or a mail client's RFC 8058
one-click request) records the choice."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from ..attendance.links import BadLink, member_secret
from ..models import AnswerKey, Player


def _signer(player_id: int, secret: str) -> signing.Signer:
    return signing.Signer(salt=f"leagues.notify.{player_id}.{secret}")


def unsubscribe_link(player: Player) -> str:
    """The path that turns "your turn" mail off for `player`."""
    token = _signer(player.pk, member_secret(player)).sign_object({"turns": True})
    return reverse("leagues:turn_mail_off", args=[player.pk, token])


def read_token(player_id: int, token: str) -> Player:
    """The member the link was made for, or BadLink."""
    key = AnswerKey.objects.select_related("player").filter(player_id=player_id).first()
    try:
        if key is None:
            raise signing.BadSignature
        value = _signer(player_id, key.secret).unsign_object(token)
    except signing.BadSignature:
        raise BadLink(
            "This link does not work (altered, or replaced by newer links): sign in and "
            "choose on your account page instead."
        ) from None
    if value != {"turns": True}:
        raise BadLink("This link does not work.")
    return key.player

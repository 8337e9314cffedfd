"""The one-click answer links of a member's mail: "coming", "maybe", "not coming" for a
night, with no log-in.

A link is signed (django.core.signing) for one member and one night, carries the time it
was made and stops working `LINK_DAYS` after it; the signature's salt holds the member's
own secret (`AnswerKey`), so a new secret makes every link made before it stop working.
Following a link (GET) only shows a button: mail scanners that open links change nothing.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.core import signing
from django.urls import reverse

from ..models import AnswerKey, Player

#: How long a link works after it is made: long enough for the mail before a night.
LINK_DAYS = 14
LINK_AGE = timedelta(days=LINK_DAYS)


class BadLink(Exception):
    """A link altered, made for someone else, renewed since, or too old: the sentence
    says which, for the page."""


def member_secret(player: Player) -> str:
    """The member's secret for every signed link of their mail (answers, and the
    announcements' unsubscribe link): renewing it makes all of them stop working."""
    key, _ = AnswerKey.objects.get_or_create(
        player=player, defaults={"secret": secrets.token_urlsafe(32)}
    )
    return key.secret


def _signer(player_id: int, secret: str) -> signing.TimestampSigner:
    return signing.TimestampSigner(salt=f"leagues.answers.{player_id}.{secret}")


def make_token(player: Player, night_id: int) -> str:
    """A token for `player` answering night `night_id`."""
    return _signer(player.pk, member_secret(player)).sign_object({"n": night_id})


def answer_link(player: Player, night_id: int, choice: str) -> str:
    """The path of the page that records `choice` for `player` on night `night_id`."""
    path = reverse("leagues:answer_link", args=[player.pk, make_token(player, night_id)])
    return f"{path}?answer={choice}"


def read_token(player_id: int, token: str) -> tuple[Player, int]:
    """The member and night id a token was made for, or BadLink."""
    key = AnswerKey.objects.select_related("player").filter(player_id=player_id).first()
    if key is None or not key.player.is_active:
        raise BadLink("This link does not work: answer from the night's page instead.")
    try:
        value = _signer(player_id, key.secret).unsign_object(token, max_age=LINK_AGE)
    except signing.SignatureExpired:
        raise BadLink(
            f"This link is more than {LINK_DAYS} days old: answer from the night's page."
        ) from None
    except signing.BadSignature:
        raise BadLink(
            "This link does not work (altered, or replaced by newer links): "
            "answer from the night's page."
        ) from None
    if not isinstance(value, dict) or not isinstance(value.get("n"), int):
        raise BadLink("This link does not work: answer from the night's page instead.")
    return key.player, value["n"]


def sign_unsubscribe(player: Player, purpose: str, value: object) -> str:
    """A token that never expires (an unsubscribe link should keep working) for `value`,
    signed for `player` with their mail secret under `purpose` ("announcements",
    "notify"): renewing the secret stops it."""
    salt = f"leagues.{purpose}.{player.pk}.{member_secret(player)}"
    return signing.Signer(salt=salt).sign_object(value)


def read_unsubscribe(player_id: int, purpose: str, token: str, *, elsewhere: str):
    """The member and the value a `sign_unsubscribe` token was made for, or BadLink,
    which points the reader `elsewhere` ("on this page", "on your account page")."""
    key = AnswerKey.objects.select_related("player").filter(player_id=player_id).first()
    try:
        if key is None:
            raise signing.BadSignature
        salt = f"leagues.{purpose}.{player_id}.{key.secret}"
        value = signing.Signer(salt=salt).unsign_object(token)
    except signing.BadSignature:
        raise BadLink(
            "This link does not work (altered, or replaced by newer links): sign in and "
            f"choose {elsewhere} instead."
        ) from None
    return key.player, value


def renew(player: Player) -> None:
    """A new secret for `player`: every answer link sent before stops working."""
    AnswerKey.objects.update_or_create(
        player=player, defaults={"secret": secrets.token_urlsafe(32)}
    )

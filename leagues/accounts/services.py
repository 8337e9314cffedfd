"""Writes to a player's own account: the name they show, their email and their mail;
and the mail that resets a forgotten password, sent by a task."""

from __future__ import annotations

from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from ..models import Player
from . import selectors


def update_account(
    *,
    player: Player,
    display_name: str,
    email: str,
    email_reminders: bool | None = None,
    email_results: bool | None = None,
) -> Player:
    """Change the name a player shows at tables, the address their mail goes to, and
    whether they get reminders and results by mail (None leaves a choice as it is).

    Cards already written keep the name they were written with. An email address
    another account has (in any case) is refused.
    """
    email = Player.objects.normalize_email(email.strip())
    if selectors.email_in_use(email, other_than=player):
        raise ValidationError({"email": selectors.EMAIL_TAKEN})
    player.display_name = display_name.strip()
    player.email = email
    if email_reminders is not None:
        player.email_reminders = email_reminders
    if email_results is not None:
        player.email_results = email_results
    player.full_clean()
    player.save(update_fields=["display_name", "email", "email_reminders", "email_results"])
    return player


@task()
def mail_password_reset(*, player_id: int, domain: str, site_name: str, protocol: str) -> bool:
    """The task: mail a player the link that sets a new password (Django's reset mail).
    Its one-use token is made here, so the queue never holds one. False when the account
    can no longer be reset (gone, off, no address or no usable password)."""
    player = Player.objects.filter(pk=player_id, is_active=True).first()
    if player is None or not player.email or not player.has_usable_password():
        return False
    context = {
        "email": player.email,
        "domain": domain,
        "site_name": site_name,
        "uid": urlsafe_base64_encode(force_bytes(player.pk)),
        "user": player,
        "token": default_token_generator.make_token(player),
        "protocol": protocol,
    }
    subject = render_to_string("registration/password_reset_subject.txt", context)
    body = render_to_string("registration/password_reset_email.html", context)
    send_mail("".join(subject.splitlines()), body, None, [player.email])
    return True

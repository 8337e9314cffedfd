"""Writes to a player's own account: the name they show, their email and their mail;
the account closed; and the mail that resets a forgotten password, sent by a task."""

from __future__ import annotations

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from games.models import ChatMessage, Scorecard

from ..models import Club, Invitation, Membership, Player, PushSubscription, TurnNotice
from . import selectors
from .models import TurnMail


def update_account(
    *,
    player: Player,
    display_name: str,
    email: str,
    email_reminders: bool | None = None,
    email_results: bool | None = None,
    turn_mail: str | None = None,
    time_zone: str | None = None,
) -> Player:
    """Change the name a player shows at tables, the address their mail goes to, and
    whether they get reminders, results and "your turn" by mail, and their time zone
    (an IANA name, or "" for none; None leaves a choice as it is).

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
    if turn_mail is not None:
        player.turn_mail = turn_mail
    if time_zone is not None:
        player.time_zone = time_zone
    player.full_clean()
    player.save(
        update_fields=[
            "display_name",
            "email",
            "email_reminders",
            "email_results",
            "turn_mail",
            "time_zone",
        ]
    )
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


def former_name(player: Player) -> str:
    """The neutral name a closed account's results stand under."""
    return f"Former member {player.pk}"


def close_account(*, player: Player, password: str) -> None:
    """Close `player`'s account, on their password: nothing personal remains.

    Their results stay in the standings, under `former_name` (the account stays, as
    the records their results hang on; its cards take the name too). Their name,
    username and email are replaced, their password made unusable (which ends every
    session of theirs: a session holds a hash of it), their mail turned off, their
    calendar address and memberships gone, their chat lines, log-in records and
    invitations deleted. The last organiser of a club is refused: they name another
    first.
    """
    if not player.is_active or not player.check_password(password):
        raise ValidationError({"password": "That is not your password."})
    organised = Club.objects.filter(
        memberships__player=player, memberships__role=Membership.Role.ORGANISER
    ).annotate(
        organisers=Count("memberships", filter=Q(memberships__role=Membership.Role.ORGANISER))
    )
    alone = [club.name for club in organised if club.organisers == 1]
    if alone:
        raise ValidationError(
            f"You are the last organiser of {', '.join(alone)}: name another organiser "
            "first, so that the club keeps one."
        )
    name = former_name(player)
    old = {"username": player.username, "email": player.email}
    with transaction.atomic():
        Scorecard.objects.filter(player=player).update(name=name)
        ChatMessage.objects.filter(author=player).delete()
        Membership.objects.filter(player=player).delete()
        if old["email"]:
            Invitation.objects.filter(email__iexact=old["email"]).delete()
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username=old["username"]).delete()
        player.username = f"former-member-{player.pk}"
        player.display_name = name
        player.first_name = player.last_name = player.email = player.time_zone = ""
        player.calendar_token = None
        player.email_reminders = player.email_results = False
        player.turn_mail = TurnMail.NEVER
        TurnNotice.objects.filter(player=player).delete()
        PushSubscription.objects.filter(player=player).delete()
        player.is_active = player.is_staff = player.is_superuser = False
        player.set_unusable_password()
        player.save()
        player.groups.clear()
        player.user_permissions.clear()

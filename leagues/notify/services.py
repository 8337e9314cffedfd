"""Writes of "your turn" mail: a notice recorded when a turn passes to a person, mailed
at once by a task or gathered into a member's hourly or daily digest, each mail with its
one-click unsubscribe link (in its text and in the List-Unsubscribe headers, RFC 2369 and
RFC 8058).

At most one mail a table per turn: the notice row is unique per player, table and turn
(the turn's deadline), and is marked sent in the transaction that sends it. A turn that
has passed on by the time the mail would go (the player moved) is not mailed. A mail says
only the table, the other players and the deadline: never a card.

A player who turned on "Notify me on this device" somewhere also gets the notice pushed
to each such device (`push`), by a task queued as the mail's is, at most once a turn (the
notice marked pushed in the transaction that pushes it), whatever their mail choice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from games.tasks import enqueue_on_commit

from ..accounts.models import TurnMail
from ..models import Player
from . import push
from .links import unsubscribe_link
from .models import PushSubscription, TurnNotice
from .selectors import WaitingTable, waiting

logger = logging.getLogger(__name__)

#: How long a digest member waits between two digests (a little less than the cron
#: period, so that a run a minute early still sends).
DIGEST_EVERY = {
    TurnMail.HOURLY: timedelta(minutes=55),
    TurnMail.DAILY: timedelta(hours=23, minutes=30),
}
#: Sent or stale notices older than this are deleted by the digest run.
KEEP_NOTICES = timedelta(days=7)


def turn_passed(*, table_id: int, position: int, player_id: int, deadline: datetime | None):
    """A turn-based table's turn passed to `player_id`: a notice recorded for them, and
    after the commit a task that mails it to an "at once" member and one that pushes it
    to a member's devices. None for a member who wants no such mail and has no device to
    push to, or a turn already recorded (the same turn told twice)."""
    if deadline is None:
        return None
    player = Player.objects.filter(pk=player_id, is_active=True).first()
    if player is None:
        return None
    mails = bool(player.email) and player.turn_mail != TurnMail.NEVER
    pushes = push.enabled() and PushSubscription.objects.filter(player=player).exists()
    if not (mails or pushes):
        return None
    try:
        with transaction.atomic():
            notice = TurnNotice.objects.create(
                player=player, table_id=table_id, position=position, deadline=deadline
            )
    except IntegrityError:
        return None
    if pushes:
        enqueue_on_commit(push_turn, notice.pk)
    if mails and player.turn_mail == TurnMail.AT_ONCE:
        enqueue_on_commit(mail_turn, notice.pk)
    return notice


def set_turn_mail(*, player: Player, choice: str) -> None:
    """How `player` hears of their turns (one of `TurnMail`)."""
    player.turn_mail = TurnMail(choice)
    player.save(update_fields=["turn_mail"])


def _absolute(path: str) -> str:
    return settings.FAIRWAY_SITE_URL.rstrip("/") + path


def _send(player: Player, subject: str, template: str, tables: list[WaitingTable]) -> None:
    link = _absolute(unsubscribe_link(player))
    # The deadlines in the player's own time zone, with its abbreviation ("14:00 CET").
    with timezone.override(player.zone):
        body = render_to_string(
            template,
            {
                "player": player,
                "tables": [(table, _absolute(table.path)) for table in tables],
                "unsubscribe_url": link,
            },
        )
    EmailMessage(
        subject,
        body,
        to=[player.email],
        headers={
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    ).send()


@task()
def mail_turn(notice_id: int) -> bool:
    """The task: an "at once" member's mail for one turn, unless it went already, the
    member no longer wants it, or the turn passed on meanwhile. True when sent."""
    with transaction.atomic():
        notice = (
            TurnNotice.objects.select_for_update()
            .select_related("player")
            .filter(pk=notice_id, sent_at__isnull=True)
            .first()
        )
        if notice is None:
            return False
        player = notice.player
        table = waiting(notice)
        if table is None or player.turn_mail != TurnMail.AT_ONCE or not player.email:
            notice.delete()
            return False
        notice.sent_at = timezone.now()
        notice.save(update_fields=["sent_at"])
        _send(player, f"Your turn: {table.name}", "leagues/mail/your_turn.txt", [table])
    return True


@task()
def push_turn(notice_id: int) -> int:
    """The task: one turn's notice pushed to each of its player's devices, unless it was
    pushed already or the turn passed on meanwhile. The notice is marked pushed first
    (committed), so that no second task pushes it too. A device whose push service says
    it is gone is forgotten. When no device had it and some could not be reached for
    now, the mark is taken back and the task raises, for the queue to try again; when
    some had it, the others are logged and left (a second push would repeat it on those
    that had it). Returns how many devices had it."""
    with transaction.atomic():
        notice = (
            TurnNotice.objects.select_for_update()
            .filter(pk=notice_id, pushed_at__isnull=True)
            .first()
        )
        if notice is None or not push.enabled():
            return 0
        table = waiting(notice)
        devices = list(PushSubscription.objects.filter(player_id=notice.player_id))
        if table is None or not devices:
            return 0
        notice.pushed_at = timezone.now()
        notice.save(update_fields=["pushed_at"])
    message, delivered, failures = push.payload(table), 0, []
    for device in devices:
        try:
            delivered += push.send(device, message, notice.deadline)
        except push.PushFailed as error:
            failures.append(error)
    if failures and not delivered:
        TurnNotice.objects.filter(pk=notice.pk).update(pushed_at=None)
        raise failures[0]
    for error in failures:
        logger.warning("Could not push player %s's turn: %s", notice.player_id, error)
    return delivered


def subscribe_device(
    *, player: Player, endpoint: str, p256dh: str, auth: str, device: str
) -> PushSubscription:
    """`player` turned on notices on a device (checked by the view): the device is
    theirs, whoever had it before (one browser, one signed-in player at a time)."""
    subscription, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"player": player, "p256dh": p256dh, "auth": auth, "device": device[:100]},
    )
    return subscription


#: Where a session keeps the address of the device it turned notices on for.
DEVICE_IN_SESSION = "notify.push_endpoint"


def remember_device(session, subscription: PushSubscription) -> None:
    """The browser of `session` is `subscription`'s device: forgotten when it signs out."""
    session[DEVICE_IN_SESSION] = subscription.endpoint


def forget_signed_out_device(*, player: Player, session) -> None:
    """The browser of `session` signs out: its device shows `player`'s turns no more."""
    endpoint = session.get(DEVICE_IN_SESSION)
    if endpoint:
        PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()


def unsubscribe_device(*, player: Player, endpoint: str) -> bool:
    """`player` turned notices off on a device: forgotten if it is theirs. True when it
    was."""
    deleted, _ = PushSubscription.objects.filter(player=player, endpoint=endpoint).delete()
    return bool(deleted)


def send_digests(*, now: datetime | None = None) -> int:
    """Each digest member whose digest is due: one mail of their tables still waiting for
    them (turns already played are left out and dropped). Returns how many were sent."""
    now = now or timezone.now()
    TurnNotice.objects.filter(created_at__lt=now - KEEP_NOTICES).delete()
    sent = 0
    members = Player.objects.filter(
        turn_mail__in=list(DIGEST_EVERY),
        turn_notices__sent_at__isnull=True,
    ).distinct()
    for player in members:
        last = TurnNotice.objects.filter(player=player).aggregate(last=Max("sent_at"))["last"]
        if last is not None and now - last < DIGEST_EVERY[TurnMail(player.turn_mail)]:
            continue
        try:
            sent += _send_digest(player, now)
        except OSError as error:  # smtplib's errors are OSErrors: the next run tries again
            logger.warning("Could not mail %s their turns: %s", player.email, error)
    return sent


def _send_digest(player: Player, now: datetime) -> bool:
    with transaction.atomic():
        notices = list(
            TurnNotice.objects.select_for_update()
            .filter(player=player, sent_at__isnull=True)
            .order_by("deadline")
        )
        tables, seen, played = [], set(), []
        for notice in notices:
            table = waiting(notice)
            if table is None or table.table_id in seen:
                played.append(notice.pk)
                continue
            seen.add(table.table_id)
            tables.append(table)
        TurnNotice.objects.filter(pk__in=played).delete()
        if not tables or not player.email:
            return False
        TurnNotice.objects.filter(player=player, sent_at__isnull=True).update(sent_at=now)
        count = len(tables)
        subject = f"{count} table{'s' if count != 1 else ''} waiting for your move"
        _send(player, subject, "leagues/mail/turn_digest.txt", tables)
    return True

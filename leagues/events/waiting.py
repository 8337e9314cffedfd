"""An event's waiting list: entries past its cap wait in order, and a withdrawal lets
the first waiting member in, who is told by mail (a task, after the commit).

Every function here takes the event as `services.hold_event` returned it: the caller
holds the event's row, so two withdrawals at once let in two different members, in
order, and a place is never given twice.
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Max
from django.template.loader import render_to_string
from django.utils import timezone
from django_tasks import task

from ..models import Event, EventEntry, EventWaiting, Player

logger = logging.getLogger(__name__)


def is_full(event: Event) -> bool:
    """Whether the event has as many entries as its cap (never, without one)."""
    return event.max_entries is not None and event.entries.count() >= event.max_entries


def join(event: Event, player: Player) -> EventWaiting:
    """`player` at the end of the event's waiting list (where they are, if on it)."""
    waiting = event.waiting.filter(player=player).first()
    if waiting is not None:
        return waiting
    last = event.waiting.aggregate(last=Max("position"))["last"] or 0
    return EventWaiting.objects.create(event=event, player=player, position=last + 1)


def let_in(event: Event, waiting: EventWaiting) -> EventEntry:
    """A waiting member entered, and told by mail once the transaction commits."""
    waiting.delete()
    entry, _ = EventEntry.objects.get_or_create(event=event, player=waiting.player)
    transaction.on_commit(partial(mail_let_in.enqueue, event.pk, waiting.player_id))
    return entry


def let_in_first(event: Event) -> EventEntry | None:
    """The first waiting member entered, while the event has room."""
    if is_full(event):
        return None
    first = event.waiting.select_related("player").order_by("position", "pk").first()
    return let_in(event, first) if first is not None else None


def move(event: Event, waiting: EventWaiting, step: int) -> None:
    """Swap a waiting member with the one before (`step` -1) or after (+1) them."""
    around = event.waiting.order_by("position", "pk")
    if step < 0:
        other = around.filter(position__lt=waiting.position).order_by("-position", "-pk").first()
    else:
        other = around.filter(position__gt=waiting.position).first()
    if other is None:
        where = "first" if step < 0 else "last"
        raise ValidationError(f"{waiting.player.name} is {where} on the waiting list already.")
    waiting.position, other.position = other.position, waiting.position
    EventWaiting.objects.bulk_update([waiting, other], ["position"])


@task()
def mail_let_in(event_id: int, player_id: int) -> bool:
    """The task: tell a member they are in the event now. Whether a mail went out
    (none without an address); a mail server's error fails the task, tried again."""
    event = Event.objects.select_related("club").filter(pk=event_id).first()
    player = Player.objects.filter(pk=player_id, is_active=True).exclude(email="").first()
    if event is None or player is None:
        return False
    if not event.entries.filter(player=player).exists():
        return False  # withdrawn or removed since
    context = {
        "event": event,
        "player": player,
        "starts": event.starts_at,
        "event_url": settings.FAIRWAY_SITE_URL.rstrip("/") + event.get_absolute_url(),
    }
    with timezone.override(player.zone):  # the start in the member's own time
        body = render_to_string("leagues/mail/event_let_in.txt", context)
    send_mail(f"{event.name}: a place is yours", body, None, [player.email])
    return True

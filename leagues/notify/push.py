"""Web Push of a "your turn" notice to a player's devices (RFC 8030), its payload
encrypted for each device (RFC 8291, aes128gcm) and signed with the site's VAPID key
(RFC 8292) by pywebpush. Off unless the key pair is set (settings, FAIRWAY_VAPID_*).

A payload says whose turn it is, at which table, with whom, and the table's address: the
same as a "your turn" mail, never a card.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from django.conf import settings
from django.templatetags.static import static
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush
from requests import RequestException

from .models import PushSubscription
from .selectors import WaitingTable

#: How long a push service may wait for its device at most (the turn may last days).
MOST_TTL = timedelta(days=1)
#: Seconds a push service has to answer.
TIMEOUT = 10
#: The answers that mean the device's subscription is gone for good (RFC 8030 §7.3).
GONE = {404, 410}


def public_key() -> str:
    """The key a browser subscribes with; empty when push is off."""
    if not (settings.FAIRWAY_VAPID_PRIVATE_KEY and settings.FAIRWAY_VAPID_SUBJECT):
        return ""
    return settings.FAIRWAY_VAPID_PUBLIC_KEY


def enabled() -> bool:
    return bool(public_key())


def known_service(host: str) -> bool:
    """Whether `host` is one of the push services a device may name
    (FAIRWAY_PUSH_SERVICES: a host, or a domain it is under)."""
    host = host.lower().rstrip(".")
    return any(
        host == known or host.endswith("." + known) for known in settings.FAIRWAY_PUSH_SERVICES
    )


def payload(table: WaitingTable) -> dict:
    """What a device shows of `table`'s turn: no card, nothing hidden at the table."""
    with_whom = ", ".join(table.opponents)
    return {
        "title": "Your turn at Fairway",
        "body": f"{table.name}: your move" + (f" (with {with_whom})." if with_whom else "."),
        "url": table.path,
        "tag": f"table-{table.table_id}",
        "icon": static("img/icon-192.png"),
    }


class PushFailed(Exception):
    """A push service refused or could not be reached, for now (not a gone device)."""


def send(subscription: PushSubscription, message: dict, deadline: datetime) -> bool:
    """Push `message` to one device, kept by its push service until `deadline` at the
    latest: True once the push service took it. A device whose push service answers 404
    or 410 is gone: deleted, and False; any other failure raises PushFailed."""
    ttl = min(max(deadline - timezone.now(), timedelta(minutes=1)), MOST_TTL)
    try:
        webpush(
            {
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            json.dumps(message),
            vapid_private_key=Vapid.from_string(settings.FAIRWAY_VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.FAIRWAY_VAPID_SUBJECT},
            content_encoding="aes128gcm",
            ttl=int(ttl.total_seconds()),
            timeout=TIMEOUT,
        )
    except WebPushException as error:
        if error.response is not None and error.response.status_code in GONE:
            subscription.delete()
            return False
        raise PushFailed(str(error)) from error
    except RequestException as error:
        raise PushFailed(str(error)) from error
    PushSubscription.objects.filter(pk=subscription.pk).update(last_used_at=timezone.now())
    return True

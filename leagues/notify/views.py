"""The page a "your turn" mail's unsubscribe link opens (no log-in), and the account
page's "Notify me on this device" (`static/js/push.js`): a device's push subscription
posted as JSON (as the browser's `PushSubscription.toJSON()` gives it), and taken back."""

from __future__ import annotations

import binascii
import json
import re
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from config.vapid import b64url_decode

from ..accounts.models import TurnMail
from ..attendance.links import BadLink
from . import links, push, services
from .models import PushSubscription

#: The longest push service address kept (the model's).
MOST_ENDPOINT = PushSubscription._meta.get_field("endpoint").max_length


# A mail client's one-click unsubscribe (RFC 8058) posts with no CSRF token; the signed
# link is the proof, and it can only turn its one member's turn mail off (or back on).
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, player_id: int, token: str) -> HttpResponse:
    """A GET shows the member's choice and a button; a POST (the button, or the mail
    client's one-click request) records it."""
    try:
        player = links.read_token(player_id, token)
    except BadLink as error:
        return render(request, "leagues/turn_mail_off.html", {"error": str(error)}, status=400)
    saved = request.method == "POST"
    if saved:
        wants = request.POST.get("choice") == "subscribe"
        services.set_turn_mail(player=player, choice=TurnMail.AT_ONCE if wants else TurnMail.NEVER)
    return render(
        request,
        "leagues/turn_mail_off.html",
        {"member": player, "wants": player.turn_mail != TurnMail.NEVER, "saved": saved},
    )


class BadSubscription(ValueError):
    """What the page posted is not a device's push subscription."""


def _key(keys: dict, name: str, size: int) -> str:
    value = keys.get(name)
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9_-]+={0,2}", value):
        raise BadSubscription(f"keys.{name} must be a base64url string.")
    try:
        raw = b64url_decode(value.rstrip("="))
    except (binascii.Error, ValueError):
        raise BadSubscription(f"keys.{name} must be a base64url string.") from None
    if len(raw) != size:
        raise BadSubscription(f"keys.{name} must be {size} bytes.")
    return value


def _endpoint(data: dict) -> str:
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint:
        raise BadSubscription("endpoint is missing.")
    if len(endpoint) > MOST_ENDPOINT:
        raise BadSubscription(f"endpoint is longer than {MOST_ENDPOINT} characters.")
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise BadSubscription("endpoint must be an https:// address.")
    if not push.known_service(parts.hostname):
        raise BadSubscription("endpoint is not a push service this site sends to.")
    return endpoint


def _read(request: HttpRequest) -> dict:
    try:
        data = json.loads(request.body)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadSubscription("The body must be JSON.") from None
    if not isinstance(data, dict):
        raise BadSubscription("The body must be a JSON object.")
    return data


def _subscription(data: dict) -> dict:
    """The fields of a subscription, each checked: an https push service, the device's
    P-256 public key (a point on the curve) and its 16-byte auth secret."""
    endpoint = _endpoint(data)
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("keys is missing.")
    p256dh = _key(keys, "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), b64url_decode(p256dh))
    except ValueError:
        raise BadSubscription("keys.p256dh is not a P-256 public key.") from None
    return {"endpoint": endpoint, "p256dh": p256dh, "auth": _key(keys, "auth", 16)}


BROWSERS = (("Edg/", "Edge"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    """A short name for a device, from its browser's User-Agent: "Firefox on Android"."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "A browser")
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return f"{browser} on {system}" if system else browser


def _refused(message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": message}, status=status)


def _device_request(request: HttpRequest, *, turning_on: bool) -> JsonResponse | None:
    """The refusal of both ends: signed out, or (to turn on) push off on this site."""
    if not request.user.is_authenticated:
        return _refused("Sign in to get notices on this device.", 403)
    if turning_on and not push.enabled():
        return _refused("This site sends no notices to devices.", 404)
    return None


@require_POST
def push_subscribe(request: HttpRequest) -> JsonResponse:
    """This device is to show the signed-in player's "your turn" notices."""
    refused = _device_request(request, turning_on=True)
    if refused is not None:
        return refused
    try:
        fields = _subscription(_read(request))
    except BadSubscription as error:
        return _refused(str(error), 400)
    label = device_label(request.headers.get("User-Agent", ""))
    subscription = services.subscribe_device(player=request.user, device=label, **fields)
    services.remember_device(request.session, subscription)
    return JsonResponse({"device": label}, status=201)


@require_POST
def push_unsubscribe(request: HttpRequest) -> JsonResponse:
    """This device is to show the signed-in player's notices no more."""
    refused = _device_request(request, turning_on=False)
    if refused is not None:
        return refused
    try:
        endpoint = _endpoint(_read(request))
    except BadSubscription as error:
        return _refused(str(error), 400)
    if not services.unsubscribe_device(player=request.user, endpoint=endpoint):
        return _refused("No such device of yours.", 404)
    return JsonResponse({}, status=200)

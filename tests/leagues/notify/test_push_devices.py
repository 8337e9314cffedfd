""" "Notify me on this device": the account page's control (only when the site has its
push keys), and the two ends its script posts to: a device's subscription kept for the
signed-in player after every field is checked (anything else: a clear 400 and nothing
kept), taken back only by its own player, and forgotten when its browser signs out."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from leagues.accounts import services as accounts
from leagues.models import PushSubscription
from leagues.notify.views import device_label
from tests.factories import PASSWORD, make_player
from tests.leagues.notify.devices import new_device

pytestmark = pytest.mark.django_db

ON, OFF = reverse("leagues:push_on"), reverse("leagues:push_off")
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"
PUSH_SERVICE = "https://updates.push.services.mozilla.com/wpush/v2/"


def signed_in(player=None, **options) -> Client:
    client = Client(**options)
    client.force_login(player or make_player())
    return client


def post(client, url, body, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data, content_type="application/json", **headers)


def device(name="gAAAA-ana"):
    return new_device(PUSH_SERVICE + name)


def test_a_device_is_kept_for_the_signed_in_player_with_a_label_of_its_browser(push_keys):
    ana = make_player("ana")
    phone = device()
    response = post(signed_in(ana), ON, phone.as_json(), HTTP_USER_AGENT=FIREFOX_ANDROID)
    assert response.status_code == 201 and response.json() == {"device": "Firefox on Android"}
    kept = PushSubscription.objects.get()
    assert (kept.player, kept.endpoint, kept.device) == (ana, phone.endpoint, "Firefox on Android")
    assert (kept.p256dh, kept.auth) == (
        phone.as_json()["keys"]["p256dh"],
        phone.as_json()["keys"]["auth"],
    )
    # The same browser turned on again (a new key), or by whoever signs in on it next:
    # still one device, the last player's.
    ben = make_player("ben")
    again = {**phone.as_json(), "keys": device().as_json()["keys"]}
    assert post(signed_in(ben), ON, again).status_code == 201
    kept = PushSubscription.objects.get()
    assert kept.player == ben and kept.p256dh == again["keys"]["p256dh"]


BAD = [
    ("not json", "{", "The body must be JSON."),
    ("a list", [], "The body must be a JSON object."),
    ("no endpoint", {"keys": {}}, "endpoint is missing."),
    ("http", {"endpoint": "http://push.example.com/x"}, "endpoint must be an https:// address."),
    ("no host", {"endpoint": "https:///x"}, "endpoint must be an https:// address."),
    (
        "a host of the site's own network",
        {"endpoint": "https://127.0.0.1/wpush/v2/x"},
        "endpoint is not a push service this site sends to.",
    ),
    (
        "a host named like a push service",
        {"endpoint": "https://evilpush.services.mozilla.com/x"},
        "endpoint is not a push service this site sends to.",
    ),
    (
        "too long",
        {"endpoint": PUSH_SERVICE + "x" * 1000},
        "endpoint is longer than 1000 characters.",
    ),
    ("no keys", {"endpoint": PUSH_SERVICE + "a"}, "keys is missing."),
    ("no auth", "no-auth", "keys.auth must be a base64url string."),
    ("short auth", "short-auth", "keys.auth must be 16 bytes."),
    ("not base64", "bad-p256dh", "keys.p256dh must be a base64url string."),
    ("off the curve", "off-curve", "keys.p256dh is not a P-256 public key."),
]


def bad_body(body):
    """A body of BAD: as written, or a good subscription with one key spoilt."""
    if not isinstance(body, str) or body == "{":
        return body
    good = device().as_json()
    keys = good["keys"]
    if body == "no-auth":
        del keys["auth"]
    elif body == "short-auth":
        keys["auth"] = keys["auth"][:10]
    elif body == "bad-p256dh":
        keys["p256dh"] = "not base64!"
    elif body == "off-curve":
        keys["p256dh"] = "BA" + "A" * 85  # 65 bytes, 0x04 and then not a point
    return good


@pytest.mark.parametrize(("case", "body", "error"), BAD, ids=[case for case, *_ in BAD])
def test_anything_but_a_subscription_is_refused_clearly_and_keeps_nothing(
    push_keys, case, body, error
):
    response = post(signed_in(), ON, bad_body(body))
    assert response.status_code == 400 and response.json() == {"error": error}
    assert not PushSubscription.objects.exists()


def test_signed_out_without_a_csrf_token_or_by_get_nothing_is_kept(push_keys):
    phone = device()
    response = post(Client(), ON, phone.as_json())
    assert response.status_code == 403 and "Sign in" in response.json()["error"]
    assert post(Client(), OFF, {"endpoint": phone.endpoint}).status_code == 403
    # The page's script sends the CSRF token; a post from another site has none.
    strict = signed_in(enforce_csrf_checks=True)
    assert post(strict, ON, phone.as_json()).status_code == 403
    assert signed_in().get(ON).status_code == 405
    assert not PushSubscription.objects.exists()


def test_a_player_takes_back_only_their_own_device(push_keys):
    ana, ben = make_player("ana"), make_player("ben")
    anas, bens = device("ana"), device("ben")
    anas.subscribe(ana)
    bens.subscribe(ben)
    as_ana = signed_in(ana)
    response = post(as_ana, OFF, {"endpoint": bens.endpoint})
    assert response.status_code == 404 and response.json() == {"error": "No such device of yours."}
    assert post(as_ana, OFF, {"endpoint": "http://x"}).status_code == 400
    assert PushSubscription.objects.count() == 2
    assert post(as_ana, OFF, {"endpoint": anas.endpoint}).status_code == 200
    assert list(PushSubscription.objects.values_list("player", flat=True)) == [ben.pk]


def test_without_keys_the_page_offers_nothing_and_the_end_refuses(settings):
    settings.FAIRWAY_VAPID_PRIVATE_KEY = settings.FAIRWAY_VAPID_PUBLIC_KEY = ""
    client = signed_in()
    page = client.get(reverse("account")).content.decode()
    assert "Notify me on this device" not in page and "js/push.js" not in page
    response = post(client, ON, device().as_json())
    assert response.status_code == 404 and "no notices" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_with_keys_the_account_page_has_the_control_with_the_public_key(push_keys):
    page = signed_in().get(reverse("account")).content.decode()
    assert "Notify me on this device" in page and 'src="/static/js/push.js"' in page
    assert f'data-key="{push_keys}"' in page and f'data-on="{ON}"' in page


def test_signing_out_forgets_the_device_turned_on_in_that_session_only(push_keys):
    ana = make_player("ana")
    browser = signed_in(ana)
    this, other = device("this"), device("other")
    assert post(browser, ON, this.as_json()).status_code == 201
    other.subscribe(ana)
    browser.post(reverse("logout"))
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [other.endpoint]


def test_closing_the_account_forgets_its_devices(push_keys):
    ana = make_player("ana")
    device().subscribe(ana)
    accounts.close_account(player=ana, password=PASSWORD)
    assert not PushSubscription.objects.exists()


def test_a_players_devices_are_in_their_data_download_and_no_one_elses(push_keys):
    ana, ben = make_player("ana"), make_player("ben")
    post(signed_in(ana), ON, device("ana").as_json(), HTTP_USER_AGENT=FIREFOX_ANDROID)
    device("ben").subscribe(ben)
    data = signed_in(ana).get(reverse("account_data_json")).json()
    assert [(d["device"], d["push_service"]) for d in data["devices"]] == [
        ("Firefox on Android", "updates.push.services.mozilla.com")
    ]
    rows = signed_in(ana).get(reverse("account_data_csv")).content.decode()
    assert "devices,1,device,Firefox on Android" in rows


@pytest.mark.parametrize(
    ("user_agent", "label"),
    [
        (FIREFOX_ANDROID, "Firefox on Android"),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
            "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
            "Safari on iPhone",
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
            "Edge on Windows",
        ),
        (
            "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Mobile Safari/537.36",
            "Chrome on Android",
        ),
        ("", "A browser"),
    ],
)
def test_a_device_is_named_by_its_browser_and_system(user_agent, label):
    assert device_label(user_agent) == label

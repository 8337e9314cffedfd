"""In a real browser: a player turns on "Notify me on this device" on the account page,
the device's subscription is kept for them, and a "your turn" push delivered to the
site's service worker shows as a notice that opens the table.

What the browser cannot do here: subscribe to its push service. Chromium subscribes only
through Google's (FCM), which a test machine does not reach, and never in the
off-the-record profile a test's browser context is. So the page's
`PushManager.subscribe` is stood in for by one that answers as a browser does (a
subscription with an https address and a device's real keys, recording the server key it
was given); everything else is the browser's own: the notification permission, the
service worker, the page's script and its CSRF-protected post. The push itself is
delivered to the worker through the DevTools protocol (`ServiceWorker.deliverPushMessage`),
with the payload the server's task would send. A click on a notice cannot be made through
that protocol, and a window may be opened or focused only on a real click: the click is
dispatched in the worker as a `notificationclick` event, with `clients.openWindow` and
`WindowClient.focus` recording what they were asked (the worker's own code chooses).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from config.vapid import b64url, new_pair
from leagues.models import PushSubscription, TurnNotice
from leagues.notify import push
from leagues.notify.selectors import waiting
from tests.conftest import DaphneServer
from tests.e2e.test_live_play import sign_in
from tests.factories import make_player
from tests.leagues.notify.devices import new_device
from tests.leagues.notify.test_turn_mail import table_for

pytestmark = pytest.mark.e2e

# In every page before its own scripts: the browser's subscribe, as a push service would
# answer it, and what it was asked for.
SUBSCRIBE = """
(() => {
  const given = %s;
  let current = null;
  window.__serverKeys = [];
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__serverKeys.push(
      btoa(String.fromCharCode.apply(null, key))
        .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, ""));
    current = {
      endpoint: given.endpoint,
      toJSON: function () { return given; },
      unsubscribe: function () { current = null; return Promise.resolve(true); },
    };
    return Promise.resolve(current);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(current); };
})();
"""

NOTICES = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map(function (note) {
    return {title: note.title, body: note.body, tag: note.tag, icon: note.icon, data: note.data};
  });
}"""


def shown_when(page, test: str) -> list[dict]:
    """Wait until the notices shown (`notes`, as NOTICES gives them) pass `test`, and give
    the ones that passed, read in the same look: read again, a notice may already be gone
    or replaced."""
    found = page.evaluate(
        f"""async () => {{
  for (let i = 0; i < 500; i++) {{
    const notes = await ({NOTICES})();
    if ({test}) return notes;
    await new Promise(function (done) {{ setTimeout(done, 20); }});
  }}
  return null;
}}"""
    )
    assert found is not None, f"No notices shown such that {test}"
    return found


# In the worker: the first notice clicked, and the windows it opened or focused.
CLICK = """async () => {
  const opened = [], focused = [];
  self.clients.openWindow = function (url) { opened.push(url); return Promise.resolve(null); };
  WindowClient.prototype.focus = function () {
    focused.push(this.url);
    return Promise.resolve(this);
  };
  let notes = [];
  for (let i = 0; i < 500 && !notes.length; i++) {
    notes = await self.registration.getNotifications();
    if (!notes.length) await new Promise(function (done) { setTimeout(done, 20); });
  }
  // The notice on screen: the latest (a replaced one may still be listed a moment).
  const note = notes[notes.length - 1];
  self.dispatchEvent(new NotificationEvent("notificationclick", {notification: note}));
  const same = function (list) {
    return list.filter(function (n) { return n.tag === note.tag && n.body === note.body; });
  };
  for (let i = 0; i < 500 && !opened.length && !focused.length; i++) {
    await new Promise(function (done) { setTimeout(done, 20); });
  }
  for (let i = 0; i < 500 && same(await self.registration.getNotifications()).length; i++) {
    await new Promise(function (done) { setTimeout(done, 20); });
  }
  return {opened: opened, focused: focused,
          left: same(await self.registration.getNotifications()).length};
}"""


@pytest.fixture
def daphne_server(transactional_db):
    private, public = new_pair()
    server = DaphneServer(
        extra_env={
            "FAIRWAY_VAPID_PRIVATE_KEY": private,
            "FAIRWAY_VAPID_PUBLIC_KEY": public,
            "FAIRWAY_VAPID_SUBJECT": "mailto:push@example.com",
            "FAIRWAY_PUSH_SERVICES": "push.example.net",
        }
    ).start()
    server.vapid_public_key = public
    yield server
    server.stop()


class Registrations:
    """The browser's service worker registrations, as the DevTools protocol tells them."""

    def __init__(self, page) -> None:
        self.page = page
        self.cdp = page.context.new_cdp_session(page)
        self.seen: list[dict] = []
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", self._updated)
        self.cdp.send("ServiceWorker.enable")

    def _updated(self, event: dict) -> None:
        self.seen.extend(event["registrations"])

    def id_of(self, scope: str) -> str:
        for _ in range(200):
            found = [r for r in self.seen if r["scopeURL"] == scope and not r["isDeleted"]]
            if found:
                return found[-1]["registrationId"]
            self.page.wait_for_timeout(50)  # lets the protocol's events in
        raise AssertionError(f"No registration for {scope}: {self.seen}")

    def push(self, origin: str, data: str) -> None:
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": self.id_of(origin + "/"), "data": data},
        )


def test_a_player_turns_on_notices_and_a_pushed_turn_shows_and_opens_the_table(
    daphne_server, playwright_browser
):
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    table = table_for([ana, ben])
    site = daphne_server.url
    device = new_device("https://push.example.net/send/ana-laptop")

    context, page = sign_in(playwright_browser, daphne_server, "ana")
    context.grant_permissions(["notifications"], origin=site)
    context.add_init_script(SUBSCRIBE % json.dumps(device.as_json()))
    workers = Registrations(page)
    refused: list[str] = []  # what the Content-Security-Policy refused, if anything
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(site + "/accounts/profile/")
    box = page.locator("#device-notices")
    toggle = page.get_by_label("Notify me on this device")
    expect(toggle).not_to_be_checked()
    toggle.click()
    expect(box.locator(".device-note")).to_have_text("This device will show your turns.")
    expect(toggle).to_be_checked()
    # Subscribed with the site's key, and kept for Ana.
    assert page.evaluate("window.__serverKeys") == [daphne_server.vapid_public_key]
    kept = PushSubscription.objects.get()
    assert (kept.player_id, kept.endpoint) == (ana.pk, device.endpoint)
    assert kept.p256dh == device.p256dh and kept.auth == b64url(device.auth)

    # Ana's turn, pushed as the server's task would push it.
    message = push.payload(
        waiting(TurnNotice(player=ana, table=table, position=0, deadline=table.turn_deadline))
    )
    workers.push(site, json.dumps(message))
    [shown] = shown_when(page, "notes.length === 1")
    assert shown == {
        "title": "Your turn at Fairway",
        "body": f"{table}: your move (with Ben).",
        "tag": f"table-{table.pk}",
        "icon": site + "/static/img/icon-192.png",
        "data": {"url": f"/tables/{table.pk}/"},
    }

    # A later turn at the same table replaces its notice (one a table).
    workers.push(site, json.dumps({**message, "body": "A later turn."}))
    shown_when(page, "notes.length === 1 && notes[0].body === 'A later turn.'")

    # A click on it: no tab shows the table, so one opens on it; the notice goes.
    clicked = context.service_workers[-1].evaluate(CLICK)
    assert clicked == {"opened": [f"{site}/tables/{table.pk}/"], "focused": [], "left": 0}

    # With the table open in a tab, a later turn's notice brings that tab to the front.
    tab = context.new_page()
    tab.goto(f"{site}/tables/{table.pk}/")
    workers.push(site, json.dumps(message))
    shown_when(page, "notes.length === 1")
    clicked = context.service_workers[-1].evaluate(CLICK)
    assert clicked == {"opened": [], "focused": [f"{site}/tables/{table.pk}/"], "left": 0}

    # Turned off again: the device is forgotten.
    toggle.click()
    expect(box.locator(".device-note")).to_have_text("This device will show no more turns.")
    expect(toggle).not_to_be_checked()
    assert not PushSubscription.objects.exists()
    assert refused == []
    context.close()

"""In a real browser: the tab says when it is the player's turn, and alerts as asked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.e2e.test_live_play import sign_in
from tests.e2e.test_table import live, wait_for_moves
from tests.games.helpers import ana_and_ben, current, next_actor

# Run on PostgreSQL with Redis too: players on separate sockets hear each other through
# the channel layer (README.md, Testing).
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

# The browser's notifications, audio and tab visibility, recorded instead of shown.
FAKES = """
window.__hidden = false; window.__asked = 0; window.__notes = []; window.__tones = 0;
Object.defineProperty(Document.prototype, "visibilityState",
  {get() { return window.__hidden ? "hidden" : "visible"; }, configurable: true});
Object.defineProperty(Document.prototype, "hidden",
  {get() { return window.__hidden; }, configurable: true});
class FakeNotification {
  constructor(title, options) { window.__notes.push(title + ": " + options.body); }
  close() {}
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = () => {
  window.__asked += 1; FakeNotification.permission = "granted"; return Promise.resolve("granted");
};
window.Notification = FakeNotification;
class FakeAudio {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.__tones += 1;
    return {frequency: {}, connect: (node) => node, start() {}, stop() {}};
  }
  createGain() {
    return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: (n) => n};
  }
}
window.AudioContext = FakeAudio;
"""

YOUR_TURN = re.compile(r"^Your turn · ")


def icon(page) -> str:
    return page.locator("link[rel=icon]").get_attribute("href")


def play_a_turn(page) -> None:
    """Draw from the pile and turn a card up."""
    page.locator("#draw-pile").click()
    page.locator("button.flip").first.click()


def test_the_tab_shows_the_players_turn_and_alerts_only_as_asked(daphne_server, playwright_browser):
    """The title and icon follow whose turn it is; a chime and a notification (the tab
    hidden) come only once the player turned them on, the browser asked once."""
    table, ana_player, ben_player = ana_and_ben()
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ana_context.add_init_script(FAKES)
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    live(ana, daphne_server, table)
    live(ben, daphne_server, table)

    # The tee off waits for Ana: her tab says so. Chime and notification start off.
    expect(ana).to_have_title(YOUR_TURN)
    assert "flag-turn" in icon(ana)
    expect(ana.locator("#alert-sound")).not_to_be_checked()
    expect(ana.locator("#alert-notify")).not_to_be_checked()
    ana.locator(".tee-off label.pick").nth(0).click()
    ana.locator(".tee-off label.pick").nth(5).click()
    ana.locator("#tee-off-button").click()
    expect(ana).not_to_have_title(YOUR_TURN)
    assert "flag-turn" not in icon(ana)
    assert ana.evaluate("[window.__asked, window.__tones, window.__notes.length]") == [0, 0, 0]

    ana.locator("#alert-sound").check()
    ana.locator("#alert-notify").check()
    expect(ana.locator("#alert-notify")).to_be_checked()
    assert ana.evaluate("window.__asked") == 1
    sample = ana.evaluate("window.__tones")  # turning the chime on plays it once
    assert sample > 0

    # Ana's tab is hidden while Ben tees off (and plays, if he goes first).
    ana.evaluate("window.__hidden = true")
    ben.locator(".tee-off label.pick").nth(0).click()
    ben.locator(".tee-off label.pick").nth(5).click()
    ben.locator("#tee-off-button").click()
    wait_for_moves(table, 2, ben)
    _, hole, state = current(table.pk)
    if hole.seat_positions[next_actor(state)] == 1:
        play_a_turn(ben)
    expect(ana).to_have_title(YOUR_TURN)
    assert "flag-turn" in icon(ana)
    assert ana.evaluate("window.__tones") > sample
    notes = ana.evaluate("window.__notes")
    assert len(notes) == 1 and notes[0].startswith("Your turn at Fairway: Your turn")

    # In view, her next turn chimes without a notification; Ben's turn is not hers.
    ana.evaluate("window.__hidden = false")
    moves = Move.objects.filter(hole__table=table).count()
    play_a_turn(ana)
    expect(ana).not_to_have_title(YOUR_TURN)
    wait_for_moves(table, moves + 2, ana)
    chimed = ana.evaluate("window.__tones")
    play_a_turn(ben)
    expect(ana).to_have_title(YOUR_TURN)
    assert ana.evaluate("window.__tones") > chimed
    assert len(ana.evaluate("window.__notes")) == 1
    ana.reload()
    expect(ana.locator("#alert-sound")).to_be_checked()
    assert ana.evaluate("window.__asked") == 0  # a new page; the browser's answer stands
    ana_context.close()
    ben_context.close()

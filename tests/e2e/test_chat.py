"""In real browsers: two players chat at a table, and one mutes the other for themselves."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import ChatMessage
from tests.e2e.test_live_play import sign_in
from tests.e2e.test_table import live
from tests.games.helpers import ana_and_ben

# Run on PostgreSQL with Redis too: players on separate sockets hear each other through
# the channel layer (README.md, Testing).
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]


def lines(page):
    return page.locator("#table-chat .chat-line")


def test_two_players_chat_and_one_mutes_the_other(daphne_server, playwright_browser):
    table, ana_player, ben_player = ana_and_ben()
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    errors: list[str] = []
    for page in (ana, ben):
        page.on("pageerror", lambda error: errors.append(str(error)))
        live(page, daphne_server, table)
    version = table.version

    # Ana writes; Ben sees her line as she typed it (escaped, not markup), and her box
    # is empty again for the next one.
    ana.get_by_label("Message", exact=True).fill("Hello <b>Ben</b>")
    ana.get_by_label("Message", exact=True).press("Enter")
    expect(lines(ben).last).to_contain_text("Ana Hello <b>Ben</b>")
    expect(ben.locator("#table-chat .chat-text b")).to_have_count(0)
    expect(ana.get_by_label("Message", exact=True)).to_have_value("")

    # What Ana is typing survives Ben's quick phrase arriving.
    ana.get_by_label("Message", exact=True).fill("half a tho")
    ben.get_by_role("button", name="Nice shot!").click()
    expect(lines(ana).last).to_contain_text("Ben Nice shot!")
    expect(ana.locator("#chat-announce")).to_have_text("Ben says: Nice shot!")
    expect(ana.get_by_label("Message", exact=True)).to_have_value("half a tho")

    # Ana mutes Ben: his lines go from her page only, and stay gone after a reload.
    ana.get_by_role("button", name="Mute Ben").click()
    expect(ana.locator("#table-chat .chat-line", has_text="Nice shot!")).to_be_hidden()
    ben.get_by_label("Message", exact=True).fill("can you hear me?")
    ben.get_by_role("button", name="Send").click()
    expect(lines(ben).last).to_contain_text("can you hear me?")
    expect(ana.locator("#table-chat .chat-line", has_text="can you hear me?")).to_be_attached()
    expect(ana.locator("#table-chat .chat-line", has_text="can you hear me?")).to_be_hidden()
    expect(ana.locator("#table-chat .chat-line", has_text="Hello")).to_be_visible()
    expect(ana.locator("#chat-announce")).to_have_text("Ben says: Nice shot!")  # not read out
    live(ana, daphne_server, table)
    expect(ana.locator("#table-chat .chat-line", has_text="can you hear me?")).to_be_hidden()
    # Kept for Ana's account alone, should someone else sign in in this browser.
    kept = ana.evaluate("Object.keys(localStorage).filter((k) => k.startsWith('fairway.chat'))")
    assert kept == [f"fairway.chat.muted.{ana_player.pk}"]
    expect(ben.locator("#table-chat .chat-line", has_text="Nice shot!")).to_be_visible()

    # And hears him again.
    ana.get_by_role("button", name="unmute Ben").click()
    expect(ana.locator("#table-chat .chat-line", has_text="can you hear me?")).to_be_visible()

    assert ChatMessage.objects.count() == 3
    table.refresh_from_db()
    assert table.version == version  # no move went stale for the chat
    assert errors == []
    ana_context.close()
    ben_context.close()


def test_on_a_phone_the_chat_is_a_tap_away_and_counts_what_came_while_out_of_view(
    daphne_server, playwright_browser
):
    """On a phone the chat sits far below the felt: a "Chat" link near the top of the
    page leads there and counts the lines that came while the chat was out of view; in
    the chat, the oldest line reads whole below the heading."""
    table, ana_player, ben_player = ana_and_ben()
    for i in range(12):
        ChatMessage.objects.create(
            table=table, author=ana_player if i % 2 else ben_player, text=f"line {i}"
        )
    # Said an hour ago: the lines to come are not held back as a burst.
    ChatMessage.objects.update(created_at=timezone.now() - timedelta(hours=1))
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(
        playwright_browser, daphne_server, "ben", viewport={"width": 390, "height": 844}
    )
    for page in (ana, ben):
        live(page, daphne_server, table)

    jump = ben.get_by_role("link", name="Chat")
    assert jump.bounding_box()["y"] < 300  # in the first screen, near the top
    assert ben.locator("#table-chat").bounding_box()["y"] > 844  # the chat is not
    expect(ben.locator("#chat-unread")).to_be_hidden()

    for n, text in enumerate(("Are you there?", "Your turn, Ben"), start=1):
        ana.get_by_label("Message", exact=True).fill(text)
        ana.get_by_label("Message", exact=True).press("Enter")
        expect(lines(ben).last).to_contain_text(text)
        expect(ben.locator("#chat-unread")).to_have_text(f"{n} new")
    expect(ben.get_by_role("link", name="Chat, 2 new")).to_be_visible()

    jump.click()
    chat = ben.locator("#table-chat")
    box = chat.bounding_box()
    assert 0 <= box["y"] < 844, box
    expect(ben.locator("#chat-unread")).to_be_hidden()
    # A line that comes while the chat is in view is read as it comes.
    ana.get_by_label("Message", exact=True).fill("Found it?")
    ana.get_by_label("Message", exact=True).press("Enter")
    expect(lines(ben).last).to_contain_text("Found it?")
    expect(ben.locator("#chat-unread")).to_be_hidden()

    # Scrolled back to the oldest line: it reads whole, inside its frame, below the heading.
    listing = chat.locator(".chat-list")
    listing.evaluate("el => { el.scrollTop = 0; }")
    heading = chat.get_by_role("heading", name="Chat").bounding_box()
    frame = listing.bounding_box()
    first = lines(ben).first.bounding_box()
    assert listing.evaluate("el => parseFloat(getComputedStyle(el).borderTopWidth)") >= 1
    assert heading["y"] + heading["height"] + 4 <= frame["y"], (heading, frame)
    assert frame["y"] + 2 <= first["y"], (frame, first)
    assert first["y"] + first["height"] <= frame["y"] + frame["height"]
    ana_context.close()
    ben_context.close()

"""The table chat over the real ASGI application: lines reach every viewer live, and
every refusal is a polite alert that changes nothing."""

from __future__ import annotations

import html
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from games.chat import CHAT_BURST, say
from games.models import ChatMessage, Table
from tests.factories import make_player
from tests.games.conftest import connect
from tests.games.helpers import current, quick_action
from tests.games.test_consumers import frame_for, two_players

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("stop_driver"),
    pytest.mark.both_databases,
]

HEADERS = {"HX-Request": "true", "HX-Trigger": None}


def chat(text, **extra) -> str:
    """A chat line as htmx's ws extension sends the chat form."""
    return json.dumps({"type": "chat", "text": text, "HEADERS": HEADERS, **extra})


async def chat_frame(ws) -> str:
    """The next frame that carries the chat panel (an alert may come before it)."""
    for _ in range(5):
        frame = await ws.receive_from(timeout=10)
        if 'id="table-chat"' in frame:
            return frame
    raise AssertionError("no chat panel arrived")


def chat_texts(frame: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r'<span class="chat-text">(.*?)</span>', frame)]


def alert_of(frame: str) -> str:
    found = re.search(r'id="table-alert"[^>]*>(?:<p>(.*?)</p>)?</div>', frame)
    assert found, frame
    return html.unescape(found.group(1) or "")


async def refusal(ws) -> str:
    """The next alert with something to say (a line said clears the alert first)."""
    for _ in range(3 * CHAT_BURST):
        frame = await ws.receive_from(timeout=10)
        if 'id="table-alert"' in frame and alert_of(frame):
            assert 'id="table-chat"' not in frame
            return alert_of(frame)
    raise AssertionError("no refusal arrived")


@database_sync_to_async
def stored() -> list[tuple[str, bool]]:
    return list(ChatMessage.objects.order_by("pk").values_list("text", "hidden"))


@database_sync_to_async
def version_of(table_id: int) -> int:
    return Table.objects.get(pk=table_id).version


@database_sync_to_async
def watcher():
    return make_player("carl", display_name="Carl")


async def test_a_line_reaches_the_other_seat_and_watchers_without_a_new_version():
    table, ana, ben = await two_players()
    carl = await watcher()
    ana_ws, first = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    carl_ws, _ = await connect(carl, table.pk)
    assert 'id="table-chat"' in first and "No messages yet." in first
    before = await version_of(table.pk)

    await ana_ws.send_to(chat("  Good \n luck, Ben! "))
    for ws in (ben_ws, carl_ws, ana_ws):
        frame = await chat_frame(ws)
        assert chat_texts(frame) == ["Good luck, Ben!"]
        assert '<b class="chat-author">Ana</b>' in frame
    assert await version_of(table.pk) == before
    assert await stored() == [("Good luck, Ben!", False)]
    for ws in (ana_ws, ben_ws, carl_ws):
        await ws.disconnect()


async def test_a_line_does_not_make_a_pending_move_stale():
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    version = db_table.version

    await ben_ws.send_to(chat("Nice shot!"))
    await chat_frame(ana_ws)
    await chat_frame(ben_ws)
    # Ana tees off on the version she saw before the chat line: it counts.
    seat = hole.seat_positions.index(0)
    await ana_ws.send_to(frame_for(quick_action(state, seat), version))
    frame = await ana_ws.receive_from(timeout=10)
    assert "moved on" not in frame
    assert await version_of(table.pk) == version + 1
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_chat_lines_are_escaped():
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)

    await ana_ws.send_to(chat('<script>alert("x")</script><b onclick=1>&amp;'))
    frame = await chat_frame(ben_ws)
    assert "<script>" not in frame and "<b onclick" not in frame
    assert "&lt;script&gt;" in frame
    assert chat_texts(frame) == ['<script>alert("x")</script><b onclick=1>&amp;']
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_a_player_saying_too_much_is_told_to_slow_down(settings):
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)

    for n in range(CHAT_BURST):
        await ana_ws.send_to(chat(f"line {n}"))
        await chat_frame(ben_ws)
    await ana_ws.send_to(chat("one too many"))
    assert await refusal(ana_ws) == "Slow down: at most 5 chat messages in 10 seconds."
    assert await ben_ws.receive_nothing(timeout=0.3)
    assert [text for text, _ in await stored()] == [f"line {n}" for n in range(5)]
    # Ben has his own allowance.
    await ben_ws.send_to(chat("my turn to talk"))
    assert chat_texts(await chat_frame(ana_ws))[-1] == "my turn to talk"
    await ana_ws.disconnect()
    await ben_ws.disconnect()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (chat("hi", version="3"), "That chat message was not understood."),
        (chat("hi", position="1"), "That chat message was not understood."),
        (json.dumps({"type": "chat"}), "That chat message was not understood: it carries no text."),
        (json.dumps({"type": "chat", "text": ["hi"]}), "A chat message is text."),
        (json.dumps({"type": "chat", "text": 7}), "A chat message is text."),
        (chat("   \n "), "Write something to say."),
        (chat("x" * 201), "A chat message is at most 200 characters."),
        (chat("bell\x07"), "That message holds characters that cannot be shown."),
        (
            json.dumps({"type": "chat_hide", "message": "one"}),
            "A chat message's number must be a whole number.",
        ),
        (
            json.dumps({"type": "chat_hide"}),
            "That chat message was not understood: it carries no message.",
        ),
        (json.dumps({"type": "chat_off", "text": "x"}), "That chat message was not understood."),
        (json.dumps({"type": "chat_sync", "stamp": 5}), "That chat message was not understood."),
    ],
)
async def test_a_malformed_chat_message_gets_a_clear_refusal(message, expected):
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)

    await ana_ws.send_to(message)
    assert await refusal(ana_ws) == expected
    assert await ben_ws.receive_nothing(timeout=0.3)
    assert await stored() == []
    # The socket stays open and the chat works.
    await ana_ws.send_to(chat("still here"))
    assert chat_texts(await chat_frame(ben_ws)) == ["still here"]
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_a_watcher_reads_but_may_not_write():
    table, ana, ben = await two_players()
    carl = await watcher()
    carl_ws, first = await connect(carl, table.pk)
    ana_ws, _ = await connect(ana, table.pk)
    assert "watchers read" in first and 'id="chat-form"' not in first

    await carl_ws.send_to(chat("heckle"))
    assert await refusal(carl_ws) == "Only the players at this table can chat; watchers read."
    assert await ana_ws.receive_nothing(timeout=0.3)
    assert await stored() == []
    await carl_ws.disconnect()
    await ana_ws.disconnect()


async def test_the_host_hides_a_line_from_everyone_and_no_one_else_can():
    table, ana, ben = await two_players()  # Ana hosts
    carl = await watcher()
    ana_ws, first = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    carl_ws, _ = await connect(carl, table.pk)
    for line in ("something rude", "sorry"):
        await ben_ws.send_to(chat(line))
        for ws in (ana_ws, ben_ws, carl_ws):
            assert chat_texts(await chat_frame(ws))[-1] == line
    rude = (await database_sync_to_async(ChatMessage.objects.get)(text="something rude")).pk
    hide = json.dumps({"type": "chat_hide", "message": str(rude), "HEADERS": HEADERS})

    await ben_ws.send_to(hide)
    assert await refusal(ben_ws) == "Only the host or an organiser can hide a chat message."
    assert await carl_ws.receive_nothing(timeout=0.3)

    await ana_ws.send_to(hide)
    for ws in (ana_ws, ben_ws, carl_ws):
        assert chat_texts(await chat_frame(ws)) == ["sorry"]
    assert await stored() == [("something rude", True), ("sorry", False)]
    # Hidden for good: not on a page loaded afterwards either.
    page = await database_sync_to_async(page_of)(carl, table.pk)
    assert "something rude" not in page and "sorry" in page

    await ana_ws.send_to(hide)
    assert await refusal(ana_ws) == "That chat message is hidden already."
    for ws in (ana_ws, ben_ws, carl_ws):
        await ws.disconnect()


async def test_a_superuser_hides_a_line_at_a_table_they_watch_but_does_not_turn_the_chat_off():
    table, ana, ben = await two_players()  # Ana hosts
    carl = await watcher()  # staff, as every club organiser is: not enough
    await database_sync_to_async(type(carl).objects.filter(pk=carl.pk).update)(is_staff=True)
    dora = await database_sync_to_async(make_player)(
        "dora", display_name="Dora", is_staff=True, is_superuser=True
    )
    await database_sync_to_async(say)(table_id=table.pk, player=ben, text="something rude")
    carl_ws, carls = await connect(carl, table.pk)
    dora_ws, doras = await connect(dora, table.pk)
    ben_ws, bens = await connect(ben, table.pk)
    # The button is shown to those it works for: a superuser, not a player or a watcher.
    assert 'class="chat-hide"' in doras
    assert 'class="chat-hide"' not in carls and 'class="chat-hide"' not in bens
    assert 'id="chat-toggle"' not in doras
    rude = (await database_sync_to_async(ChatMessage.objects.get)(text="something rude")).pk
    hide = json.dumps({"type": "chat_hide", "message": str(rude), "HEADERS": HEADERS})

    await carl_ws.send_to(hide)
    assert await refusal(carl_ws) == "Only the host or an organiser can hide a chat message."
    await dora_ws.send_to(hide)
    for ws in (carl_ws, dora_ws, ben_ws):
        assert chat_texts(await chat_frame(ws)) == []
    hidden = await database_sync_to_async(ChatMessage.objects.get)(pk=rude)
    assert (hidden.hidden, hidden.hidden_by_id) == (True, dora.pk)
    # Turning the chat off stays the host's.
    await dora_ws.send_to(json.dumps({"type": "chat_off", "HEADERS": HEADERS}))
    assert await refusal(dora_ws) == "Only the host can turn the chat on or off."
    for ws in (carl_ws, dora_ws, ben_ws):
        await ws.disconnect()


def page_of(user, table_id: int) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/tables/{table_id}/").content.decode()


async def test_the_host_turns_the_chat_off_and_on():
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, first = await connect(ben, table.pk)
    assert 'id="chat-toggle"' not in first  # only the host's
    await ben_ws.send_to(chat("before"))
    await chat_frame(ana_ws)
    await chat_frame(ben_ws)
    version = await version_of(table.pk)

    await ben_ws.send_to(json.dumps({"type": "chat_off", "HEADERS": HEADERS}))
    assert await refusal(ben_ws) == ("Only the host can turn the chat on or off.")
    await ana_ws.send_to(json.dumps({"type": "chat_off", "HEADERS": HEADERS}))
    for ws in (ana_ws, ben_ws):
        frame = await chat_frame(ws)
        assert "The chat is off at this table." in frame and chat_texts(frame) == []
    assert await version_of(table.pk) == version

    await ben_ws.send_to(chat("anyone?"))
    assert await refusal(ben_ws) == "The chat is off at this table."
    assert await ana_ws.receive_nothing(timeout=0.3)
    assert [text for text, _ in await stored()] == ["before"]

    await ana_ws.send_to(json.dumps({"type": "chat_on", "HEADERS": HEADERS}))
    for ws in (ana_ws, ben_ws):
        assert chat_texts(await chat_frame(ws)) == ["before"]
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_a_reload_shows_the_recent_lines():
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    await ana_ws.send_to(chat("see you on the green"))
    await chat_frame(ana_ws)
    await ana_ws.disconnect()
    page = await database_sync_to_async(page_of)(ben, table.pk)
    assert "see you on the green" in page
    _, first = await connect(ben, table.pk)
    assert chat_texts(first) == ["see you on the green"]


async def test_a_viewer_who_missed_the_chat_s_news_gets_it_on_its_next_sync():
    table, ana, ben = await two_players()
    ben_ws, first = await connect(ben, table.pk)
    stamp = re.search(r'name="stamp" value="([^"]*)"', first).group(1)

    def sync(stamp: str) -> str:
        return json.dumps({"type": "chat_sync", "stamp": stamp, "HEADERS": HEADERS})

    # Nothing changed: nothing is sent, and no alert is cleared.
    await ben_ws.send_to(sync(stamp))
    assert await ben_ws.receive_nothing(timeout=0.3)
    # A line whose news never arrived (written here, announced to no one).
    await database_sync_to_async(ChatMessage.objects.create)(
        table_id=table.pk, author=ana, text="did you get this?"
    )
    assert await ben_ws.receive_nothing(timeout=0.3)
    await ben_ws.send_to(sync(stamp))
    frame = await chat_frame(ben_ws)
    assert chat_texts(frame) == ["did you get this?"]
    assert re.search(r'name="stamp" value="([^"]*)"', frame).group(1) != stamp
    await ben_ws.disconnect()

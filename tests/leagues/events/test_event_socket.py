"""An event's page over its WebSocket, through the real ASGI application: members get
the live part on connecting and again as a round is seated and results come in;
anyone else is closed out."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from leagues.events import services
from tests.factories import make_player
from tests.games.conftest import session_cookie
from tests.leagues.events_helpers import club_with, entered, new_event, play_paper_round

# Run on PostgreSQL with Redis too: the news crosses the real channel layer there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


@pytest.fixture(autouse=True)
async def pages_let_go_of_the_database():
    """The communicator keeps the connections of the calls it makes open, which would
    hold the test database open: close the one its thread holds."""
    yield
    await database_sync_to_async(connections.close_all)()


STAMP = re.compile(r'name="stamp" value="([0-9a-f]+)"')


async def connect(user, event_id: int) -> WebsocketCommunicator:
    cookie = await database_sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/events/{event_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def an_event():
    club, olive, people = club_with(4)
    event = new_event(club, olive, seats_per_table=2, rounds=2)
    entered(event, people)
    return event, olive, people


async def test_a_member_sees_each_round_seated_and_the_champion_named_live():
    event, olive, people = await an_event()
    communicator = await connect(people[0], event.pk)
    first = await communicator.receive_from(timeout=10)
    assert 'id="event-live"' in first and "Taking entries" in first
    await database_sync_to_async(services.start_event)(event=event, by=olive)
    seated = await communicator.receive_from(timeout=10)
    assert "Round 1 in play" in seated and "Table 2" in seated
    assert "Close round" not in seated  # a member's part has no organiser's buttons
    # Entry is over: the page's Entry section (Withdraw, the entrants) is cleared.
    assert '<div id="event-entry" hx-swap-oob="true" hidden></div>' in seated
    assert 'id="event-apart"' not in seated  # kept apart: still the organiser's to set
    # A sync with the stamp it holds is answered with nothing; with another, the part.
    stamp = STAMP.search(seated).group(1)
    await communicator.send_json_to({"type": "sync", "stamp": stamp})
    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.send_json_to({"type": "sync", "stamp": "stale"})
    assert "Round 1 in play" in await communicator.receive_from(timeout=10)
    for _ in range(2):
        await database_sync_to_async(play_paper_round)(event, olive)
    frames = []
    while not await communicator.receive_nothing(timeout=1):
        frames.append(await communicator.receive_from(timeout=10))
    assert "Champion: <strong>P0</strong>" in frames[-1]
    # Over: the organiser's "Kept apart" form no longer stands above the champion.
    assert '<div id="event-apart" hx-swap-oob="true" hidden></div>' in frames[-1]
    await communicator.disconnect()


async def test_an_organiser_s_part_has_the_close_button_and_outsiders_are_closed_out():
    event, olive, people = await an_event()
    await database_sync_to_async(services.start_event)(event=event, by=olive)
    communicator = await connect(olive, event.pk)
    assert "Close round 1 now" in await communicator.receive_from(timeout=10)
    await communicator.disconnect()
    outsider = await database_sync_to_async(make_player)("outsider")
    communicator = await connect(outsider, event.pk)
    assert await communicator.receive_output(timeout=10) == {
        "type": "websocket.close",
        "code": 4404,
    }
    anonymous = WebsocketCommunicator(
        application, f"/ws/events/{event.pk}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await anonymous.connect()
    assert connected
    assert (await anonymous.receive_output(timeout=10))["code"] == 4401

"""The real ASGI application guards its WebSockets: origin and account first."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import autoplay, lobby
from tests.factories import make_player
from tests.games.conftest import session_cookie

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


@database_sync_to_async
def a_player_at_a_table() -> tuple[int, bytes]:
    """A signed-in player's session cookie, and the table they sit at: a connection that
    only its origin can stop."""
    ana = make_player("ana")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana])
    return table.pk, session_cookie(ana)


async def opens(table_id: int, headers: list[tuple[bytes, bytes]]) -> bool:
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    await autoplay.stop()
    return connected


async def test_websocket_from_a_foreign_origin_is_refused():
    table_id, cookie = await a_player_at_a_table()
    assert await opens(table_id, [(b"origin", b"http://localhost"), (b"cookie", cookie)])
    assert not await opens(table_id, [(b"origin", b"https://evil.example"), (b"cookie", cookie)])


async def test_websocket_without_an_origin_is_refused():
    table_id, cookie = await a_player_at_a_table()
    assert await opens(table_id, [(b"origin", b"http://localhost"), (b"cookie", cookie)])
    assert not await opens(table_id, [(b"cookie", cookie)])


async def test_websocket_from_an_anonymous_user_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/tables/1/", headers=[(b"origin", b"http://localhost")]
    )
    # Accepted, then closed with 4401, so that htmx does not try again and again.
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_output(timeout=10) == {
        "type": "websocket.close",
        "code": 4401,
    }
    await communicator.wait()

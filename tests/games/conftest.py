"""Fixtures for play: quick bots, seated players, live connections through the real ASGI app."""

from __future__ import annotations

import threading

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.asgi import application
from games import autoplay, frames, loop_writes, moves


@pytest.fixture(autouse=True)
def frames_render_in_the_event_loop():
    """Every frame a consumer sends is rendered in the event loop without touching the
    database: a render that had to fall back to the database thread fails the test."""
    before = frames.loop_fallbacks
    yield
    assert frames.loop_fallbacks == before, "a frame touched the database while rendering"


@pytest.fixture(autouse=True)
def move_threads_let_go_of_the_database(settings):
    """Channels' test communicator keeps the connections its calls open (it turns off
    their closing), which would hold the test database open: close each move thread's."""
    yield
    executor = moves._move_threads
    if executor is None:
        return
    count = settings.FAIRWAY_MOVE_THREADS
    # Each call waits for the others, so every thread of the pool takes one.
    everyone = threading.Barrier(count, timeout=10)

    def close() -> None:
        everyone.wait()
        connections.close_all()

    for future in [executor.submit(close) for _ in range(count)]:
        future.result()


@pytest.fixture(autouse=True)
async def loop_writes_closed_in_their_loop():
    """Close the test's event loop's own connections for moves (`loop_writes`) while the
    loop still runs: closed with it, their pool's tasks would be left pending."""
    yield
    await loop_writes.close()


@pytest.fixture(autouse=True)
def quick_bots(settings):
    """Bots act and holes are dealt without a pause (tests never wait on the clock)."""
    settings.FAIRWAY_BOT_DELAY = 0
    settings.FAIRWAY_HOLE_PAUSE = 0


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(user, table_id: int) -> tuple[WebsocketCommunicator, str]:
    """A signed-in connection to a table, and the full render it receives first."""
    cookie = await database_sync_to_async(session_cookie)(user)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table_id}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, _ = await communicator.connect()
    assert connected
    return communicator, await communicator.receive_from(timeout=10)


@pytest.fixture
async def stop_driver():
    """Stop this test's table driver when the test ends."""
    yield
    await autoplay.stop()

"""The real ASGI application guards its WebSockets: origin and account first."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from config.asgi import application


async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/tables/1/", headers=[(b"origin", b"https://evil.example")]
    )
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


async def test_websocket_without_an_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/tables/1/")
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_websocket_from_an_anonymous_user_is_refused():
    communicator = WebsocketCommunicator(
        application, "/ws/tables/1/", headers=[(b"origin", b"http://localhost")]
    )
    connected, code = await communicator.connect()
    assert not connected
    assert code == 4401
    await communicator.disconnect()

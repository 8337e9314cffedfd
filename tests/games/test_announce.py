"""News after the commit (`games.announce`): a write on one of the server's worker threads
hands its news to the server's event loop instead of waiting for the channel layer."""

from __future__ import annotations

import asyncio
import threading
import time

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from games import announce


async def test_news_made_on_a_worker_thread_is_handed_to_the_server_loop(monkeypatch):
    layer = get_channel_layer()
    channel = await layer.new_channel()
    group = announce.group_name(1)
    await layer.group_add(group, channel)
    sending = asyncio.Event()
    deliver = asyncio.Event()
    send = layer.group_send

    async def slow_group_send(group: str, message: dict) -> None:
        sending.set()
        await deliver.wait()  # a busy layer: held until the thread has gone on
        await send(group, message)

    monkeypatch.setattr(layer, "group_send", slow_group_send)
    announce.serve_from_running_loop()
    message = {"type": "table.changed", "version": 7, "wake": False}

    def write() -> tuple[float, str]:
        started = time.monotonic()
        announce._send(group, message)
        return time.monotonic() - started, threading.current_thread().name

    for thread_sensitive in (True, False):
        spent, thread = await sync_to_async(write, thread_sensitive=thread_sensitive)()
        assert thread != threading.current_thread().name
        # Waiting for the layer would have held the thread until SEND_TIMEOUT.
        assert spent < announce.SEND_TIMEOUT / 4
        await asyncio.wait_for(sending.wait(), 2)
        deliver.set()
        assert await asyncio.wait_for(layer.receive(channel), 2) == message
        sending.clear()
        deliver.clear()


def test_off_the_server_news_is_sent_before_the_call_returns():
    """A command or a test: no server's loop runs, so the news goes out at once."""
    received = []

    async def listen_and_send() -> None:
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(announce.group_name(2), channel)
        await asyncio.to_thread(announce._send, announce.group_name(2), {"type": "x"})
        received.append(await asyncio.wait_for(layer.receive(channel), 2))

    asyncio.run(listen_and_send())
    assert received == [{"type": "x"}]

"""The production channel layer (`config.seams.PubSubChannelLayer`) on a real Redis.

Each layer instance stands for a server process: it has its own connection and its own
members of groups.
"""

from __future__ import annotations

import asyncio

import pytest
import redis
from django.conf import settings

from config.seams import PubSubChannelLayer
from tests.conftest import free_port, require

pytestmark = pytest.mark.redis


@pytest.fixture
async def processes():
    require("redis")
    url = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", [None])[0]
    hosts = [url or "redis://127.0.0.1:6379/0"]
    layers = [PubSubChannelLayer(hosts=hosts), PubSubChannelLayer(hosts=hosts)]
    yield layers
    for layer in layers:
        await layer.flush()


async def member(layer, group: str) -> str:
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def received(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


async def nothing_more(layer, channel: str) -> bool:
    try:
        await asyncio.wait_for(layer.receive(channel), 0.3)
    except TimeoutError:
        return True
    return False


async def test_a_group_message_reaches_each_member_once_in_this_process_and_the_other(
    processes,
):
    here, there = processes
    group = f"table-{free_port()}"
    mine, theirs = await member(here, group), await member(there, group)

    await here.group_send(group, {"type": "table.changed", "version": 3})

    assert await received(here, mine, 1) == [{"type": "table.changed", "version": 3}]
    assert await received(there, theirs, 1) == [{"type": "table.changed", "version": 3}]
    # This process's copy came back through Redis, and was dropped.
    assert await nothing_more(here, mine)
    assert await nothing_more(there, theirs)


async def test_messages_sent_together_arrive_in_order_everywhere(processes):
    here, there = processes
    group = f"table-{free_port()}"
    mine, theirs = await member(here, group), await member(there, group)

    await asyncio.gather(*(here.group_send(group, {"type": "t", "n": n}) for n in range(200)))

    expected = [{"type": "t", "n": n} for n in range(200)]
    assert await received(there, theirs, 200) == expected
    assert await received(here, mine, 200) == expected
    assert await nothing_more(here, mine)


async def test_a_message_to_one_channel_still_crosses_processes(processes):
    here, there = processes
    theirs = await there.new_channel()

    await here.send(theirs, {"type": "direct", "n": 1})

    assert await received(there, theirs, 1) == [{"type": "direct", "n": 1}]


async def test_without_redis_this_process_still_hears_and_the_sender_is_told():
    layer = PubSubChannelLayer(hosts=[f"redis://127.0.0.1:{free_port()}/0"])
    # A member that joined while Redis was there (joining subscribes on Redis).
    channel = "asgi.specific.member"
    layer._get_layer().channels[channel] = asyncio.Queue()
    layer._get_layer().groups["asgi__group__t"] = {channel}

    with pytest.raises(redis.ConnectionError):
        await layer.group_send("t", {"type": "table.changed", "version": 9})

    assert await received(layer, channel, 1) == [{"type": "table.changed", "version": 9}]


class Relay:
    """A TCP relay between a layer and Redis: it counts the reads of what the layer sends
    (one per round trip, when each message waits for its reply) and can cut Redis off."""

    def __init__(self, url: str) -> None:
        self.target = redis.connection.parse_url(url)
        self.reads = 0
        self.links: list[asyncio.StreamWriter] = []
        self.server = None
        self.port = free_port()

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)

    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/{self.target.get('db', 0)}"

    async def cut(self) -> None:
        """Drop every connection and refuse new ones until `open` again."""
        self.server.close()
        await self.server.wait_closed()
        for writer in self.links:
            writer.transport.abort()
        self.links = []

    async def _link(self, reader, writer) -> None:
        upstream_reader, upstream = await asyncio.open_connection(
            self.target.get("host", "127.0.0.1"), self.target.get("port", 6379)
        )
        self.links += [writer, upstream]
        await asyncio.gather(
            self._pipe(reader, upstream, count=True), self._pipe(upstream_reader, writer)
        )

    async def _pipe(self, reader, writer, count: bool = False) -> None:
        try:
            while data := await reader.read(65536):
                self.reads += count
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.transport.abort()


@pytest.fixture
async def relay():
    require("redis")
    url = settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", [None])[0]
    relay = Relay(url or "redis://127.0.0.1:6379/0")
    await relay.open()
    yield relay
    await relay.cut()


async def test_messages_published_while_redis_answers_go_out_together(relay, processes):
    _, there = processes
    here = PubSubChannelLayer(hosts=[relay.url()])
    group = f"table-{free_port()}"
    theirs = await member(there, group)
    await here.group_send(group, {"type": "t", "n": -1})  # connected
    relay.reads = 0

    await asyncio.gather(*(here.group_send(group, {"type": "t", "n": n}) for n in range(200)))

    assert relay.reads < 20  # channels-redis alone: a round trip each, 200
    assert await received(there, theirs, 201) == [{"type": "t", "n": n} for n in range(-1, 200)]
    await here.flush()


async def test_every_connection_is_told_once_redis_answers_again_after_an_outage(relay):
    here = PubSubChannelLayer(hosts=[relay.url()])
    mine = await member(here, f"table-{free_port()}")

    await relay.cut()
    await asyncio.sleep(1.5)  # the receiving loop finds Redis gone
    await relay.open()

    assert await asyncio.wait_for(here.receive(mine), 30) == {"type": "layer.resumed"}
    await here.flush()

"""Where the server leans on another library's internals: each seam, the reason in one
sentence, and the upstream issue or missing API it stands for. Loading this module
refuses versions these were not written for (`check`); `tests/test_seams.py` and
`tests/test_channel_layer.py` fail for each one whose patch is taken away. Live play's
own seam (channels' consumer loop) is in `games/seams.py`.

daphne builds each WebSocket connection from its factory's `protocol` (Twisted's
documented `Factory.protocol`); `use_websocket_protocol` points it at a subclass
(daphne offers no setting for either change):

- `WebSocketProtocol.serverClose`: autobahn's `sendClose` refuses 1012 and 1013
  (service restart, try again later), the codes after which htmx reconnects, so they
  go out as a close frame of their own;
- `WebSocketProtocol.onOpen`: Twisted buffers whatever is written to a connection
  without bound however slowly the client reads, so a client that leaves its buffer
  full for `FAIRWAY_WS_SLOW_SECONDS` is dropped (it reconnects and gets a full render).

channels-redis's pub/sub layer (`PubSubChannelLayer`, subclassed through its private
`_get_layer`, shards and receive loop):

- a group message reaches this process's own members at once, not through Redis and
  back, so a process's viewers hear its moves even while Redis is away (no API: the
  layer delivers only what Redis sends back);
- what is published while Redis answers goes out in one pipeline, since one round trip
  per message had announcements queue for hundreds of milliseconds under load
  (django/channels_redis#399 asks for bulk sends);
- once Redis answers after an outage, every connection is told (`RESUMED`) that news
  may have been lost, as the layer's `on_disconnect` and `on_reconnect` options once
  did (accepted but never called since 4.0: django/channels_redis#406).

`on_daphne_start` and `on_daphne_shutdown` use Twisted's public reactor hooks only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import sys
from collections.abc import Awaitable, Callable

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from daphne.ws_protocol import WebSocketFactory
from daphne.ws_protocol import WebSocketProtocol as DaphneWebSocketProtocol

from games import seams as games_seams

logger = logging.getLogger(__name__)

#: The versions each seam here was written for, as pinned in requirements.txt.
WRITTEN_FOR = {
    # `_get_layer`, the shards and their receive loop are private: django/channels_redis#399
    # (bulk sends) and #406 (on_disconnect and on_reconnect never called).
    "channels-redis": {"4.3.0"},
    # `WebSocketFactory.protocol` is swapped for a subclass: daphne has no setting for it.
    "daphne": {"4.2.3"},
    # `sendCloseFrame` stands in for `sendClose`, which refuses the restart codes.
    "autobahn": {"26.11.1"},
}


def check() -> None:
    """Refuse to start on a library version the seams here were not written for."""
    games_seams.check(WRITTEN_FOR, where="config/seams.py")


# --- daphne: each WebSocket connection ---------------------------------------------------

RESTART_CODES = {1012, 1013}


#: The kernel's send buffer of each WebSocket connection (it doubles it for its own use).
SEND_BUFFER_BYTES = 256 * 1024


class _SlowReaderGuard:
    """A streaming producer on a WebSocket's transport. Twisted pauses it while more
    than its buffer (64 KiB) waits to be written to the client, and resumes it once that
    is written: paused for `seconds`, the client reads too slowly and is dropped."""

    def __init__(self, protocol, seconds: float, previous=None, clock=None) -> None:
        self.protocol = protocol
        self.seconds = seconds
        self.previous = previous
        self.clock = clock
        self.timer = None

    def pauseProducing(self) -> None:
        if self.previous is not None:
            self.previous.pauseProducing()
        if self.timer is None:
            clock = self.clock
            if clock is None:
                from twisted.internet import reactor as clock
            self.timer = clock.callLater(self.seconds, self.drop)

    def resumeProducing(self) -> None:
        if self.previous is not None:
            self.previous.resumeProducing()
        self._stand_down()

    def stopProducing(self) -> None:
        if self.previous is not None:
            self.previous.stopProducing()
        self._stand_down()

    def _stand_down(self) -> None:
        if self.timer is not None and self.timer.active():
            self.timer.cancel()
        self.timer = None

    def drop(self) -> None:
        self.timer = None
        logger.warning("Dropped a WebSocket client that read nothing for %s s", self.seconds)
        self.protocol.dropConnection(abort=True)


class WebSocketProtocol(DaphneWebSocketProtocol):
    """daphne's WebSocket connection, which may close with a restart code and drops a
    client that stops reading."""

    #: Seconds a client may leave its buffer full before it is dropped (0: never).
    slow_seconds: float = 0
    #: What times the wait (None: Twisted's reactor).
    clock = None

    def serverClose(self, code=None) -> None:
        if code in RESTART_CODES:
            self.sendCloseFrame(code=code)
        else:
            super().serverClose(code)

    def onOpen(self) -> None:
        super().onOpen()
        if not self.slow_seconds:
            return
        # Linux grows a socket's send buffer up to 4 MiB, which hides a stalled client
        # from Twisted for minutes; a fixed one still holds seconds of frames.
        with contextlib.suppress(AttributeError, OSError):
            self.transport.getHandle().setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES
            )
        # The HTTP channel that made the upgrade is the transport's producer still: the
        # guard takes its place and passes each call on to it.
        transport = self.transport
        previous = getattr(transport, "producer", None)
        guard = _SlowReaderGuard(self, self.slow_seconds, previous, self.clock)
        if previous is not None:
            transport.unregisterProducer()
        transport.registerProducer(guard, True)


def use_websocket_protocol(slow_seconds: float) -> None:
    """Have daphne build every WebSocket connection as `WebSocketProtocol`, dropping a
    client that reads nothing for `slow_seconds` (0: never)."""
    WebSocketProtocol.slow_seconds = slow_seconds
    WebSocketFactory.protocol = WebSocketProtocol


def on_daphne_start(start: Callable[[], object]) -> None:
    """Call `start()` in daphne's event loop as soon as it runs (a no-op elsewhere).

    Twisted's asyncio reactor fires its start-up triggers before the loop runs, so the
    call is put off to the loop's first turn.
    """
    if "daphne.server" not in sys.modules or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    reactor.callWhenRunning(reactor.callLater, 0, start)


def on_daphne_shutdown(close: Callable[[], Awaitable[None]]) -> None:
    """Run `close()` when daphne's reactor begins to shut down, before sockets drop.

    Only under daphne (its asyncio reactor is installed before it loads the application);
    elsewhere, such as tests through the ASGI app, nothing is registered.
    """
    if "daphne.server" not in sys.modules or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import defer, reactor

    def trigger():
        return defer.Deferred.fromFuture(asyncio.ensure_future(close()))

    reactor.addSystemEventTrigger("before", "shutdown", trigger)


# --- channels-redis: the pub/sub layer's shorter path -------------------------------

#: Bytes of the token that opens every group message a loop's layer publishes.
ORIGIN_BYTES = 8
#: The message every connection of a process gets once Redis answers again after an
#: outage: what was published meanwhile, by this process or others, never arrived.
RESUMED = {"type": "layer.resumed"}


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` that delivers group messages in-process at once and
    pipelines its publishing."""

    def _get_layer(self) -> RedisPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer

    async def group_send(self, group: str, message: dict) -> None:
        await self._get_layer().group_send(group, message)


class _LoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts=None, **kwargs) -> None:
        super().__init__(hosts, **kwargs)
        self.origin = os.urandom(ORIGIN_BYTES)
        self._shards = [_Shard(host, self) for host in decode_hosts(hosts)]

    async def group_send(self, group: str, message: dict) -> None:
        group_channel = self._get_group_channel_name(group)
        data = self.channel_layer.serialize(message)
        for channel in self.groups.get(group_channel, ()):
            queue = self.channels.get(channel)
            if queue is not None:
                queue.put_nowait(data)
        await self._get_shard(group_channel).publish(group_channel, self.origin + data)


class _Shard(RedisSingleShardConnection):
    def __init__(self, host, channel_layer: _LoopLayer) -> None:
        super().__init__(host, channel_layer)
        self._outbox: list[tuple[str, bytes, asyncio.Future]] = []
        self._publishing: asyncio.Task | None = None

    async def publish(self, channel: str, message: bytes) -> None:
        sent = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, sent))
        if self._publishing is None or self._publishing.done():
            self._publishing = asyncio.ensure_future(self._publish_all())
        await sent

    async def _publish_all(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                async with self._lock:
                    self._ensure_redis()
                    pipeline = self._redis.pipeline(transaction=False)
                    for channel, message, _ in batch:
                        pipeline.publish(channel, message)
                    await pipeline.execute()
            except asyncio.CancelledError:
                for *_, sent in batch + self._outbox:
                    sent.cancel()
                self._outbox = []
                raise
            except Exception as error:
                for *_, sent in batch:
                    if not sent.done():
                        sent.set_exception(error)
            else:
                for *_, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    async def _do_receiving(self) -> None:
        # As channels-redis's loop, but it notices an outage and its end. redis-py
        # reconnects on the next read and subscribes again to everything; messages
        # published in between are gone, so each connection is told to catch up.
        lost = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if lost:
                        lost = False
                        logger.warning("Redis answers again: every connection catches up.")
                        self._resumed()
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (TimeoutError, asyncio.CancelledError, GeneratorExit):
                raise
            except Exception as error:
                if not lost:
                    logger.error("Lost Redis (%s): news waits until it answers.", error)
                lost = True
                await asyncio.sleep(1)

    def _resumed(self) -> None:
        data = self.channel_layer.channel_layer.serialize(RESUMED)
        for queue in self.channel_layer.channels.values():
            queue.put_nowait(data)

    def _receive_message(self, message) -> None:
        if message is not None:
            name = message["channel"]
            if isinstance(name, bytes):
                name = name.decode()
            if name in self.channel_layer.groups:
                data = message["data"]
                if data[:ORIGIN_BYTES] == self.channel_layer.origin:
                    return  # delivered in this process already
                message = {**message, "data": data[ORIGIN_BYTES:]}
        super()._receive_message(message)


check()

"""Every use of another library's private names, in one place, each checked at start-up.

Fairway leans on a few internals where the libraries offer no public way:

- channels-redis's pub/sub layer (`PubSubChannelLayer`): a table's announcements reach
  this process's own viewers at once, what is published while Redis answers goes
  out in one pipeline (channels-redis publishes one message at a time, and under load
  announcements queued behind each other for hundreds of milliseconds), and once Redis
  answers again after an outage every connection is told that news may have been lost
  (`RESUMED`);
- daphne's `WebSocketProtocol.serverClose` (`allow_restart_codes`): close codes 1012
  and 1013, so that htmx reconnects after a restart;
- daphne's `WebSocketProtocol.onOpen` (`drop_slow_readers`): a client that stops
  reading is dropped instead of Twisted buffering what it is sent without bound;
- asgiref's thread-local naming the server's event loop (`server_loop`): a write on a
  worker thread hands its announcement to the loop instead of waiting for it;
- psycopg's server-binding cursor class as Django wraps it (`server_binding_cursor`):
  the hot path's statements are prepared once per connection;
- channels' consumer loop (`LiveConsumer`, `dispatch_all`): a connection reads its
  messages with one task per source for its life, not new tasks for every message,
  and does not close database connections on the database thread for every message.

`check()` runs when the app loads (`games.apps`) and refuses to start on versions these
were not written for; `tests/test_seams.py` holds each to its library on the real thing.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version

from asgiref.sync import SyncToAsync
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from django.core.exceptions import ImproperlyConfigured

logger = logging.getLogger(__name__)

#: The versions each seam was written for, as pinned in requirements.txt.
WRITTEN_FOR = {
    "channels": {"4.3.2"},
    "channels-redis": {"4.3.0"},
    "daphne": {"4.2.3"},
    "asgiref": {"3.13.0"},
    "Django": {"5.2.19"},
}


def check() -> None:
    """Refuse to start on a library version the seams here were not written for."""
    wrong = [
        f"{name} {version(name)} (written for {', '.join(sorted(known))})"
        for name, known in WRITTEN_FOR.items()
        if version(name) not in known
    ]
    if wrong:
        raise ImproperlyConfigured(
            "config/seams.py uses private names of libraries at other versions than those "
            "installed: " + "; ".join(wrong) + ". Check each seam against the new version "
            "(tests/test_seams.py) and update WRITTEN_FOR."
        )


# --- asgiref: the server's event loop ----------------------------------------------------


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server that called this worker thread (through
    `sync_to_async`), or None off such a thread. asgiref keeps it in a thread-local of
    `SyncToAsync`; it has no public accessor."""
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    if loop is not None and getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) not in (
        None,
        os.getpid(),
    ):
        return None  # a forked child's copy of its parent's loop
    return loop


# --- Django and psycopg: a cursor that binds values on the server ----------------------


def server_binding_cursor(connection):
    """A cursor of Django's PostgreSQL `connection` (connected) that sends parameters
    apart from the statement, so that psycopg may prepare it; Django's own cursors quote
    each value into the text. Django names the class, but only inside its backend."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    return ServerBindingCursor(connection.connection)


# --- daphne: close codes for a restart ----------------------------------------------------

RESTART_CODES = {1012, 1013}


def allow_restart_codes() -> None:
    """Let `websocket.close` carry 1012 or 1013 (a no-op without daphne)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return
    original = WebSocketProtocol.serverClose
    if getattr(original, "allows_restart_codes", False):
        return

    def server_close(self, code=None):
        if code in RESTART_CODES:
            self.sendCloseFrame(code=code)
        else:
            original(self, code)

    server_close.allows_restart_codes = True
    WebSocketProtocol.serverClose = server_close


#: The kernel's send buffer of each WebSocket connection (it doubles it for its own use).
SEND_BUFFER_BYTES = 256 * 1024


class _SlowReaderGuard:
    """A streaming producer on a WebSocket's transport. Twisted pauses it while more
    than its buffer (64 KiB) waits to be written to the client, and resumes it once that
    is written: paused for `seconds`, the client reads too slowly and is dropped."""

    def __init__(self, protocol, seconds: float, previous=None) -> None:
        self.protocol = protocol
        self.seconds = seconds
        self.previous = previous
        self.timer = None

    def pauseProducing(self) -> None:
        if self.previous is not None:
            self.previous.pauseProducing()
        if self.timer is None:
            from twisted.internet import reactor

            self.timer = reactor.callLater(self.seconds, self.drop)

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


def drop_slow_readers(seconds: float) -> None:
    """Drop a WebSocket client that has left more than the socket's send buffer and 64
    KiB unread for `seconds` (a no-op without daphne, or when `seconds` is 0). Twisted
    buffers whatever is written to a connection, without bound, however slowly the
    client reads; dropped, the client reconnects (htmx does after 1006) and gets a full
    render."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return
    original = getattr(WebSocketProtocol.onOpen, "wrapped", WebSocketProtocol.onOpen)
    if not seconds:
        WebSocketProtocol.onOpen = original
        return

    def on_open(self) -> None:
        original(self)
        # Linux grows a socket's send buffer up to 4 MiB, which hides a stalled client
        # from Twisted for minutes; a fixed one still holds seconds of frames.
        with contextlib.suppress(AttributeError, OSError):
            self.transport.getHandle().setsockopt(
                socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES
            )
        # The HTTP channel that made the upgrade is the transport's producer still: the
        # guard takes its place and passes each call on to it.
        transport = self.transport
        guard = _SlowReaderGuard(self, seconds, getattr(transport, "producer", None))
        if guard.previous is not None:
            transport.unregisterProducer()
        transport.registerProducer(guard, True)

    on_open.wrapped = original
    WebSocketProtocol.onOpen = on_open


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


# --- channels: a consumer's loop over its messages ---------------------------------------


async def dispatch_all(sources: list, dispatch) -> None:
    """Pass each message from any of `sources` to `dispatch`, one at a time, in order
    of arrival, as channels' `await_many_dispatch` does, but with one reader task per
    source for the connection's life instead of new tasks (each with a copy of the
    context) and a new wait for every message: a server with hundreds of connections
    otherwise holds thousands of such objects, each a second old, for the garbage
    collector to walk. A source's error ends it as it would end channels' loop.
    """
    # One message waits per source at most, as with channels' one task per source.
    ready: asyncio.Queue = asyncio.Queue(maxsize=1)

    async def read(source) -> None:
        try:
            while True:
                await ready.put((await source(), None))
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # handed to the dispatching loop, which raises it
            await ready.put((None, error))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            message, error = await ready.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader


class LiveConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer that reaches the database only through
    `database_sync_to_async`, which closes old connections itself.

    Channels' own dispatch closes them first on the database thread, for every message:
    a trip to the thread that applies every table's moves, queued behind them. This
    dispatch goes straight to the handler, and messages reach it through
    `dispatch_all`.
    """

    async def __call__(self, scope, receive, send) -> None:
        # As channels' AsyncConsumer.__call__, with `dispatch_all`.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            with contextlib.suppress(StopConsumer):
                await dispatch_all(sources, self.dispatch)
        finally:
            await self.release()

    async def release(self) -> None:
        """Let go of what the connection holds beyond its life (its groups). Runs once
        the connection ends, however it ends; channels' own loop has no such step."""

    async def layer_resumed(self, message: dict) -> None:
        """Redis answers again after an outage (`RESUMED`): news sent meanwhile was lost."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

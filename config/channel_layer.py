"""The production channel layer: channels-redis's pub/sub layer, with a shorter path for
a table's announcements (`games.services._announce`).

- A group message reaches this process's own members of the group at once. Redis
  carries it to the other processes; when this process's copy comes back, it is
  dropped (each loop's layer tags what it publishes with a token of its own).
- What is published while Redis answers an earlier message goes together in one
  pipeline, in order. channels-redis publishes one message at a time and waits for
  each reply, so under load a busy event loop let announcements queue behind each
  other for hundreds of milliseconds.

Built on channels-redis's internals (`RedisPubSubLoopLayer`, `RedisSingleShardConnection`),
at the version pinned in requirements.txt; `tests/test_channel_layer.py` holds it to
that on a real Redis.
"""

from __future__ import annotations

import asyncio
import os

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

#: Bytes of the token that opens every group message a loop's layer publishes.
ORIGIN_BYTES = 8


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

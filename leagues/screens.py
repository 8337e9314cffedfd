"""A page that only watches (a night's board, an event's page), live over its socket:
the one consumer they share (`WatchingConsumer`), and what such a page reads from its
socket: nothing but a sync, `{"type": "sync", "stamp": S}`, with the stamp of what it
shows; anything else is ignored."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time

from channels.generic.websocket import AsyncWebsocketConsumer

from games.ratelimit import TokenBucket

logger = logging.getLogger(__name__)

#: A watching page's messages are small; anything longer is not one.
MAX_MESSAGE_BYTES = 512


def read_sync(text_data: str | None, bucket: TokenBucket) -> tuple[bool, str | None]:
    """Whether `text_data` is a sync within `bucket`'s rate, and the stamp it carries
    (None if it carries none that can be one)."""
    if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return False, None
    if not bucket.allow(time.monotonic()):
        return False, None
    with contextlib.suppress(ValueError, RecursionError):
        data = json.loads(text_data)
        if isinstance(data, dict) and data.get("type") == "sync":
            stamp = data.get("stamp")
            return True, stamp if isinstance(stamp, str) else None
    return False, None


def stamped(html: str) -> tuple[str, str]:
    """A frame whose stamp is a digest of its HTML, for a part with no stamp of its own."""
    return hashlib.sha256(html.encode()).hexdigest()[:16], html


class WatchingConsumer(AsyncWebsocketConsumer):
    """A page that only watches, live over its socket: joined to one group, sent its live
    part as it stands on connecting, and again on the group's news and on a sync whose
    stamp no longer holds.

    The page holds no state: each frame is read afresh and rendered into the same
    partial the page shows, stamped with a digest of what it shows; a frame whose stamp
    the page already holds is not sent. News that comes while a frame is being made
    asks for one more frame, not one each. A subclass says who may watch (`admit`),
    what a frame is (`frame`), and what happens once there is none (`gone`); its
    handlers for the group's news call `changed`.
    """

    #: Syncs a second and burst: a page asks every 15 or 20 seconds.
    rate, burst = 1.0, 5

    group: str | None = None
    stamp: str | None = None
    rendering: asyncio.Task | None = None
    dirty = False

    async def admit(self) -> tuple[str | None, int]:
        """The group to join, or None with the code to close with (read before the
        connection is accepted)."""
        raise NotImplementedError

    async def frame(self) -> tuple[str, str] | None:
        """The live part as it stands (its stamp and HTML), or None once it is gone."""
        raise NotImplementedError

    async def refused(self, code: int) -> None:
        """Close a connection that may not watch."""
        await self.close(code=code)

    async def gone(self) -> None:
        """What the page watched is gone: close."""
        await self.close(code=4404)

    async def connect(self) -> None:
        group, code = await self.admit()
        await self.accept()
        if group is None:
            await self.refused(code)
            return
        self.group = group
        self.bucket = TokenBucket(self.rate, self.burst)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # htmx's ws extension reconnects without resyncing: always start from a full
        # render, read after joining the group so that no news since is missed.
        await self.send_frame()

    async def disconnect(self, code: int) -> None:
        if self.rendering is not None:
            self.rendering.cancel()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Only syncs: a watching page sends nothing else. Anything else is ignored."""
        is_sync, stamp = read_sync(text_data, self.bucket)
        if is_sync:
            self.stamp = stamp
            self.changed()

    def changed(self) -> None:
        """Render again, once for any number of changes that come while a render is
        under way."""
        self.dirty = True
        if self.rendering is None or self.rendering.done():
            self.rendering = asyncio.ensure_future(self._render_while_dirty())

    async def _render_while_dirty(self) -> None:
        try:
            while self.dirty:
                self.dirty = False
                if not await self.send_frame():
                    return
        except Exception:  # the database is the truth: the next sync catches up
            logger.exception("Could not send the live part to group %s", self.group)

    async def send_frame(self) -> bool:
        """Send the live part if it changed since this page's last frame; False (and
        `gone`) once there is none."""
        frame = await self.frame()
        if frame is None:
            await self.gone()
            return False
        stamp, html = frame
        if stamp != self.stamp:
            self.stamp = stamp
            await self.send(text_data=html)
        return True

"""The night's board over a WebSocket: one connection per screen, joined to its night's
group, sent the whole board as it stands on connecting and whenever the night's holes
change (`services.announce_night_changed`).

The board holds no state of its own: each frame is the night read afresh and rendered
into the same partial the page shows, stamped with a digest of what it shows. The page
sends `{"type": "sync", "stamp": S}` now and then; a board whose stamp no longer holds
(its news was lost, a table started) is sent again. A revoked link closes its boards
with 4410, after a last frame that says so (and so does a screen that reconnects on
it); an unknown one is closed with 4404.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from games.ratelimit import TokenBucket

from ..screens import read_sync
from . import selectors, services

logger = logging.getLogger(__name__)

#: Syncs a second and burst: a screen asks every 15 seconds.
RATE, BURST = 1.0, 5
#: Application close codes: no such link, and a link revoked (htmx does not reconnect).
CLOSE_NOT_FOUND = 4404
CLOSE_GONE = 4410


#: The boards' reads and renders, one after another on a thread of their own: a night's
#: board takes tens of milliseconds, which would hold up the thread the process's pages
#: and live play's small reads share.
board_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="boards")


def _on_board_thread(function):
    return database_sync_to_async(function, thread_sensitive=False, executor=board_thread)


def board_frame(token: str) -> tuple[str, str] | None:
    """The board of the link `token` as a frame (its stamp and HTML), or None once the
    link no longer works."""
    found = selectors.board_by_token(token)
    if found is None or found.revoked:
        return None
    board = selectors.night_board(found.night)
    return board.stamp, render_to_string("leagues/board.html#board", {"board": board, "oob": True})


def gone_frame() -> str:
    return render_to_string("leagues/board.html#gone", {"oob": True})


def _night_of(token: str) -> tuple[int | None, int]:
    """The night of a link that works, or None with the code to close with."""
    found = selectors.board_by_token(token)
    if found is None:
        return None, CLOSE_NOT_FOUND
    return (None, CLOSE_GONE) if found.revoked else (found.night_id, 0)


class BoardConsumer(AsyncWebsocketConsumer):
    """A screen's live connection to one night's board."""

    group: str | None = None
    stamp: str | None = None
    rendering: asyncio.Task | None = None
    dirty = False

    async def connect(self) -> None:
        self.token = str(self.scope["url_route"]["kwargs"]["token"])
        night_id, code = await database_sync_to_async(_night_of)(self.token)
        await self.accept()
        if night_id is None:
            # A screen reconnecting after its link was revoked is told so, not left stale.
            await self.send(text_data=await database_sync_to_async(gone_frame)())
            await self.close(code=code)
            return
        self.group = services.night_group(night_id)
        self.bucket = TokenBucket(RATE, BURST)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # htmx's ws extension reconnects without resyncing: always start from a full render,
        # read after joining the group so that no news since is missed.
        await self.send_board()

    async def disconnect(self, code: int) -> None:
        if self.rendering is not None:
            self.rendering.cancel()
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Only syncs: a board sends nothing else. Anything else is ignored."""
        is_sync, stamp = read_sync(text_data, self.bucket)
        if is_sync:
            self.stamp = stamp
            self.changed()

    async def night_changed(self, event: dict) -> None:
        self.changed()

    async def board_revoked(self, event: dict) -> None:
        self.changed()

    def changed(self) -> None:
        """Render the board again, once for any number of changes that come while a
        render is under way."""
        self.dirty = True
        if self.rendering is None or self.rendering.done():
            self.rendering = asyncio.ensure_future(self._render_while_dirty())

    async def _render_while_dirty(self) -> None:
        try:
            while self.dirty:
                self.dirty = False
                if not await self.send_board():
                    return
        except Exception:  # the database is the truth: the next sync catches up
            logger.exception("Could not send the board of night group %s", self.group)

    async def send_board(self) -> bool:
        """Send the board if it changed since this screen's last frame; False (and the
        socket closed) once the link no longer works."""
        frame = await _on_board_thread(board_frame)(self.token)
        if frame is None:
            await self.send(text_data=await database_sync_to_async(gone_frame)())
            await self.close(code=CLOSE_GONE)
            return False
        stamp, html = frame
        if stamp != self.stamp:
            self.stamp = stamp
            await self.send(text_data=html)
        return True

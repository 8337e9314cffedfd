"""The night's board over a WebSocket: one connection per screen, joined to its night's
group, sent the whole board as it stands on connecting and whenever the night's holes
change (`services.announce_night_changed`).

The board holds no state of its own (`leagues.screens.WatchingConsumer`): each frame is
the night read afresh, on a thread of the boards' own, and rendered into the same
partial the page shows. The page sends `{"type": "sync", "stamp": S}` now and then; a
board whose stamp no longer holds (its news was lost, a table started) is sent again.
A revoked link closes its boards with 4410, after a last frame that says so (and so
does a screen that reconnects on it); an unknown one is closed with 4404.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from ..screens import WatchingConsumer
from . import selectors, services

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


class BoardConsumer(WatchingConsumer):
    """A screen's live connection to one night's board."""

    rate, burst = RATE, BURST

    async def admit(self) -> tuple[str | None, int]:
        self.token = str(self.scope["url_route"]["kwargs"]["token"])
        night_id, code = await database_sync_to_async(_night_of)(self.token)
        return (None, code) if night_id is None else (services.night_group(night_id), 0)

    async def refused(self, code: int) -> None:
        # A screen reconnecting after its link was revoked is told so, not left stale.
        await self.send(text_data=await database_sync_to_async(gone_frame)())
        await self.close(code=code)

    async def frame(self) -> tuple[str, str] | None:
        return await _on_board_thread(board_frame)(self.token)

    async def gone(self) -> None:
        await self.send(text_data=await database_sync_to_async(gone_frame)())
        await self.close(code=CLOSE_GONE)

    async def night_changed(self, event: dict) -> None:
        self.changed()

    async def board_revoked(self, event: dict) -> None:
        self.changed()

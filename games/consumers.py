"""Live play over WebSockets: one consumer per connection, joined to its table's group.

The consumer translates between frames and services and holds no game state. Each
connection renders its own viewer's picture of the table (a seat's view, or the
spectator's) into the same live parts the page uses and sends them for htmx to swap
out of band.

It also guards the server: a message over 4 KB is refused, a connection that sends
faster than its token bucket allows is told to slow down (and closed with 4429 if
it keeps on), and when the server shuts down every connection is closed with 1012
so that htmx reconnects (to this process once restarted, or to another).
The table's chat travels on the same socket, with its own message types
(`CHAT_FIELDS`), read as strictly as moves and answered with its own news.
A client that may have missed news sends `{"type": "sync", "version": V}` now and
then and gets a full render when V is not the table's version.

Should the database go away in the middle of a move (PostgreSQL restarting), the
connection stays open: once the database answers, the player is told whether the move
was made, with the table as it stands.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import time
import weakref
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from . import announce, autoplay, frames, live, metrics, moves, services
from .chat import hide_chat_message, say, set_chat
from .models import Table
from .numbers import whole_number
from .ratelimit import TokenBucket
from .seams import LiveConsumer
from .selectors import chat_stamp, made_since, may_watch, signed_in, table_version

logger = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4096
ACTION_TYPES = {"tee_off", "draw", "replace", "flip", "discard", "knock", "swap"}
FIELDS = {"source", "position", "positions"}
# "move_id" is a client's own label for a send; the version alone decides staleness.
IGNORED = {"HEADERS", "move_id"}
# Flood throttle: messages per second and burst (settings FAIRWAY_WS_RATE and
# FAIRWAY_WS_BURST override them), and the refusals in a row that close the socket.
RATE = 10.0
BURST = 20
FLOOD_CLOSE_AFTER = 40
SLOW_DOWN = "Slow down: too many messages."
# 4429: an application close code meaning "too many messages"; 1012: service restart.
CLOSE_FLOOD = 4429
# Application close codes: "sign in first" and "no such table, or not yours to watch".
CLOSE_SIGN_IN = 4401
CLOSE_NOT_FOUND = 4404
CLOSE_RESTART = 1012
# The database lost in the middle of a move: how long to wait for it to answer again
# (a PostgreSQL restart takes a few seconds), and what the player is told.
LOST_DATABASE_SECONDS = 30
MOVE_MADE = "The server lost its database for a moment, but your move was made."
MOVE_NOT_MADE = "The server lost its database for a moment: your move was not made. Try again."
MOVE_UNKNOWN = (
    "The server has lost its database: your move may not have been made. "
    "The table shows how it stands once the database is back."
)
#: The errors of a database connection that broke (PostgreSQL restarting or gone).
LOST = (OperationalError, InterfaceError)


def _number(value: Any, what: str) -> int:
    number = whole_number(value)
    if number is None:
        raise services.GameError(f"{what} must be a whole number.")
    return number


def parse_message(data: Any) -> tuple[str, dict, int]:
    """Read a frame (htmx's ws-send form values) as (kind, action, version)."""
    if not isinstance(data, dict):
        raise services.GameError("That message was not understood.")
    extra = set(data) - FIELDS - IGNORED - {"type", "version"}
    if extra:
        raise services.GameError("That message was not understood.")
    if "version" not in data:
        raise services.GameError("That message was not understood: it carries no version.")
    version = _number(data["version"], "The version")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise services.GameError("That is not a move of this game.")
    if kind in {"next_hole", "sync"}:
        return kind, {}, version
    if kind not in ACTION_TYPES:
        raise services.GameError("That is not a move of this game.")
    action: dict[str, Any] = {"type": kind}
    if "source" in data:
        if not isinstance(data["source"], str):
            raise services.GameError('Draw from the "pile" or from the "discard" pile.')
        action["source"] = data["source"]
    if "position" in data:
        action["position"] = _number(data["position"], "A position")
    if "positions" in data:
        raw = data["positions"]
        raw = raw if isinstance(raw, list) else [raw]
        if len(raw) > 16:
            raise services.GameError("That message was not understood.")
        action["positions"] = [_number(item, "A position") for item in raw]
    return kind, action, version


#: The chat's message types and the fields each carries (besides "type" and htmx's own).
CHAT_FIELDS = {
    "chat": {"text"},
    "chat_hide": {"message"},
    "chat_on": set(),
    "chat_off": set(),
    "chat_sync": {"stamp"},
}


def parse_chat(data: dict) -> tuple[str, dict]:
    """Read a chat frame as (kind, fields): each kind carries exactly its own fields."""
    kind = data["type"]
    wanted = CHAT_FIELDS[kind]
    if set(data) - wanted - IGNORED - {"type"}:
        raise services.GameError("That chat message was not understood.")
    missing = wanted - set(data)
    if missing:
        raise services.GameError(
            f"That chat message was not understood: it carries no {min(missing)}."
        )
    fields: dict[str, Any] = {}
    if "text" in wanted:
        if not isinstance(data["text"], str):
            raise services.GameError("A chat message is text.")
        fields["text"] = data["text"]
    if "stamp" in wanted:
        if not isinstance(data["stamp"], str) or len(data["stamp"]) > 40:
            raise services.GameError("That chat message was not understood.")
        fields["stamp"] = data["stamp"]
    if "message" in wanted:
        fields["message"] = _number(data["message"], "A chat message's number")
    return kind, fields


_open_consumers: weakref.WeakSet[TableConsumer] = weakref.WeakSet()


async def close_for_restart() -> None:
    """The server is stopping: stop acting for tables, and close this process's open
    table connections with 1012."""
    # Taken before anything awaits: daphne cancels every connection's task as its
    # shutdown begins, and a cancelled consumer leaves `_open_consumers` while the
    # driver stops (mid-sweep, that takes a while): its socket would drop without 1012.
    closing = [c for c in _open_consumers if c.is_open]
    for consumer in closing:
        consumer.is_open = False
    await autoplay.stop()

    async def close(consumer: TableConsumer) -> None:
        with contextlib.suppress(Exception):
            await consumer.close(code=CLOSE_RESTART)

    await asyncio.gather(*(close(c) for c in closing))
    await moves.close()


class TableConsumer(LiveConsumer):
    """A player's or spectator's live connection to one table."""

    is_open = False
    watching = False  # counted among the table's viewers in this process (`frames.watch`)
    #: This connection's move on its way: the version it makes, and when it came in.
    moved: tuple[int, float] | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.refuse(CLOSE_SIGN_IN)
            return
        # The player itself, not channels' lazy wrapper of it: every frame asks who the
        # viewer is, and each look through the wrapper costs a call of its own.
        self.user = copy.copy(user)
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await self._may_watch():
            await self.refuse(CLOSE_NOT_FOUND)
            return
        self.group = announce.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.player_group = announce.player_group(self.user.pk)
        await self.channel_layer.group_add(self.player_group, self.channel_name)
        self.bucket = TokenBucket(
            float(getattr(settings, "FAIRWAY_WS_RATE", RATE)),
            int(getattr(settings, "FAIRWAY_WS_BURST", BURST)),
        )
        self.refused = 0
        # Under a server other than daphne (or in tests) the loop is known from here on.
        announce.serve_from_running_loop()
        await self.accept()
        self.is_open = True
        _open_consumers.add(self)
        frames.watch(self.table_id, self.user)
        self.watching = True
        # htmx's ws extension reconnects without resyncing: always start from a full render
        # (with the chat).
        self.shown: dict[str, str] = {}
        await self.send_render(chat=True)
        autoplay.ensure_started().poke(self.table_id)

    async def refuse(self, code: int) -> None:
        """Accept, then close with `code`: a handshake refused outright reaches the page
        as 1006, which htmx answers by reconnecting for ever; an application code ends it."""
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        await self.release()

    async def release(self) -> None:
        """Leave the table's group and this process's viewers, once closed for any reason
        (a failure too: a dead channel left in the group costs every move a send)."""
        if self.watching:
            frames.unwatch(self.table_id, self.user)
            self.watching = False
        self.is_open = False
        _open_consumers.discard(self)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if hasattr(self, "player_group"):
            await self.channel_layer.group_discard(self.player_group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.is_open:
            return
        if not self.bucket.allow(time.monotonic()):
            self.refused += 1
            if self.refused >= FLOOD_CLOSE_AFTER:
                self.is_open = False
                await self.close(code=CLOSE_FLOOD)
            elif self.refused == 1:
                await self.send_alert(SLOW_DOWN)
            return
        self.refused = 0
        if text_data is None:
            await self.send_alert("Send moves as text.")
            return
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_alert("That message is too long.")
            return
        try:
            data = json.loads(text_data)
            kind = data.get("type") if isinstance(data, dict) else None
            if isinstance(kind, str) and kind in CHAT_FIELDS:
                await self.chat(*parse_chat(data))
                return
            kind, action, version = parse_message(data)
        except (ValueError, RecursionError) as error:  # GameError is a ValueError too
            message = str(error) if isinstance(error, services.GameError) else ""
            await self.send_alert(message or "That message was not understood.")
            return
        if kind == "sync":
            # A client behind (it missed news) gets the table as it stands; else nothing.
            if version != await database_sync_to_async(table_version)(self.table_id):
                self.shown = {}
                await self.send_render(chat=True)  # its news may be lost as the table's
            return
        since, started = timezone.now(), time.perf_counter()
        try:
            if kind == "next_hole":
                made = await moves.next_hole(
                    table_id=self.table_id,
                    version=version,
                    by=self.user,
                    kept=frames.kept_copy(self.table_id, version),
                )
            else:
                made = await moves.play(
                    table_id=self.table_id,
                    player=self.user,
                    action=action,
                    version=version,
                    kept=frames.kept_copy(self.table_id, version),
                )
            # Timed until this connection sends the frame that shows it (`table_changed`).
            self.moved = (made.version, started) if made is not None else None
        except services.StaleVersion as error:
            self.shown = {}  # "here it is as it stands now": all of it
            await self.send_render(alert=str(error))
        except services.GameError as error:
            await self.send_alert(str(error))
        except LOST:
            logger.warning("Lost the database during a move at table %s", self.table_id)
            await self.tell_whether_made(kind, version, since)

    async def tell_whether_made(self, kind: str, version: int, since) -> None:
        """The database broke off a move made on `version` at `since`: once it answers,
        say whether the move was applied (the table as it stands with it)."""
        deadline = time.monotonic() + LOST_DATABASE_SECONDS
        while True:
            try:
                await moves.recover()
                if kind == "next_hole":
                    now = await database_sync_to_async(table_version)(self.table_id)
                    made = now is not None and now > version
                else:
                    made = await database_sync_to_async(made_since)(
                        self.table_id, self.user, kind, since
                    )
                break
            except LOST:
                if time.monotonic() > deadline:
                    await self.send_alert(MOVE_UNKNOWN)
                    return
                await asyncio.sleep(1)
        self.shown = {}
        if not await self.send_render(alert=MOVE_MADE if made else MOVE_NOT_MADE):
            await self.send_alert(MOVE_UNKNOWN)

    async def chat(self, kind: str, fields: dict) -> None:
        """Say a line, hide one or turn the chat on or off; the news comes back to every
        viewer (this one too) as `chat_changed`. A refusal raises GameError. A client
        that may have missed that news sends the chat's stamp (`chat_sync`) and gets
        the chat again if it no longer holds."""
        if kind == "chat_sync":
            if fields["stamp"] != await database_sync_to_async(chat_stamp)(self.table_id):
                await self.send_chat()
            return
        if kind == "chat":
            call, args = say, {"player": self.user, "text": fields["text"]}
        elif kind == "chat_hide":
            call = hide_chat_message
            args = {"by": self.user, "message_id": fields["message"]}
        else:
            call, args = set_chat, {"by": self.user, "on": kind == "chat_on"}
        await database_sync_to_async(call)(table_id=self.table_id, **args)
        await self.send_alert("")  # clear an earlier refusal

    async def chat_changed(self, event: dict) -> None:
        await self.send_chat()

    async def send_chat(self) -> None:
        html = await database_sync_to_async(frames.chat_frame)(self.table_id, self.user)
        await self.send(text_data=html)

    async def account_changed(self, event: dict) -> None:
        """The account was saved: a new password signs out every other session, and
        their sockets with them (4401, as for a socket that never signed in)."""
        session = self.scope.get("session") or {}
        if not await database_sync_to_async(signed_in)(self.user.pk, session.get(HASH_SESSION_KEY)):
            self.is_open = False
            await self.close(code=CLOSE_SIGN_IN)

    async def table_changed(self, event: dict) -> None:
        version = event.get("version")
        version = version if isinstance(version, int) else None
        sent = await self.send_render(version=version, news=event.get("news"))
        moved = self.moved
        if moved is not None and version is not None and version >= moved[0]:
            self.moved = None
            if sent:
                metrics.move_seconds.observe(time.perf_counter() - moved[1])
        if event.get("wake", True):
            autoplay.ensure_started().poke(self.table_id)

    async def layer_resumed(self, event: dict) -> None:
        """Redis is back after an outage: news of moves made meanwhile on other processes
        never came, so show the table as it stands (the parts that changed)."""
        await self.send_render()

    async def send_render(
        self,
        alert: str = "",
        version: int | None = None,
        news: dict | None = None,
        *,
        chat: bool = False,
    ) -> bool:
        """Send the parts of the table that changed since this connection's last frame
        (with the chat panel if `chat`); False when the database could not be read (the
        page's sync catches up later)."""
        # A version this process holds, or can make from the announced news, renders
        # from memory; anything else takes one read that the table's viewers share.
        try:
            parts = await frames.live_parts(self.table_id, self.user, alert, version, news)
        except LOST:
            logger.warning("Lost the database rendering table %s", self.table_id)
            with contextlib.suppress(*LOST):
                await moves.recover()
            return False
        # Only what changed since this connection's last frame: the scorecard stays as it
        # is through a hole, and of the board mostly a course and the piles change.
        html = live.changed(self.shown, parts)
        self.shown = parts
        if chat:  # the chat panel too, in the same frame
            html += await database_sync_to_async(frames.chat_frame)(self.table_id, self.user)
        await self.send(text_data=html)
        return True

    async def send_alert(self, message: str) -> None:
        await self.send(text_data=live.render_alert(message))

    @database_sync_to_async
    def _may_watch(self) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return False
        session = self.scope.get("session") or {}
        invited = self.table_id in session.get("invited_tables", [])
        return may_watch(table, self.user, invited)

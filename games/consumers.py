"""Live play over WebSockets: one consumer per connection, joined to its table's group.

The consumer translates between frames and services and holds no game state. Each
connection renders its own viewer's picture of the table (a seat's view, or the
spectator's) into the same partials the page uses and sends them for htmx to swap
out of band.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import driver, services
from .models import Table
from .selectors import may_watch
from .views import render_alert, render_frame

MAX_MESSAGE_BYTES = 4096
ACTION_TYPES = {"tee_off", "draw", "replace", "flip", "discard", "knock", "swap"}
FIELDS = {"source", "position", "positions"}
IGNORED = {"HEADERS"}


def _number(value: Any, what: str) -> int:
    if type(value) is int:
        return value
    if isinstance(value, str) and value.isdigit() and len(value) < 10:
        return int(value)
    raise services.GameError(f"{what} must be a whole number.")


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
    if kind == "next_hole":
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


class TableConsumer(AsyncWebsocketConsumer):
    """A player's or spectator's live connection to one table."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # 4401: an application close code meaning "sign in first".
            await self.close(code=4401)
            return
        self.user = user
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if not await self._may_watch():
            await self.close(code=4404)
            return
        self.group = services.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # htmx's ws extension reconnects without resyncing: always start from a full render.
        await self.send_render()
        driver.ensure_started().poke()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.send_alert("Send moves as text.")
            return
        if len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_alert("That message is too long.")
            return
        try:
            kind, action, version = parse_message(json.loads(text_data))
        except ValueError as error:  # GameError is a ValueError too
            message = str(error) if isinstance(error, services.GameError) else ""
            await self.send_alert(message or "That message was not understood.")
            return
        try:
            if kind == "next_hole":
                await database_sync_to_async(services.next_hole)(
                    table_id=self.table_id, version=version, by=self.user
                )
            else:
                await database_sync_to_async(services.apply_move)(
                    table_id=self.table_id, player=self.user, action=action, version=version
                )
        except services.StaleVersion as error:
            await self.send_render(alert=str(error))
        except services.GameError as error:
            await self.send_alert(str(error))

    async def table_changed(self, event: dict) -> None:
        await self.send_render(version=event.get("version"))
        driver.ensure_started().poke()

    async def send_render(self, alert: str = "", version: int | None = None) -> None:
        html = await database_sync_to_async(render_frame)(self.table_id, self.user, alert, version)
        await self.send(text_data=html)

    async def send_alert(self, message: str) -> None:
        await self.send(text_data=render_alert(message))

    @database_sync_to_async
    def _may_watch(self) -> bool:
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None:
            return False
        session = self.scope.get("session") or {}
        invited = self.table_id in session.get("invited_tables", [])
        return may_watch(table, self.user, invited)

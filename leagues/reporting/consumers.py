"""A paper table's report over a WebSocket: each of its open report pages (a seated
player's phone, an organiser) joins the report's group and is sent the holes part on
connecting and after every write of the report's holes (`services._held` announces
it), so that a hole entered on one phone is there to confirm on the other at once.

Each frame is the report read afresh, as the page would show it to that viewer, and
rendered into the page's own partial; one that would show nothing new is not sent.
Access is the page's (`pages.report_for`), checked on connecting and on every frame.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.template.loader import render_to_string

from ..roles import is_organiser
from . import selectors, services
from .pages import report_for

#: Sign in first; no such table, or not this viewer's to see.
CLOSE_SIGN_IN = 4401
CLOSE_NOT_FOUND = 4404


def _report_id(code: str, user) -> tuple[int | None, int]:
    if not user.is_authenticated:
        return None, CLOSE_SIGN_IN
    try:
        return report_for(user, code).pk, 0
    except (Http404, PermissionDenied):
        return None, CLOSE_NOT_FOUND


def holes_frame(code: str, user) -> str | None:
    """The report's holes part as `user` sees it, or None once they may not."""
    try:
        report = report_for(user, code)
    except (Http404, PermissionDenied):
        return None
    night_table = report.night_table
    return render_to_string(
        "leagues/report.html#holes",
        {
            "report": report,
            "view": selectors.report_view(report),
            "is_organiser": is_organiser(user, night_table.night.season.league.club),
            "is_seated": selectors.is_seated(user, night_table.table),
            "user": user,
            "oob": True,
        },
    )


class ReportConsumer(AsyncWebsocketConsumer):
    """A report page's live connection to its table's holes."""

    group: str | None = None
    frame: str | None = None

    async def connect(self) -> None:
        self.code = str(self.scope["url_route"]["kwargs"]["code"])
        self.user = self.scope["user"]
        report_id, code = await database_sync_to_async(_report_id)(self.code, self.user)
        await self.accept()
        if report_id is None:
            await self.close(code=code)
            return
        self.group = services.report_group(report_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # htmx's ws extension reconnects without resyncing: start from a full render,
        # read after joining the group so that no news since is missed.
        await self.send_holes()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing: anything it sends is ignored."""

    async def report_changed(self, message: dict) -> None:
        await self.send_holes()

    async def send_holes(self) -> None:
        frame = await database_sync_to_async(holes_frame)(self.code, self.user)
        if frame is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if frame != self.frame:
            self.frame = frame
            await self.send(text_data=frame)

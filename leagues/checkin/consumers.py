"""A night's arrivals over a WebSocket: the night's page (a member of its club, signed
in) joins the night's arrivals group and is sent the arrivals part on connecting and
whenever who is here changes (`services.announce_arrivals`: a check-in or its undoing,
the players present saved, an absence, a substitute, the night seated).

Each frame is the night read afresh and rendered into the part the page shows: the
count for a member; for an organiser the names too, the checked-in ids the page's
script ticks among the players present, and the present count of the seating panel.
A frame that would show nothing new is not sent.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string

from ..models import LeagueNight
from ..roles import role_in
from . import selectors, services

#: Sign in first; no such night, or not a member of its club.
CLOSE_SIGN_IN = 4401
CLOSE_NOT_FOUND = 4404


def _access(night_id: int, user) -> tuple[bool | None, int]:
    """Whether `user` organises the night's club (None: may not watch), with the code."""
    if not user.is_authenticated:
        return None, CLOSE_SIGN_IN
    night = LeagueNight.objects.select_related("season__league__club").filter(pk=night_id).first()
    role = role_in(user, night.season.league.club) if night is not None else None
    if role is None:
        return None, CLOSE_NOT_FOUND
    return role == "organiser", 0


def arrivals_frame(night_id: int, organiser: bool) -> str | None:
    """The night's arrivals part as a frame, or None once the night is gone."""
    night = LeagueNight.objects.select_related("season__league__club").filter(pk=night_id).first()
    if night is None:
        return None
    return render_to_string(
        "leagues/_arrivals.html",
        {
            "night": night,
            "is_organiser": organiser,
            "arrivals": selectors.arrivals(night),
            "oob": True,
            "live": True,
        },
    )


class ArrivalsConsumer(AsyncWebsocketConsumer):
    """A night page's live connection to the night's arrivals."""

    group: str | None = None
    frame: str | None = None

    async def connect(self) -> None:
        self.night_id = int(self.scope["url_route"]["kwargs"]["night_id"])
        organiser, code = await database_sync_to_async(_access)(self.night_id, self.scope["user"])
        await self.accept()
        if organiser is None:
            await self.close(code=code)
            return
        self.organiser = organiser
        self.group = services.arrivals_group(self.night_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        # htmx's ws extension reconnects without resyncing: start from a full render,
        # read after joining the group so that no news since is missed.
        await self.send_arrivals()

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            self.group = None

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing: anything it sends is ignored."""

    async def arrivals_changed(self, message: dict) -> None:
        await self.send_arrivals()

    async def send_arrivals(self) -> None:
        frame = await database_sync_to_async(arrivals_frame)(self.night_id, self.organiser)
        if frame is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if frame != self.frame:
            self.frame = frame
            await self.send(text_data=frame)

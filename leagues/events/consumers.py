"""An event's page, live over a WebSocket: each connection (a member of the event's
club, signed in) joins the event's group and is sent the live part of the page (rounds,
tables, standings or bracket, champion) on connecting and whenever the event changes
(the league's news `leagues.news.event_changed`, which the event's writes send: an
entry, a round seated, a table's result, a round closed).

The page holds no state (`leagues.screens.WatchingConsumer`): each frame is the event
read afresh and rendered into the same partial the page shows, stamped with a digest of
what it shows. The page sends `{"type": "sync", "stamp": S}` every 20 seconds; a stamp
that no longer holds (news lost) is answered with the part again.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.template.loader import render_to_string

from ..models import Event
from ..roles import role_in
from ..screens import WatchingConsumer
from . import selectors, services

#: Syncs a second and burst: a page asks every 20 seconds.
RATE, BURST = 1.0, 5
#: Sign in first; no such event, or not a member of its club.
CLOSE_SIGN_IN = 4401
CLOSE_NOT_FOUND = 4404


def _access(event_id: int, user) -> tuple[bool | None, int]:
    """Whether `user` organises the event's club (None: may not watch), with the code."""
    if not user.is_authenticated:
        return None, CLOSE_SIGN_IN
    event = Event.objects.select_related("club").filter(pk=event_id).first()
    role = role_in(user, event.club) if event is not None else None
    if role is None:
        return None, CLOSE_NOT_FOUND
    return role == "organiser", 0


def live_frame(event_id: int, organiser: bool, me: int | None = None) -> tuple[str, str] | None:
    """The event's live part as a frame (its stamp and HTML), for the player `me` (a
    link to their own table)."""
    event = Event.objects.select_related("club", "league", "champion").filter(pk=event_id).first()
    if event is None:
        return None
    view = selectors.event_view(event)
    html = render_to_string(
        "leagues/event.html#live",
        {"view": view, "is_organiser": organiser, "me": me, "oob": True},
    )
    return f"{view.stamp}{int(organiser)}", html


class EventConsumer(WatchingConsumer):
    """A member's live connection to one event's page."""

    rate, burst = RATE, BURST

    async def admit(self) -> tuple[str | None, int]:
        self.event_id = int(self.scope["url_route"]["kwargs"]["event_id"])
        organiser, code = await database_sync_to_async(_access)(self.event_id, self.scope["user"])
        if organiser is None:
            return None, code
        self.organiser = organiser
        return services.event_group(self.event_id), 0

    async def frame(self) -> tuple[str, str] | None:
        me = self.scope["user"].pk
        return await database_sync_to_async(live_frame)(self.event_id, self.organiser, me)

    async def gone(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)

    async def event_changed(self, message: dict) -> None:
        self.changed()

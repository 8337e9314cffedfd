"""A league's nights as an iCalendar (RFC 5545) feed that calendar apps subscribe to."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

from django.http import HttpResponse
from django.utils import timezone
from icalendar import Calendar, Event

from ..models import League, LeagueNight

#: How long a night is shown in a calendar when it has a start time.
NIGHT_LENGTH = timedelta(hours=3)


def night_start(night: LeagueNight) -> datetime | None:
    """When the night starts, in the site's time zone (None if no time is set)."""
    if night.start_time is None:
        return None
    return datetime.combine(night.date, night.start_time, tzinfo=timezone.get_default_timezone())


def league_calendar(
    league: League, nights: Iterable[LeagueNight], url_for: Callable[[LeagueNight], str]
) -> bytes:
    """The feed of `nights`: an event per night, timed if it has a start time, else all day;
    an online round's runs from its opening to its due time.

    Each event's UID stays the same when a night is moved, so calendars update it.
    """
    calendar = Calendar()
    calendar.add("prodid", "-//Fairway//League nights//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", f"{league.name} ({league.club.name})")
    stamp = timezone.now().astimezone(UTC)
    for night in nights:
        event = Event()
        event.add("uid", f"night-{night.pk}@fairway")
        event.add("dtstamp", stamp)
        start = night_start(night)
        if night.online and night.opens_at and night.due_at:
            event.add("summary", f"{league.name} online round ({night.season.name})")
            event.add("dtstart", night.opens_at.astimezone(UTC))
            event.add("dtend", night.due_at.astimezone(UTC))
        elif start is None:
            event.add("summary", f"{league.name} night ({night.season.name})")
            event.add("dtstart", night.date)
            event.add("dtend", night.date + timedelta(days=1))
        else:
            event.add("summary", f"{league.name} night ({night.season.name})")
            event.add("dtstart", start.astimezone(UTC))
            event.add("dtend", (start + NIGHT_LENGTH).astimezone(UTC))
        if night.venue:
            event.add("location", night.venue)
        event.add("url", url_for(night))
        if night.online:
            about = (
                f"An online round, {night.get_move_time_display()}: play at your table "
                f"from the night's page: {url_for(night)}#online-round"
            )
        else:
            about = f"Are you coming? Say so on the night's page: {url_for(night)}#coming"
        event.add("description", about)
        calendar.add_component(event)
    return calendar.to_ical()


def ics_response(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    # A feed holds a secret in its address: keep it out of shared caches.
    response["Cache-Control"] = "private, max-age=300"
    return response

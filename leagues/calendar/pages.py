"""A league's feed as a response: the member's own feed, and a public league's, which
the public room's view serves too."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify

from ..models import League
from . import feed, selectors


def feed_response(request: HttpRequest, league: League) -> HttpResponse:
    """The league's nights as an ICS file, each linking to its page."""
    body = feed.league_calendar(
        league,
        selectors.league_nights(league),
        lambda night: request.build_absolute_uri(night.get_absolute_url()),
    )
    return feed.ics_response(body, f"{slugify(league.name)}.ics")

"""The deal comparison as a page draws it: the members' page and the public one, which
the public room's view draws too."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ..models import LeagueNight
from ..pages import crumbs
from . import matchpoints
from .selectors import deal_comparison


def deals_page(request: HttpRequest, night: LeagueNight, *, public: bool) -> HttpResponse:
    """The deal comparison, for members (`leagues/deals.html`) or read by anyone on a
    public league (`leagues/public/deals.html`): one reading, one set of partials."""
    if not night.duplicate_deals:
        raise Http404("This night was not dealt in duplicate.")
    league = night.season.league
    seen = deal_comparison(night, request.user, public=public)
    return render(
        request,
        "leagues/public/deals.html" if public else "leagues/deals.html",
        {
            **crumbs(night, public=public),
            "waiting": seen.waiting,
            "in_play": seen.in_play,
            "comparison": seen.comparison,
            "replayable": seen.replayable,
            "by_matchpoints": matchpoints.counts_by_matchpoints(league, night),
            "matchpoint_rule": matchpoints.MATCHPOINT_RULE,
            "by_net": league.by_net,
            "public": public,
        },
    )

"""The organiser's switch that makes a league public, and the public pages: a league's
seasons, standings, nights, deal comparisons, corrections and calendar, read by anyone."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games.engine.match import HOLES

from .. import deal_results
from ..attendance.selectors import absence_rule
from ..calendar.pages import feed_response
from ..calendar.selectors import nights_to_come_and_past
from ..duplicate.pages import deals_page
from ..guests import guest_seats
from ..models import League
from ..pages import crumbs, league_or_404, night_or_404, organiser_only, season_or_404
from ..results.selectors import corrections_for, corrections_in, night_tables, table_view
from ..standings.selectors import TIE_BREAK_RULE, champions
from ..teams.standings import team_context
from . import selectors, services


@require_POST
@login_required
def league_public(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser makes the league's results public, or private again."""
    league = league_or_404(league_id)
    organiser_only(request, league.club)
    is_public = request.POST.get("is_public") == "on"
    services.set_league_public(league=league, is_public=is_public, by=request.user)
    if is_public:
        messages.success(request, "The league's results are public: anyone may read them.")
    else:
        messages.success(request, "The league is private again: only its club reads it.")
    return redirect(league)


def _public(league_id: int) -> League:
    league = selectors.public_league(league_id)
    if league is None:
        raise Http404("No such league.")
    return league


@require_GET
def public_league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league, read without an account: its seasons and nights to come."""
    league = _public(league_id)
    today = timezone.localdate()
    seasons = list(league.seasons.all())
    return render(
        request,
        "leagues/public/league.html",
        {
            "league": league,
            "seasons": [(s, champions(s)) for s in seasons],
            "upcoming": nights_to_come_and_past(league, today, past_shown=0)[0],
        },
    )


@require_GET
def public_season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A public league's season: standings and nights, read only."""
    season = season_or_404(season_id)
    league = _public(season.league_id)
    standings = deal_results.standings(season, request.user)
    return render(
        request,
        "leagues/public/season.html",
        {
            **crumbs(season, public=True),
            **team_context(season, standings.before),
            "standings": standings,
            "champions": champions(season),
            "tie_break_rule": TIE_BREAK_RULE,
            "absence_rule": absence_rule(league),
            "guest_seats": guest_seats(season),
            "nights": season.nights.all(),
            "public": True,
        },
    )


@require_GET
def public_night(request: HttpRequest, night_id: int) -> HttpResponse:
    """A public league's night: its scorecards and corrections, read only."""
    night = night_or_404(night_id)
    _public(night.season.league_id)
    return render(
        request,
        "leagues/public/night.html",
        {
            **crumbs(night, public=True),
            "tables": deal_results.table_views(
                [table_view(nt) for nt in night_tables(night)], request.user
            ),
            "holes": range(1, HOLES + 1),
            "corrections": deal_results.corrections(corrections_for(night), request.user),
            "is_organiser": False,
            "public": True,
        },
    )


@require_GET
def public_night_deals(request: HttpRequest, night_id: int) -> HttpResponse:
    """A public league's duplicate night compared deal by deal, read only; it opens once
    every table of the night is done, since anyone at all may read it."""
    night = night_or_404(night_id)
    _public(night.season.league_id)
    return deals_page(request, night, public=True)


@require_GET
def public_corrections(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league's corrections log."""
    league = _public(league_id)
    log, page = deal_results.corrections_page(
        corrections_in(league), request.user, request.GET.get("page")
    )
    return render(
        request,
        "leagues/public/corrections.html",
        {"league": league, "corrections": log, "page": page, "public": True},
    )


@require_GET
def public_calendar_feed(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league's nights as an ICS feed, for anyone."""
    return feed_response(request, _public(league_id))

"""A league's page and its seasons, a season's page, a night's page, and what an organiser
does there: open a season, add a night, set its time and place, close a season and start
the next.

The night's page is drawn by `night_page`, which the night's other rooms' forms
(attendance, seating) draw again with their errors.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import get_text_list
from django.views.decorators.http import require_GET, require_POST

from .. import deal_results
from ..attendance.selectors import absence_rule
from ..guests import guest_seats
from ..models import LeagueNight, Season
from ..pages import (
    crumbs,
    league_or_404,
    member_role,
    night_or_404,
    organiser_only,
    season_or_404,
)
from ..ratings.selectors import league_ratings, ratings_being_rebuilt
from ..standings.selectors import TIE_BREAK_RULE, champions, points_rule
from ..teams.standings import team_context
from . import services
from .forms import NightForm, ScheduleForm, SeasonForm
from .pages import night_page


def _league_page(request, league, *, season_form=None, status=200):
    role = member_role(request, league.club)
    return render(
        request,
        "leagues/league.html",
        {
            **crumbs(league),
            "is_organiser": role == "organiser",
            "seasons": [(s, champions(s)) for s in league.seasons.all()],
            "ratings": league_ratings(league),
            "ratings_being_rebuilt": ratings_being_rebuilt(league),
            "season_form": season_form or SeasonForm(),
        },
        status=status,
    )


@require_GET
@login_required
def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's seasons and ratings."""
    return _league_page(request, league_or_404(league_id))


@require_POST
@login_required
def season_create(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser opens a season in the league."""
    league = league_or_404(league_id)
    organiser_only(request, league.club)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = services.create_season(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{season.name} is open: add its first night.")
            return redirect(season)
    return _league_page(request, league, season_form=form, status=400)


def _season_page(request, season, *, night_form=None, next_form=None, status=200):
    role = member_role(request, season.league.club)
    standings = deal_results.standings(season, request.user)
    return render(
        request,
        "leagues/season.html",
        {
            **team_context(season, standings.before),
            "champions": champions(season),
            "next_form": next_form or SeasonForm(initial=_next_season_initial(season)),
            **crumbs(season),
            "is_organiser": role == "organiser",
            "standings": standings,
            "tie_break_rule": TIE_BREAK_RULE,
            "points_rule": points_rule(season.league),
            "absence_rule": absence_rule(season.league),
            "guest_seats": guest_seats(season),
            "nights": season.nights.annotate(table_count=Count("tables")),
            "night_form": night_form or NightForm(),
        },
        status=status,
    )


@require_GET
@login_required
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season's standings (printable) and nights."""
    return _season_page(request, season_or_404(season_id))


def _round(form) -> dict:
    """A night form's online round: whether it is one, its time per move and times."""
    return {key: form.cleaned_data[key] for key in ("online", "move_time", "opens_at", "due_at")}


@require_POST
@login_required
def night_create(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser adds a night to the season."""
    season = season_or_404(season_id)
    organiser_only(request, season.league.club)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            night = services.create_night(
                season=season,
                night_date=form.cleaned_data["date"],
                duplicate_deals=form.cleaned_data["duplicate_deals"],
                start_time=form.cleaned_data["start_time"],
                venue=form.cleaned_data["venue"],
                by=request.user,
                **_round(form),
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "Night created: tick the players present, then seat them.")
            return redirect(night)
    return _season_page(request, season, night_form=form, status=400)


@require_GET
@login_required
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    """A night: players present, seating, and every table's scorecard (printable)."""
    return night_page(request, night_or_404(night_id))


@require_POST
@login_required
def night_schedule(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser sets when and where a night is played."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    form = ScheduleForm(request.POST, instance=LeagueNight.objects.get(pk=night.pk))
    if form.is_valid():
        try:
            services.schedule_night(
                night=night,
                night_date=form.cleaned_data["date"],
                start_time=form.cleaned_data["start_time"],
                venue=form.cleaned_data["venue"],
                by=request.user,
                **_round(form),
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "The night's time and place are saved.")
            return redirect(night)
    night.refresh_from_db()
    return night_page(request, night, schedule_form=form, status=400)


def _next_season_initial(season: Season) -> dict:
    """The next season's name and dates as a guess: the same length, straight after."""
    start = season.end + timedelta(days=1)
    name = re.sub(r"\d+$", lambda m: str(int(m.group()) + 1), season.name)
    return {
        "name": name if name != season.name else "",
        "start": start,
        "end": start + (season.end - season.start),
    }


@require_POST
@login_required
def season_close(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser closes the season: standings frozen, champion named."""
    season = season_or_404(season_id)
    organiser_only(request, season.league.club)
    try:
        services.close_season(season=season, by=request.user)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        names = get_text_list([p.name for p in champions(season)], "and")
        messages.success(request, f"{season.name} is closed. Champion: {names}.")
    return redirect(season)


@require_POST
@login_required
def season_next(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser starts the season after a closed one, with the league's members and
    settings."""
    season = season_or_404(season_id)
    organiser_only(request, season.league.club)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            new = services.start_next_season(season=season, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, f"{new.name} is open: add its first night.")
            return redirect(new)
    return _season_page(request, season, next_form=form, status=400)

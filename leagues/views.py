"""Account pages, the home page, and the league pages: clubs, leagues, seasons, nights.

Who may do what: anonymous visitors are sent to log in; a club's pages are 404 for
anyone outside it (they do not learn it exists); members may look; only organisers
change anything (403 for a member who tries).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import get_text_list, slugify
from django.views.decorators.http import require_GET, require_POST

from games.engine.match import HOLES
from games.models import Table

from . import calendar, selectors, services
from .attendance.selectors import absence_rule
from .clubs.selectors import club_members, role_in
from .duplicate.views import deals_page
from .forms import (
    AbsenceForm,
    NightForm,
    NightPlayersForm,
    ScheduleForm,
    SeasonForm,
    SeatingForm,
    SubstituteForm,
)
from .models import League, LeagueNight, Player, Season
from .pages import (
    SEATING_CHOICES_KEY,
    crumbs,
    league_or_404,
    member_role,
    night_or_404,
    organiser_only,
    season_or_404,
)
from .ratings.selectors import league_ratings
from .results.selectors import corrections_for, corrections_in, night_tables, table_view
from .standings.selectors import TIE_BREAK_RULE, champions, points_rule, season_standings

# --- Clubs and leagues -----------------------------------------------------------------


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


# --- Seasons and standings -------------------------------------------------------------


def _season_page(request, season, *, night_form=None, next_form=None, status=200):
    role = member_role(request, season.league.club)
    return render(
        request,
        "leagues/season.html",
        {
            "champions": champions(season),
            "next_form": next_form or SeasonForm(initial=_next_season_initial(season)),
            **crumbs(season),
            "is_organiser": role == "organiser",
            "standings": season_standings(season),
            "tie_break_rule": TIE_BREAK_RULE,
            "points_rule": points_rule(season.league),
            "absence_rule": absence_rule(season.league),
            "nights": season.nights.prefetch_related("tables__table"),
            "night_form": night_form or NightForm(),
        },
        status=status,
    )


@require_GET
@login_required
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season's standings (printable) and nights."""
    return _season_page(request, season_or_404(season_id))


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
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "Night created: tick the players present, then seat them.")
            return redirect(night)
    return _season_page(request, season, night_form=form, status=400)


# --- Nights ----------------------------------------------------------------------------


def _night_page(
    request,
    night,
    *,
    players_form=None,
    seating_form=None,
    schedule_form=None,
    absence_form=None,
    substitute_form=None,
    status=200,
):
    club = night.season.league.club
    role = member_role(request, club)
    members = club_members(club)
    tables = [table_view(nt) for nt in night_tables(night)]
    return render(
        request,
        "leagues/night.html",
        {
            **crumbs(night),
            "is_organiser": role == "organiser",
            "present": night.players.order_by("display_name", "username"),
            "tables": tables,
            "seated_for_good": any(view.table.status == Table.Status.FINISHED for view in tables),
            "holes": range(1, HOLES + 1),
            "corrections": corrections_for(night),
            "schedule_form": schedule_form or ScheduleForm(instance=night),
            "players_form": players_form
            or NightPlayersForm(members=members, initial={"players": night.players.all()}),
            "seating_form": seating_form
            or SeatingForm(initial=request.session.get(SEATING_CHOICES_KEY)),
            "absence_rule": absence_rule(night.season.league),
            "absences": night.absences.select_related("player").order_by("kind"),
            "substitutes": night.substitutes.select_related("member", "player"),
            "absence_form": absence_form or AbsenceForm(members=members),
            "substitute_form": substitute_form or SubstituteForm(members=members),
        },
        status=status,
    )


@require_GET
@login_required
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    """A night: players present, seating, and every table's scorecard (printable)."""
    return _night_page(request, night_or_404(night_id))


# --- Duplicate deals -------------------------------------------------------------------


# --- Results and corrections -----------------------------------------------------------


# --- Players ---------------------------------------------------------------------------


# --- Nights planned ahead, calendars ---------------------------------------------------


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
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "The night's time and place are saved.")
            return redirect(night)
    night.refresh_from_db()
    return _night_page(request, night, schedule_form=form, status=400)


@require_GET
@login_required
def league_calendar(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's nights to come and past, and the member's own feed to subscribe to."""
    league = league_or_404(league_id)
    role = member_role(request, league.club)
    today = timezone.localdate()
    nights = list(selectors.league_nights(league))
    token = services.calendar_token(player=request.user)
    feed = request.build_absolute_uri(reverse("leagues:calendar_feed", args=[league.pk, token]))
    return render(
        request,
        "leagues/calendar.html",
        {
            **crumbs(league),
            "is_organiser": role == "organiser",
            "upcoming": [n for n in nights if n.date >= today],
            "past": [n for n in nights if n.date < today][::-1],
            "feed_url": feed,
        },
    )


def _feed(request: HttpRequest, league: League) -> HttpResponse:
    body = calendar.league_calendar(
        league,
        selectors.league_nights(league),
        lambda night: request.build_absolute_uri(night.get_absolute_url()),
    )
    return calendar.ics_response(body, f"{slugify(league.name)}.ics")


@require_GET
def calendar_feed(request: HttpRequest, league_id: int, token: str) -> HttpResponse:
    """A member's ICS feed of the league's nights, opened by the secret in its address alone
    (a calendar app has no session). 404 for a wrong secret or a player outside the club."""
    league = league_or_404(league_id)
    person = Player.objects.filter(calendar_token=token, is_active=True).first()
    if person is None or role_in(person, league.club) is None:
        raise Http404("No such calendar.")
    return _feed(request, league)


@require_POST
@login_required
def calendar_reset(request: HttpRequest, league_id: int) -> HttpResponse:
    """A new secret for the member's feeds, when an old address was shared by mistake."""
    league = league_or_404(league_id)
    member_role(request, league.club)
    services.reset_calendar_token(player=request.user)
    messages.success(request, "Your calendar has a new address: the old one no longer works.")
    return redirect("leagues:calendar", league.pk)


# --- Corrections log, public leagues ---------------------------------------------------


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
            "upcoming": [n for n in selectors.league_nights(league) if n.date >= today],
        },
    )


@require_GET
def public_season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A public league's season: standings and nights, read only."""
    season = season_or_404(season_id)
    league = _public(season.league_id)
    return render(
        request,
        "leagues/public/season.html",
        {
            **crumbs(season, public=True),
            "standings": season_standings(season),
            "champions": champions(season),
            "tie_break_rule": TIE_BREAK_RULE,
            "absence_rule": absence_rule(league),
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
            "tables": [table_view(nt) for nt in night_tables(night)],
            "holes": range(1, HOLES + 1),
            "corrections": corrections_for(night),
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
    return render(
        request,
        "leagues/public/corrections.html",
        {"league": league, "corrections": corrections_in(league), "public": True},
    )


@require_GET
def public_calendar_feed(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league's nights as an ICS feed, for anyone."""
    return _feed(request, _public(league_id))


# --- Closing a season ------------------------------------------------------------------


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

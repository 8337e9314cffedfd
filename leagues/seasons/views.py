"""A league's page and its seasons, a season's page, a night's page, and what an organiser
does there: open a season, add a night, set its time and place, close a season and start
the next.

The night's page is also the page the night's other forms (attendance, seating) show
again with their errors: `night_page`.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import get_text_list
from django.views.decorators.http import require_GET, require_POST

from games.engine.match import HOLES
from games.models import Table

from .. import deal_results
from ..attendance.selectors import absence_rule
from ..board.selectors import live_board
from ..checkin.selectors import arrivals, check_in_state
from ..clubs.selectors import club_members
from ..forms import (
    AbsenceForm,
    NightForm,
    NightPlayersForm,
    ScheduleForm,
    SeasonForm,
    SeatingForm,
    SubstituteForm,
)
from ..guests import guest_seats
from ..models import LeagueNight, Membership, Season
from ..pages import (
    SEATING_CHOICES_KEY,
    crumbs,
    league_or_404,
    member_role,
    night_or_404,
    organiser_only,
    season_or_404,
)
from ..ratings.selectors import league_ratings
from ..reporting.selectors import night_reports, with_reported
from ..results.selectors import corrections_for, night_tables, table_view
from ..standings.selectors import TIE_BREAK_RULE, champions, points_rule
from ..teams.selectors import left_out, night_teams, teammates_together
from ..teams.standings import team_context
from . import services


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


def _board_url(request, night) -> str:
    """The whole address of the night's board, or "" when it has no link that works."""
    board = live_board(night)
    return request.build_absolute_uri(board.get_absolute_url()) if board else ""


def night_page(
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
    # A paper table still reporting shows the holes its phones confirmed (not final).
    reported = with_reported([table_view(nt) for nt in night_tables(night)])
    tables = deal_results.table_views(reported.views, request.user)
    here = arrivals(night)
    checked_in_ids = {arrival.player_id for arrival in here.here}
    teams = night_teams(night) if night.season.league.is_team_league else []
    member = Membership.objects.filter(club=club, player=request.user).exists()
    check_in = check_in_state(night, request.user) if member else None
    reports = []
    if role == "organiser":
        # What the paper tables reported themselves, for the organiser to settle.
        reports = [
            view
            for view in night_reports(night)
            if view.report.night_table.table.status != Table.Status.FINISHED
            or view.waiting
            or view.disputed
        ]
        reports = [
            view
            for view in reports
            if not deal_results.hides_any(view.report.night_table.table, request.user)
        ]
    return render(
        request,
        "leagues/night.html",
        {
            **crumbs(night),
            "is_organiser": role == "organiser",
            "reports": reports,
            "has_paper_tables": any(view.table.kind == Table.Kind.HAND for view in tables),
            # The link is a key to the board: only organisers see it.
            "board_url": _board_url(request, night) if role == "organiser" else None,
            "present": night.players.order_by("display_name", "username"),
            "tables": tables,
            "seated_for_good": any(view.table.status == Table.Status.FINISHED for view in tables),
            "holes": range(1, HOLES + 1),
            "corrections": deal_results.corrections(corrections_for(night), request.user),
            "schedule_form": schedule_form or ScheduleForm(instance=night),
            "players_form": players_form
            or NightPlayersForm(
                members=members,
                left_out=left_out(teams),
                initial={
                    "players": night.players.all(),
                    "seen": ",".join(str(pk) for pk in sorted(checked_in_ids)),
                },
            ),
            "arrivals": here,
            "checked_in_ids": checked_in_ids,
            "check_in": check_in,
            # Check-in is for the night's day; the count stays once anyone checked in.
            "show_check_in": here.count
            or (not night.season.is_closed and night.date >= timezone.localdate()),
            "seating_form": seating_form
            or SeatingForm(initial=request.session.get(SEATING_CHOICES_KEY)),
            "absence_rule": absence_rule(night.season.league),
            "absences": night.absences.select_related("player").order_by("kind"),
            "substitutes": night.substitutes.select_related("member", "player"),
            "absence_form": absence_form or AbsenceForm(members=members),
            # A team league's line-ups, and teammates the seating could not split.
            "night_teams": teams,
            "together": teammates_together(night),
            "substitute_form": substitute_form or SubstituteForm(members=members),
        },
        status=status,
    )


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

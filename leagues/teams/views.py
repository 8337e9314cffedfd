"""A team league's pages: its teams (the organiser makes them, names captains, sets how
a team scores) and a team's line-up for a night (its captain, or an organiser)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from .. import deal_results
from ..clubs.selectors import club_members
from ..exports import csv_response
from ..models import League, LeagueNight, Player, Team
from ..pages import (
    crumbs,
    league_or_404,
    member_role,
    night_or_404,
    organiser_only,
    season_or_404,
)
from ..words import possessive
from . import selectors, services
from .forms import LineUpForm, TeamForm, TeamPlayerForm, TeamRulesForm
from .standings import team_rule, team_standings


def _teams_url(league: League) -> str:
    return reverse("leagues:teams", args=[league.pk])


def _teams_page(request, league, *, rules_form=None, team_form=None, status=200):
    role = member_role(request, league.club)
    members = club_members(league.club)
    teams = list(selectors.league_teams(league))
    captained = {t.pk for t in selectors.captained_teams(league, request.user)}
    # The nights whose line-ups may still be set: to come, not seated yet.
    upcoming = list(
        LeagueNight.objects.filter(
            season__league=league,
            season__closed_at__isnull=True,
            date__gte=timezone.localdate(),
            tables__isnull=True,
        )
        .select_related("season")
        .order_by("date")[:6]
    )
    return render(
        request,
        "leagues/teams.html",
        {
            **crumbs(league),
            "is_organiser": role == "organiser",
            "teams": teams,
            "captained": captained,
            "upcoming": upcoming,
            "team_rule": team_rule(league),
            "rules_form": rules_form or TeamRulesForm(instance=league),
            "team_form": team_form or TeamForm(members=members),
            "player_form": TeamPlayerForm(members=members),
        },
        status=status,
    )


@require_GET
@login_required
def teams(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's teams, their members and captains, and the nights to set line-ups for."""
    return _teams_page(request, league_or_404(league_id))


@require_POST
@login_required
def team_rules(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser makes the league a team league, or changes how its teams score."""
    league = league_or_404(league_id)
    organiser_only(request, league.club)
    form = TeamRulesForm(request.POST, instance=League.objects.get(pk=league.pk))
    if form.is_valid():
        try:
            services.set_team_rules(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "The team settings are saved.")
            return redirect(_teams_url(league))
    return _teams_page(request, league, rules_form=form, status=400)


@require_POST
@login_required
def team_create(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser makes a team of the club's members and names its captain."""
    league = league_or_404(league_id)
    organiser_only(request, league.club)
    form = TeamForm(request.POST, members=club_members(league.club))
    if form.is_valid():
        try:
            team = services.create_team(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{team.name} is a team of {league.name}.")
            return redirect(_teams_url(league))
    return _teams_page(request, league, team_form=form, status=400)


def _team_or_404(team_id: int) -> Team:
    return get_object_or_404(Team.objects.select_related("league__club"), pk=team_id)


def _team_write(request, team_id: int, write, said) -> HttpResponse:
    """An organiser's change to a team from its form of one member: `write(team, player)`,
    then `said(team, player)` as the page's message; a refusal is an error message."""
    team = _team_or_404(team_id)
    league = team.league
    organiser_only(request, league.club)
    form = TeamPlayerForm(request.POST, members=club_members(league.club))
    if not form.is_valid():
        messages.error(request, "Choose one of the club's members.")
        return redirect(_teams_url(league))
    player = form.cleaned_data["player"]
    try:
        write(team, player)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        messages.success(request, said(team, player))
    return redirect(_teams_url(league))


@require_POST
@login_required
def team_member_add(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organiser puts a member of the club on a team."""
    return _team_write(
        request,
        team_id,
        lambda team, player: services.add_team_member(team=team, player=player, by=request.user),
        lambda team, player: f"{player.name} is on {team.name}.",
    )


@require_POST
@login_required
def team_member_remove(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organiser takes a member off a team."""
    return _team_write(
        request,
        team_id,
        lambda team, player: services.remove_team_member(team=team, player=player, by=request.user),
        lambda team, player: f"{player.name} is no longer on {team.name}.",
    )


@require_POST
@login_required
def team_captain(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organiser names one of a team's members its captain."""
    return _team_write(
        request,
        team_id,
        lambda team, player: services.name_captain(team=team, player=player, by=request.user),
        lambda team, player: f"{player.name} captains {team.name}.",
    )


@require_POST
@login_required
def team_delete(request: HttpRequest, team_id: int) -> HttpResponse:
    """An organiser deletes a team."""
    team = _team_or_404(team_id)
    organiser_only(request, team.league.club)
    services.delete_team(team=team, by=request.user)
    messages.success(request, f"{team.name} is deleted: its members may join another team.")
    return redirect(_teams_url(team.league))


@require_http_methods(["GET", "POST"])
@login_required
def line_up(request: HttpRequest, night_id: int, team_id: int) -> HttpResponse:
    """A team's line-up for a night: its captain or an organiser ticks who plays."""
    night = night_or_404(night_id)
    league = night.season.league
    member_role(request, league.club)
    team = get_object_or_404(Team, pk=team_id, league=league)
    if not services.may_set_line_up(team, request.user):
        raise PermissionDenied(
            f"Only {possessive(team.name)} captain or the club's organisers set its line-up."
        )
    members = Player.objects.filter(team_memberships__team=team).order_by(
        "display_name", "username"
    )
    current = selectors.line_up_ids(night).get(team.pk)
    status = 200
    if request.method == "POST":
        form = LineUpForm(request.POST, members=members)
        if form.is_valid():
            try:
                services.set_line_up(
                    team=team, night=night, players=form.cleaned_data["players"], by=request.user
                )
            except ValidationError as error:
                form.add_error(None, error)
            else:
                names = ", ".join(p.name for p in form.cleaned_data["players"])
                messages.success(request, f"{possessive(team.name)} line-up is saved: {names}.")
                return redirect(reverse("leagues:line_up", args=[night.pk, team.pk]))
        status = 400
    else:
        form = LineUpForm(members=members, initial={"players": list(current or [])})
    return render(
        request,
        "leagues/line_up.html",
        {
            **crumbs(night),
            "team": team,
            "form": form,
            "has_line_up": current is not None,
            "seated": selectors.is_seated(night),
            "captain": selectors.captain_of(team),
        },
        status=status,
    )


@require_GET
@login_required
def team_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's team standings as a CSV download."""
    season = season_or_404(season_id)
    member_role(request, season.league.club)
    before = deal_results.standings(season, request.user).before
    filename = f"{slugify(season.league.name)}-{slugify(season.name)}-team-standings.csv"
    response, writer = csv_response(filename)
    writer.writerow(["place", "team", "members", "nights", "points"])
    for row in team_standings(season, before):
        members = ", ".join(player.name for player in row.members)
        writer.writerow([row.place, row.team.name, members, row.nights, row.points])
    return response

"""A visitor's clubs, a club's page, and what an organiser adds there: leagues, members."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from ..models import Club, League
from ..pages import member_role, organiser_only
from . import selectors, services
from .forms import LeagueForm, MemberForm


@require_GET
@login_required
def index(request: HttpRequest) -> HttpResponse:
    """The visitor's clubs and leagues, and links to their own results."""
    clubs = selectors.clubs_of(request.user).prefetch_related("leagues")
    played = League.objects.filter(
        seasons__nights__tables__table__scorecards__player=request.user
    ).distinct()
    return render(request, "leagues/index.html", {"clubs": clubs, "played": played})


def _club_page(request, club, *, league_form=None, member_form=None, status=200):
    role = member_role(request, club)
    return render(
        request,
        "leagues/club.html",
        {
            "club": club,
            "is_organiser": role == "organiser",
            "leagues": club.leagues.all(),
            "members": club.memberships.select_related("player").order_by("player__username"),
            "league_form": league_form or LeagueForm(),
            "member_form": member_form or MemberForm(),
        },
        status=status,
    )


@require_GET
@login_required
def club(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's leagues and members; organisers add both here."""
    return _club_page(request, get_object_or_404(Club, slug=slug))


@require_POST
@login_required
def league_create(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser creates a league in their club."""
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    form = LeagueForm(request.POST)
    if form.is_valid():
        try:
            league = services.create_league(club=club, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{league.name} is ready: add its first season.")
            return redirect(league)
    return _club_page(request, club, league_form=form, status=400)


@require_POST
@login_required
def member_add(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser adds a player (by username) to the club, or changes their role."""
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _club_page(request, club, member_form=form, status=400)
    player = form.cleaned_data["username"]
    services.add_member(club=club, player=player, role=form.cleaned_data["role"], by=request.user)
    messages.success(request, f"{player.name} is a member of {club.name}.")
    return redirect(club)

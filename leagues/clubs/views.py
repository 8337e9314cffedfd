"""A visitor's clubs, a new club, a club's page, and what an organiser does there:
leagues added, members added, their roles changed, members removed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..models import Club, League, Membership
from ..pages import member_role, organiser_only
from . import selectors, services
from .forms import ClubForm, LeagueForm, MemberForm, RoleForm


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
            "roles": Membership.Role.choices,
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


@require_http_methods(["GET", "POST"])
@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    """A signed-in player makes a club and is its first organiser."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(name=form.cleaned_data["name"], by=request.user)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            if club.is_active:
                messages.success(request, f"{club.name} is ready: invite its members.")
            else:
                messages.success(request, f"{club.name} is made: it waits for the site's approval.")
            return redirect(club)
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "leagues/club_new.html", {"form": form}, status=status)


def _membership(club: Club, membership_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("player"), pk=membership_id, club=club
    )


@require_POST
@login_required
def member_role_set(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An organiser makes a member an organiser, or a plain player again."""
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    membership = _membership(club, membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a role: player or organiser.")
        return redirect(club)
    try:
        services.add_member(
            club=club, player=membership.player, role=form.cleaned_data["role"], by=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        organiser = form.cleaned_data["role"] == Membership.Role.ORGANISER
        role = "an organiser" if organiser else "a player"
        messages.success(request, f"{membership.player.name} is {role} of {club.name}.")
    return redirect(club)


@require_POST
@login_required
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An organiser takes a member out of the club (never the last organiser)."""
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    membership = _membership(club, membership_id)
    try:
        services.remove_member(club=club, player=membership.player, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{membership.player.name} is no longer a member.")
    return redirect(club)

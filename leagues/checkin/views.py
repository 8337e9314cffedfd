"""Check-in pages: a member says "I'm here" (from the night's page or the QR code on the
door) or takes it back; the organiser's door sign with that QR code; and the count of
arrivals the night's page asks for while its socket is down."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..models import LeagueNight, Membership
from ..pages import crumbs, member_role, night_or_404, organiser_only
from ..qr import qr_svg
from ..roles import role_in
from . import selectors, services

NOT_A_MEMBER = "Only the club's members can check in here: ask an organiser to add you."


def _is_member(request: HttpRequest, night: LeagueNight) -> bool:
    return Membership.objects.filter(club=night.season.league.club, player=request.user).exists()


def _outsider(request: HttpRequest, night: LeagueNight) -> bool:
    """Whether the visitor is outside the night's club (a superuser is not)."""
    return (
        not _is_member(request, night) and role_in(request.user, night.season.league.club) is None
    )


def _back(request: HttpRequest, night: LeagueNight) -> HttpResponse:
    """Back to the page the form was on: the night's, the home page, or the check-in
    page."""
    back = request.POST.get("back")
    if back == "night":
        return redirect(night)
    if back == "home":
        return redirect("home")
    return redirect("leagues:check_in", night.pk)


def _refused(request: HttpRequest, night: LeagueNight, error: ValidationError) -> HttpResponse:
    """A check-in (or its undo) the rules refuse: said on the home page when it came
    from there (the home page lists several nights), else on the check-in page."""
    said = " ".join(error.messages)
    if request.POST.get("back") == "home":
        messages.error(request, said)
        return redirect("home")
    return _page(request, night, error=said, status=400)


def _page(request, night, *, error: str = "", status: int = 200) -> HttpResponse:
    if _outsider(request, night):
        # An outsider learns nothing of the club: not its name, nor its night.
        return render(request, "leagues/check_in.html", {"outsider": NOT_A_MEMBER}, status=403)
    return render(
        request,
        "leagues/check_in.html",
        {
            **crumbs(night),
            "check_in": selectors.check_in_state(night, request.user),
            "error": error or ("" if _is_member(request, night) else NOT_A_MEMBER),
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
@login_required
def check_in(request: HttpRequest, night_id: int) -> HttpResponse:
    """The page the door's QR code opens (GET), and "I'm here" (POST)."""
    night = night_or_404(night_id)
    if request.method == "GET":
        return _page(request, night)
    if _outsider(request, night):
        return _page(request, night, status=403)
    try:
        arrival = services.check_in(night=night, player=request.user)
    except ValidationError as error:
        return _refused(request, night, error)
    if arrival.again:
        messages.info(request, "You were checked in already.")
    else:
        said = "You're checked in: the organiser will seat you."
        if arrival.was_away:
            said += f" You were marked away ({arrival.was_away}); that is taken back."
        messages.success(request, said)
    return _back(request, night)


@require_POST
@login_required
def check_in_undo(request: HttpRequest, night_id: int) -> HttpResponse:
    """A member takes their check-in back, until the night is seated."""
    night = night_or_404(night_id)
    if _outsider(request, night):
        return _page(request, night, status=403)
    try:
        undone = services.undo_check_in(night=night, player=request.user)
    except ValidationError as error:
        return _refused(request, night, error)
    if undone:
        messages.success(request, "Your check-in is taken back: you are not among those present.")
    else:
        messages.info(request, "You were not checked in.")
    return _back(request, night)


@require_GET
@login_required
def door_sign(request: HttpRequest, night_id: int) -> HttpResponse:
    """The organiser's printable sign for the door: the night's QR code for check-in."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    address = request.build_absolute_uri(reverse("leagues:check_in", args=[night.pk]))
    return render(
        request,
        "leagues/door_sign.html",
        {
            **crumbs(night),
            "address": address,
            "qr": qr_svg(address, title=f"QR code: check in to {night.season.league.name}"),
        },
    )


@require_GET
@login_required
def arrivals(request: HttpRequest, night_id: int) -> HttpResponse:
    """The night's arrivals as its page shows them, asked for again while the page's
    socket is down: the count for members, the names too for an organiser."""
    night = night_or_404(night_id)
    role = member_role(request, night.season.league.club)
    return render(
        request,
        "leagues/_arrivals.html",
        {
            "night": night,
            "is_organiser": role == Membership.Role.ORGANISER,
            "arrivals": selectors.arrivals(night),
            "live": True,
        },
    )

"""The night's board, opened by its link without signing in, and the organiser's
buttons on the night's page that make, renew and revoke that link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from ..pages import night_or_404, organiser_only
from . import selectors, services


def _private(response: HttpResponse) -> HttpResponse:
    """The link is the key: no search engine keeps it, no other site is told it."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
@never_cache
def board(request: HttpRequest, token: str) -> HttpResponse:
    """A night's board for the room's screen: anyone with the link, signed in or not.
    A revoked link is gone (410), an unknown one was never here (404)."""
    found = selectors.board_by_token(token)
    if found is None or found.revoked:
        status = 404 if found is None else 410
        return _private(
            render(request, "leagues/board_gone.html", {"revoked": found}, status=status)
        )
    night_board = selectors.night_board(found.night)
    return _private(
        render(
            request,
            "leagues/board.html",
            {"board": night_board, "socket": f"/ws/board/{found.token}/"},
        )
    )


def _back(night) -> HttpResponse:
    return redirect(f"{night.get_absolute_url()}#board")


@require_POST
@login_required
def board_create(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser makes the night's board link (or is shown the one it has)."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    services.create_board(night=night, by=request.user)
    messages.success(request, "The board's link is ready: open it on the room's screen.")
    return _back(night)


@require_POST
@login_required
def board_renew(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser gives the board a new link; the old one stops working."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    services.renew_board(night=night, by=request.user)
    messages.success(request, "The board has a new link: the old one no longer works.")
    return _back(night)


@require_POST
@login_required
def board_revoke(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser stops the board's link working; open boards close."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    services.revoke_board(night=night, by=request.user)
    messages.success(request, "The board's link no longer works.")
    return _back(night)

"""The night's board, opened by its link without signing in, and the organiser's
buttons on the night's page that make, renew and revoke that link."""

from __future__ import annotations

from collections.abc import Callable

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


def _organiser_does(
    request: HttpRequest, night_id: int, write: Callable[..., object], done: str
) -> HttpResponse:
    """An organiser's button on the night's page: `write` the board's link, say `done`,
    and go back to the night's board section."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    write(night=night, by=request.user)
    messages.success(request, done)
    return redirect(f"{night.get_absolute_url()}#board")


@require_POST
@login_required
def board_create(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser makes the night's board link (or is shown the one it has)."""
    return _organiser_does(
        request,
        night_id,
        services.create_board,
        "The board's link is ready: open it on the room's screen.",
    )


@require_POST
@login_required
def board_renew(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser gives the board a new link; the old one stops working."""
    return _organiser_does(
        request,
        night_id,
        services.renew_board,
        "The board has a new link: the old one no longer works.",
    )


@require_POST
@login_required
def board_revoke(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser stops the board's link working; open boards close."""
    return _organiser_does(
        request, night_id, services.revoke_board, "The board's link no longer works."
    )

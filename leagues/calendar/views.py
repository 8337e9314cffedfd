"""A league's calendar page, the member's own feed of its nights, and a new feed address."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ..models import Player
from ..pages import crumbs, league_or_404, member_role
from ..roles import role_in
from . import selectors, services
from .pages import feed_response


@require_GET
@login_required
def league_calendar(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's nights to come and past, and the member's own feed to subscribe to."""
    league = league_or_404(league_id)
    role = member_role(request, league.club)
    today = timezone.localdate()
    upcoming, past, more_past = selectors.nights_to_come_and_past(league, today)
    token = services.calendar_token(player=request.user)
    feed = request.build_absolute_uri(reverse("leagues:calendar_feed", args=[league.pk, token]))
    return render(
        request,
        "leagues/calendar.html",
        {
            **crumbs(league),
            "is_organiser": role == "organiser",
            "upcoming": upcoming,
            "past": past,
            "more_past": more_past,
            "feed_url": feed,
        },
    )


@require_GET
def calendar_feed(request: HttpRequest, league_id: int, token: str) -> HttpResponse:
    """A member's ICS feed of the league's nights, opened by the secret in its address alone
    (a calendar app has no session). 404 for a wrong secret or a player outside the club."""
    league = league_or_404(league_id)
    person = Player.objects.filter(calendar_token=token, is_active=True).first()
    if person is None or role_in(person, league.club) is None:
        raise Http404("No such calendar.")
    return feed_response(request, league)


@require_POST
@login_required
def calendar_reset(request: HttpRequest, league_id: int) -> HttpResponse:
    """A new secret for the member's feeds, when an old address was shared by mistake."""
    league = league_or_404(league_id)
    member_role(request, league.club)
    services.reset_calendar_token(player=request.user)
    messages.success(request, "Your calendar has a new address: the old one no longer works.")
    return redirect("leagues:calendar", league.pk)

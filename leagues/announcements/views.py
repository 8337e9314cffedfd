"""Announcement pages: the organiser's page to write one and see what was sent, and the
unsubscribe page a mail's link opens (no log-in)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ..attendance.links import BadLink
from ..models import Club
from ..pages import organiser_only
from . import links, selectors, services
from .forms import AnnouncementForm


@require_http_methods(["GET", "POST"])
@login_required
def announcements(request: HttpRequest, slug: str) -> HttpResponse:
    """An organiser writes to the club's members (GET: the form and what was sent)."""
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    form = AnnouncementForm(request.POST or None, club=club)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                sent = services.announce(club=club, by=request.user, **form.cleaned_data)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                messages.success(
                    request,
                    f"“{sent.subject}” is on its way to {sent.recipients} "
                    f"member{'s' if sent.recipients != 1 else ''}.",
                )
                return redirect("leagues:announcements", club.slug)
    return render(
        request,
        "leagues/announcements.html",
        {
            "club": club,
            "form": form,
            "sent": selectors.sent(club),
            "audience": selectors.audience(club).count(),
        },
        status=status,
    )


# A mail client's one-click unsubscribe (RFC 8058) posts with no CSRF token; the signed
# link is the proof, and it can only turn announcements off or on for its one member.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, player_id: int, token: str) -> HttpResponse:
    """The mail's unsubscribe link: a GET shows the choice and a button, a POST (the
    button, or the mail client's one-click request) records it."""
    try:
        player, club_id = links.read_token(player_id, token)
    except BadLink as error:
        return render(request, "leagues/unsubscribe.html", {"error": str(error)}, status=400)
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        gone = {"error": "This club is no longer on the site."}
        return render(request, "leagues/unsubscribe.html", gone, status=404)
    if request.method == "POST":
        wants = request.POST.get("choice") == "subscribe"
        services.set_choice(player=player, club=club, wants=wants)
    return render(
        request,
        "leagues/unsubscribe.html",
        {
            "club": club,
            "member": player,
            "wants": selectors.wants_announcements(player, club),
            "saved": request.method == "POST",
        },
    )

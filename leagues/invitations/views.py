"""A club's invitations page (organisers only): its join link, invitations by mail, a
roster imported after a dry run; and the pages a join link or an invitation opens.

A join link's secret is shown to the organiser once, right after it is made (only its
hash is stored): the page keeps it in the session until it is drawn. A roster's dry
run writes nothing: the rows to invite travel in a signed token in the confirm form
(`ROSTER_SALT`, good for an hour), and are checked again when confirmed.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ..models import Club, Invitation
from ..pages import organiser_only
from ..roles import role_in
from . import selectors, services
from .forms import InviteForm, JoinLinkForm, RosterForm
from .roster import Row

#: The session key under which a club's new join link waits to be shown once.
NEW_LINK_KEY = "leagues:new-join-link:{club}"
#: How long a roster's dry run may wait for its confirmation.
ROSTER_MAX_AGE = 3600


def _roster_salt(club: Club, request: HttpRequest) -> str:
    return f"leagues.invitations.roster:{club.pk}:{request.user.pk}"


def _page(request, club, *, link_form=None, invite_form=None, roster_form=None, status=200):
    link_url = request.session.pop(NEW_LINK_KEY.format(club=club.pk), None)
    return render(
        request,
        "leagues/invitations.html",
        {
            "club": club,
            "link": selectors.join_link_of(club),
            "link_url": link_url,
            "now": timezone.now(),
            "pending": selectors.pending_invitations(club).select_related("invited_by"),
            "link_form": link_form or JoinLinkForm(),
            "invite_form": invite_form or InviteForm(),
            "roster_form": roster_form or RosterForm(),
        },
        status=status,
    )


def _organised_club(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    return club


@require_GET
@login_required
def invitations(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's join link, pending invitations, and the ways to invite."""
    return _page(request, _organised_club(request, slug))


@require_POST
@login_required
def join_link_renew(request: HttpRequest, slug: str) -> HttpResponse:
    """A new join link (the old one stops working), with its expiry and limit."""
    club = _organised_club(request, slug)
    form = JoinLinkForm(request.POST)
    if form.is_valid():
        try:
            secret = services.renew_join_link(
                club=club,
                by=request.user,
                expires_at=form.expires_at(),
                max_uses=form.cleaned_data["max_uses"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            url = request.build_absolute_uri(reverse("leagues:join", args=[secret]))
            request.session[NEW_LINK_KEY.format(club=club.pk)] = url
            messages.success(request, "A new join link is ready: copy it now, it is shown once.")
            return redirect("leagues:invitations", club.slug)
    return _page(request, club, link_form=form, status=400)


@require_POST
@login_required
def join_link_withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organised_club(request, slug)
    if services.withdraw_join_link(club=club, by=request.user):
        messages.success(request, "The join link is withdrawn: it lets no one in now.")
    return redirect("leagues:invitations", club.slug)


@require_POST
@login_required
def invite(request: HttpRequest, slug: str) -> HttpResponse:
    """Invitations mailed to a list of addresses."""
    club = _organised_club(request, slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _page(request, club, invite_form=form, status=400)
    addresses = form.cleaned_data["addresses"]
    try:
        made = services.invite(club=club, by=request.user, people=[("", a) for a in addresses])
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("leagues:invitations", club.slug)
    _say_invited(request, len(made), len({a.lower() for a in addresses}) - len(made))
    return redirect("leagues:invitations", club.slug)


def _say_invited(request: HttpRequest, made: int, left_out: int) -> None:
    text = f"{made} invitation{'s' if made != 1 else ''} on {'their' if made != 1 else 'its'} way."
    if left_out:
        text += f" {left_out} left out: members already, or invited already."
    messages.success(request, text)


def _on_pending(request: HttpRequest, invitation_id: int, act, done: str) -> HttpResponse:
    """`act` on an invitation of a club the user runs; says `done` (naming the address)
    or why not, and goes back to the club's invitations."""
    invitation = get_object_or_404(Invitation.objects.select_related("club"), pk=invitation_id)
    organiser_only(request, invitation.club)
    try:
        act(invitation=invitation, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done.format(email=invitation.email))
    return redirect("leagues:invitations", invitation.club.slug)


@require_POST
@login_required
def invitation_withdraw(request: HttpRequest, invitation_id: int) -> HttpResponse:
    return _on_pending(
        request,
        invitation_id,
        services.withdraw_invitation,
        "The invitation to {email} is withdrawn.",
    )


@require_POST
@login_required
def invitation_send_again(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """The invitation mailed again with a new link; the old one stops working."""
    return _on_pending(
        request, invitation_id, services.send_again, "A new invitation is on its way to {email}."
    )


@require_http_methods(["GET", "POST"])
@login_required
def roster(request: HttpRequest, slug: str) -> HttpResponse:
    """A roster's dry run: who will be invited, who is a member already, which rows are
    refused and why. Nothing is written."""
    club = _organised_club(request, slug)
    if request.method == "GET":
        return redirect("leagues:invitations", club.slug)
    form = RosterForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, club, roster_form=form, status=400)
    rows = form.cleaned_data["roster"]
    result = selectors.sort_roster(club, rows)
    token = signing.dumps(
        [[row.line, row.name, row.email] for row in result.to_invite],
        salt=_roster_salt(club, request),
        compress=True,
    )
    return render(
        request, "leagues/roster_check.html", {"club": club, "result": result, "token": token}
    )


@require_POST
@login_required
def roster_confirm(request: HttpRequest, slug: str) -> HttpResponse:
    """The dry run confirmed: its rows to invite are invited (checked again first)."""
    club = _organised_club(request, slug)
    try:
        rows = signing.loads(
            request.POST.get("token", ""), salt=_roster_salt(club, request), max_age=ROSTER_MAX_AGE
        )
        rows = [Row(line=int(line), name=str(name), email=str(email)) for line, name, email in rows]
    except (signing.BadSignature, TypeError, ValueError):
        messages.error(request, "That roster's check is out of date: upload the file again.")
        return redirect("leagues:invitations", club.slug)
    try:
        made = services.invite_roster(club=club, by=request.user, rows=rows)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("leagues:invitations", club.slug)
    _say_invited(request, len(made), len(rows) - len(made))
    return redirect("leagues:invitations", club.slug)


def _way_in(request, *, club, reason, kind, status=200):
    return render(
        request,
        "leagues/join.html",
        {
            "club": club,
            "reason": reason,
            "kind": kind,
            "is_member": club is not None and role_in(request.user, club) is not None,
        },
        status=status,
    )


def _follow(request: HttpRequest, *, way, gone: str, kind: str, enter) -> HttpResponse:
    """A way in (a join link or an invitation, `way`, None when unknown): its page, and
    on POST by someone signed in, `enter()` makes them a member."""
    if way is None:
        return _way_in(request, club=None, reason=gone, kind=kind, status=404)
    reason = way.closed_reason(timezone.now()) or way.club.held_reason
    if request.method == "POST" and request.user.is_authenticated and not reason:
        try:
            club = enter()
        except (ValidationError, PermissionDenied) as error:
            reason = " ".join(getattr(error, "messages", [str(error)]))
        else:
            messages.success(request, f"Welcome to {club.name}!")
            return redirect(club)
    return _way_in(request, club=way.club, reason=reason, kind=kind, status=400 if reason else 200)


@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, secret: str) -> HttpResponse:
    """A club's join link: who follows it signs up or logs in, then joins."""
    return _follow(
        request,
        way=selectors.link_for(secret),
        gone="This join link is not (or no longer) valid: the club may have renewed it.",
        kind="link",
        enter=lambda: services.join_by_link(secret=secret, player=request.user),
    )


@require_http_methods(["GET", "POST"])
def invitation(request: HttpRequest, secret: str) -> HttpResponse:
    """An invitation's page: who follows it signs up or logs in, then accepts."""
    return _follow(
        request,
        way=selectors.invitation_for(secret),
        gone="This invitation is not (or no longer) valid: a newer mail may have replaced it.",
        kind="invitation",
        enter=lambda: services.accept_invitation(secret=secret, player=request.user),
    )

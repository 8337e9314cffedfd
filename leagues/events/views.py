"""A club's events: the list and the organiser's form for a new one, an event's page
(entry, check-in, its rounds and standings or bracket, live over its socket), what its
members and organisers do there, and a paper table's results."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import get_text_list
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games.numbers import whole_number

from ..clubs.selectors import club_members
from ..models import Club, Event, EventEntry, EventTable, EventWaiting
from ..pages import member_role, organiser_only
from ..results.entry import enter_paper_results
from . import selectors, services
from .forms import ApartForm, EntryForm, EventForm


def event_or_404(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club", "league"), pk=event_id)


def _club_page(request, club: Club, *, form=None, status=200) -> HttpResponse:
    role = member_role(request, club)
    return render(
        request,
        "leagues/events.html",
        {
            "club": club,
            "is_organiser": role == "organiser",
            "events": selectors.club_events(club),
            "form": form or EventForm(club=club),
        },
        status=status,
    )


@require_GET
@login_required
def club_events(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's events; its organisers create one here."""
    return _club_page(request, get_object_or_404(Club, slug=slug))


@require_POST
@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    organiser_only(request, club)
    form = EventForm(request.POST, club=club)
    if form.is_valid():
        try:
            event = services.create_event(club=club, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{event.name} is open for entries.")
            return redirect(event)
    return _club_page(request, club, form=form, status=400)


def _page(request, event: Event, *, status=200, entry_form=None, apart_form=None):
    role = member_role(request, event.club)
    organiser = role == "organiser"
    view = selectors.event_view(event)
    entry = next((e for e in view.entrants if e.player_id == request.user.pk), None)
    members = club_members(event.club)
    entrants = members.filter(event_entries__event=event, event_entries__dropped=False)
    waiting = list(event.waiting.select_related("player"))
    my_wait = next((w for w in waiting if w.player_id == request.user.pk), None)
    return render(
        request,
        "leagues/event.html",
        {
            "club": event.club,
            "event": event,
            "view": view,
            "is_organiser": organiser,
            "entry": entry,
            "entry_open": event.status == Event.Status.ENTRY,
            "entry_form": entry_form or EntryForm(members=members),
            "apart_form": apart_form or ApartForm(members=entrants),
            "apart": event.apart.select_related("first", "second"),
            "waiting": waiting,
            "my_wait": my_wait,
            "my_wait_number": waiting.index(my_wait) + 1 if my_wait else None,
            "socket": f"/ws/events/{event.pk}/",
            "live": {"view": view, "is_organiser": organiser, "me": request.user.pk},
        },
        status=status,
    )


def _refused(request, event: Event, error: ValidationError, **forms) -> HttpResponse:
    for message in error.messages:
        messages.error(request, message)
    if request.htmx:  # a button of the live part: the page is read again, with the message
        return HttpResponseClientRedirect(event.get_absolute_url())
    return _page(request, event, status=400, **forms)


@require_GET
@login_required
def event(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's page: entry, check-in, rounds, standings or bracket, the champion."""
    return _page(request, event_or_404(event_id))


def _act(request, event: Event, action, done) -> HttpResponse:
    """Do `action`; say `done` (or what `done(its result)` says) and go back to the
    event's page, or show the page with the refusal."""
    try:
        result = action()
    except ValidationError as error:
        return _refused(request, event, error)
    messages.success(request, done(result) if callable(done) else done)
    if request.htmx:
        return HttpResponseClientRedirect(event.get_absolute_url())
    return redirect(event)


@require_POST
@login_required
def event_enter(request: HttpRequest, event_id: int) -> HttpResponse:
    """A member enters themselves."""
    event = event_or_404(event_id)
    member_role(request, event.club)
    return _act(
        request,
        event,
        lambda: services.enter_event(event=event, player=request.user),
        lambda entry: (
            f"{event.name} is full: you are number {waiting_number(entry)} on its waiting "
            "list, and will be told by mail if a place comes free."
            if isinstance(entry, EventWaiting)
            else f"You have entered {event.name}."
        ),
    )


@require_POST
@login_required
def event_withdraw(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    member_role(request, event.club)
    return _act(
        request,
        event,
        lambda: services.withdraw(event=event, player=request.user),
        f"You have withdrawn from {event.name}.",
    )


@require_POST
@login_required
def event_check_in(request: HttpRequest, event_id: int) -> HttpResponse:
    """An entrant checks in; an organiser checks in the entrant named."""
    event = event_or_404(event_id)
    member_role(request, event.club)
    player = request.user
    if "entry" in request.POST:
        number = whole_number(request.POST["entry"])
        entry = EventEntry.objects.filter(event=event, pk=number).first() if number else None
        if entry is None:
            return _refused(request, event, ValidationError("No such entrant."))
        player = entry.player
    return _act(
        request,
        event,
        lambda: services.check_in(event=event, player=player, by=request.user),
        f"{player.name} is checked in.",
    )


@require_POST
@login_required
def event_add_entry(request: HttpRequest, event_id: int) -> HttpResponse:
    """An organiser enters a member (late, when the event allows it)."""
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    form = EntryForm(request.POST, members=club_members(event.club))
    if not form.is_valid():
        messages.error(request, "Choose one of the club's members.")
        return _page(request, event, status=400, entry_form=form)
    player = form.cleaned_data["player"]
    try:
        services.add_entry(event=event, player=player, by=request.user)
    except ValidationError as error:
        return _refused(request, event, error, entry_form=form)
    messages.success(request, f"{player.name} has entered {event.name}.")
    return redirect(event)


@require_POST
@login_required
def event_apart(request: HttpRequest, event_id: int) -> HttpResponse:
    """An organiser keeps two entrants apart."""
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    form = ApartForm(request.POST, members=club_members(event.club))
    if not form.is_valid():
        for error in form.errors.get("__all__", ["Choose two of the event's entrants."]):
            messages.error(request, error)
        return _page(request, event, status=400, apart_form=form)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    try:
        services.keep_apart(event=event, first=first, second=second, by=request.user)
    except ValidationError as error:
        return _refused(request, event, error, apart_form=form)
    messages.success(request, f"{first.name} and {second.name} are kept apart.")
    return redirect(event)


@require_POST
@login_required
def event_apart_remove(request: HttpRequest, event_id: int, apart_id: int) -> HttpResponse:
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    services.let_together(event=event, apart_id=apart_id, by=request.user)
    messages.success(request, "They may share a table again.")
    return redirect(event)


@require_POST
@login_required
def event_start(request: HttpRequest, event_id: int) -> HttpResponse:
    """An organiser starts the event: no-shows are dropped, round 1 is seated."""
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    return _act(
        request,
        event,
        lambda: services.start_event(event=event, by=request.user),
        lambda _: _started(event),
    )


def _started(event: Event) -> str:
    """Round 1 seated, and who was dropped for not checking in (no one just vanishes)."""
    dropped = [e.player.name for e in event.entries.filter(dropped=True).select_related("player")]
    if not dropped:
        return "Round 1 is seated."
    return f"Round 1 is seated. Dropped, not checked in: {get_text_list(sorted(dropped), 'and')}."


@require_POST
@login_required
def event_close_round(request: HttpRequest, event_id: int) -> HttpResponse:
    """An organiser closes the round they saw: unfinished tables are forfeited."""
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    number = whole_number(request.POST.get("round", ""))
    if number is None:
        return _refused(request, event, ValidationError("Say which round to close."))
    return _act(
        request,
        event,
        lambda: services.close_round(event=event, number=number, by=request.user),
        f"Round {number} is closed.",
    )


@require_http_methods(["GET", "POST"])
@login_required
def event_table_results(request: HttpRequest, event_table_id: int) -> HttpResponse:
    """An organiser enters a paper table's holes; nothing is saved on error."""
    event_table = get_object_or_404(
        EventTable.objects.select_related("table", "round__event__club"), pk=event_table_id
    )
    event = event_table.round.event
    organiser_only(request, event.club)
    table = event_table.table

    def finished() -> HttpResponse:
        messages.info(request, "Results are in for this table.")
        return redirect(event)

    return enter_paper_results(
        request,
        table=table,
        number=event_table.number,
        names=[seat.name for seat in table.seats.select_related("player").order_by("position")],
        save=lambda hole_scores: services.enter_event_results(
            event_table=event_table, hole_scores=hole_scores, by=request.user
        ),
        saved_to=event,
        finished=finished,
        template="leagues/event_results.html",
        context={"club": event.club, "event": event, "event_table": event_table},
    )


@require_POST
@login_required
def event_waiting(request: HttpRequest, event_id: int, waiting_id: int) -> HttpResponse:
    """An organiser lets a waiting member in, moves them up or down, or removes them."""
    event = event_or_404(event_id)
    organiser_only(request, event.club)
    action = request.POST.get("action", "")
    said = {
        "promote": "{} is entered.",
        "up": "{} moved up the waiting list.",
        "down": "{} moved down the waiting list.",
        "remove": "{} is off the waiting list.",
    }
    return _act(
        request,
        event,
        lambda: services.change_waiting(
            event=event, waiting_id=waiting_id, action=action, by=request.user
        ),
        lambda wait: said[action].format(wait.player.name),
    )


def waiting_number(wait: EventWaiting) -> int:
    """A waiting member's place on the list, counted from 1."""
    return wait.event.waiting.filter(position__lt=wait.position).count() + 1

"""Pages and HTMX partials for play: the lobby, the table, replays and the rules.

The table page and its live frames render the same live parts (`games.live`), so what
a player sees after a reload and after a push cannot drift apart.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from games import engine

from . import frames, live, presenters, review_text, reviews, rule_examples, selectors, services
from . import lobby as lobby_service
from .forms import BreakForm, CreateTableForm, JoinForm
from .models import Hole, Seat, Table, replay_links
from .numbers import whole_number
from .pace import MAX_AWAY_DAYS
from .tiles import Controls

#: The cookie in which the browser says its time zone (static/js/time-zone.js).
ZONE_COOKIE = "tz"


def browser_zone(request: HttpRequest) -> str:
    """The time zone the player's browser reports ("" when none), which a turn-based
    table keeps for their playing hours; a name that is no time zone is ignored later."""
    return request.COOKIES.get(ZONE_COOKIE, "")[:64]


def _invited(request: HttpRequest, table: Table) -> bool:
    return table.pk in request.session.get("invited_tables", [])


def _watchable(request: HttpRequest, table_id: int) -> Table:
    table = get_object_or_404(Table, pk=table_id)
    if not selectors.may_watch(table, request.user, _invited(request, table)):
        raise Http404("No such table.")
    return table


@require_GET
@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "games/lobby.html",
        {
            "form": CreateTableForm(),
            "open_tables": selectors.open_tables(),
            "my_tables": selectors.my_tables(request.user),
            "recent_matches": selectors.recent_matches(request.user),
            "watch_tables": selectors.watchable_tables(),
        },
    )


@require_GET
@login_required
def lobby_tables(request: HttpRequest) -> HttpResponse:
    """The lobby's live list of open tables (polled by htmx)."""
    return render(
        request,
        "games/lobby.html#open-tables",
        {"open_tables": selectors.open_tables(), "watch_tables": selectors.watchable_tables()},
    )


@require_POST
@login_required
def new_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    if form.is_valid():
        try:
            table = lobby_service.create_table(
                host=request.user,
                variant=form.cleaned_data["variant"],
                house_rules=form.cleaned_data["house_rules"],
                seat_count=form.cleaned_data["seat_count"],
                bots=form.bots(),
                players=[request.user],
                is_public=form.cleaned_data["is_public"],
                turn_timer=form.cleaned_data["turn_timer"],
                move_time=form.cleaned_data["move_time"],
                playing_hours=form.playing_hours_chosen(),
                away_days=form.cleaned_data.get("away_days") or 0,
                zone=browser_zone(request),
            )
        except services.GameError as error:
            form.add_error(None, str(error))
        else:
            return redirect(table)
    return render(
        request,
        "games/lobby.html",
        {
            "form": form,
            "open_tables": selectors.open_tables(),
            "my_tables": selectors.my_tables(request.user),
            "recent_matches": selectors.recent_matches(request.user),
            "watch_tables": selectors.watchable_tables(),
        },
        status=400,
    )


@require_POST
@login_required
def quick_start(request: HttpRequest) -> HttpResponse:
    """One click to a dealt two-seat Play Nine table against a greedy bot."""
    try:
        table = lobby_service.quick_start(player=request.user)
    except services.GameError as error:
        messages.error(request, str(error))
        return redirect("games:lobby")
    return redirect(table)


@require_GET
@login_required
def invite(request: HttpRequest, code: str) -> HttpResponse:
    table = get_object_or_404(Table, invite_code=code)
    invited = request.session.get("invited_tables", [])
    if table.pk not in invited:
        request.session["invited_tables"] = [*invited, table.pk][-50:]
    return redirect(table)


@require_GET
@login_required
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _watchable(request, table_id)
    context = presenters.table_context(table, request.user)
    context["invite_url"] = request.build_absolute_uri(f"/play/invite/{table.invite_code}/")
    context["live"] = live.page_parts(context)
    context["live"]["chat"] = frames.chat_frame(table.pk, request.user, oob=False)
    return render(request, "games/table.html", context)


def _seat_action(request: HttpRequest, table_id: int, act) -> HttpResponse:
    table = _watchable(request, table_id)
    try:
        outcome = act(table)
    except services.GameError as error:
        if request.htmx:
            return HttpResponse(live.render_alert(str(error), oob=False))
        messages.error(request, str(error))
        return redirect(table)
    target = outcome if isinstance(outcome, Table) else table
    if request.htmx:
        if target.pk != table.pk:
            return HttpResponseClientRedirect(target.get_absolute_url())
        # The news arrives over the table's socket; clear any old message.
        return HttpResponse(live.render_alert("", oob=False))
    return redirect(target)


@require_POST
@login_required
def join(request: HttpRequest, table_id: int) -> HttpResponse:
    form = JoinForm(request.POST)

    def sit(table: Table) -> Seat:
        if not form.is_valid():
            raise services.GameError(form.errors["position"][0])
        position = form.cleaned_data["position"]
        return lobby_service.join_table(
            table=table, player=request.user, position=position, zone=browser_zone(request)
        )

    return _seat_action(request, table_id, sit)


@require_POST
@login_required
def leave(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: lobby_service.leave_table(table=t, player=request.user)
    )


@require_POST
@login_required
def start(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: lobby_service.start_match(table=t, by=request.user)
    )


@require_POST
@login_required
def leave_match(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: services.leave_match(table=t, player=request.user)
    )


@require_POST
@login_required
def return_to_match(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: services.return_to_match(table=t, player=request.user)
    )


@require_POST
@login_required
def open_to_watchers(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: lobby_service.open_to_watchers(table=t, by=request.user)
    )


@require_POST
@login_required
def rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request, table_id, lambda t: lobby_service.rematch(table=t, by=request.user)
    )


@require_POST
@login_required
def take_break(request: HttpRequest, table_id: int) -> HttpResponse:
    """A player of a turn-based table away for some days: their clock pauses."""
    form = BreakForm(request.POST)

    def away(table: Table) -> None:
        if not form.is_valid():
            raise services.GameError(f"Choose a break of 1 to {MAX_AWAY_DAYS} days.")
        until = timezone.now() + timedelta(days=form.cleaned_data["days"])
        lobby_service.take_break(table=table, player=request.user, until=until)
        messages.success(request, f"You are away until {until:%a %d %b, %H:%M} UTC.")

    return _seat_action(request, table_id, away)


@require_GET
@login_required
def your_games(request: HttpRequest) -> HttpResponse:
    """Every turn-based table of the player's, those waiting for them first."""
    # The count of those waiting is every page's (the title, context_processors).
    games = selectors.your_games(request.user)
    return render(request, "games/your_games.html", {"games": games, "now": timezone.now()})


@require_GET
@never_cache
def turns_waiting(request: HttpRequest) -> JsonResponse:
    """{"waiting": N}: how many turn-based tables wait on the player's move, which every
    page's tab shows (static/js/turn-count.js asks again while a page stays open)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": "Sign in to see your games."}, status=403)
    return JsonResponse({"waiting": selectors.turns_waiting(request.user)})


@require_GET
@login_required
def replay(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """Step through a finished hole move by move, as a spectator saw it."""
    table = _watchable(request, table_id)
    hole = get_object_or_404(Hole, table=table, number=number, finished_at__isnull=False)
    states = selectors.replay_states(hole)
    asked = whole_number(request.GET.get("move", "0"))
    status = 200
    if asked is None:
        messages.error(request, "Choose a move by its number: the replay starts at the deal.")
        asked, status = 0, 400
    step = min(asked, len(states) - 1)
    state, move = states[step]
    view = engine.view(state, None)
    seats = list(table.seats.select_related("player"))
    courses = presenters.courses_for(table, seats, hole, view, None, Controls(), [])
    names = {s.position: s.name for s in seats}
    felt = {
        "table": table,
        "rules": table.rules,
        "controls": Controls(),
        "courses": courses,
        "view": view,
        "discard": presenters.card_name(table.rules, view["discard_top"])
        if view["discard_top"] is not None
        else None,
        "discard_tone": presenters.tone(table.rules, view["discard_top"]),
    }
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "hole": hole,
            "step": step,
            "last": len(states) - 1,
            "felt": live.fragment("replay_felt", felt),
            "sentence": f"{names[move.seat]} {move.summary}" if move else "The deal.",
            "decision": review_text.decision_link(table, hole, step, move.seat)
            if move and not move.by_bot and selectors.may_see_review(table, request.user, move.seat)
            else None,
            "holes": table.holes.filter(finished_at__isnull=False).order_by("number"),
            "reviews": [
                s
                for s in seats
                if s.player_id and selectors.may_see_review(table, request.user, s.position)
            ],
            "links": [
                link
                for _receiver, links in replay_links.send(
                    sender=Table, table=table, number=hole.number, user=request.user
                )
                for link in links or ()
            ],
        },
        status=status,
    )


@require_GET
@login_required
def review(request: HttpRequest, table_id: int, number: int, position: int) -> HttpResponse:
    """One seat's decisions in a finished hole, each beside the best from the same view.

    A player sees their own review while the match is in play, everyone who may watch
    sees every seat's once it is over. The review is stored by hole, worked out off
    the request path once the hole ends (`reviews`): until it is stored, the page says
    so and looks again every few seconds. With no worker, the first look works it out.
    """
    table = _watchable(request, table_id)
    hole = get_object_or_404(Hole, table=table, number=number, finished_at__isnull=False)
    seat = table.seats.filter(position=position).first()
    # A bot's seat makes no decisions of anyone's: only a person's seat has a review.
    if (
        seat is None
        or seat.player_id is None
        or position not in hole.seat_positions
        or not selectors.may_see_review(table, request.user, position)
    ):
        raise Http404("No such review.")
    try:
        stored = reviews.stored_or_queued(hole=hole, position=position)
    except services.GameError as error:
        messages.error(request, str(error))
        back = reverse("games:replay", args=[table.pk, hole.number])
        # A look again from the waiting page leaves that page.
        return HttpResponseClientRedirect(back) if request.htmx else redirect(back)
    # Told to the player who made the decisions, or to another by their name.
    name = None if seat.player_id == request.user.pk else seat.name
    told = review_text.review_text(table, hole, stored, name) if stored else None
    return render(
        request,
        "games/review.html",
        {
            "table": table,
            "hole": hole,
            "name": seat.name,
            "review": stored,
            "told": told,
        },
    )


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules in plain words, with worked examples scored by the engine."""
    examples = {
        key.replace("-", "_"): live.fragment("rule_examples", {"examples": found})
        for key, found in rule_examples.examples_by_variant().items()
    }
    return render(request, "games/rules.html", {"variants": engine.VARIANTS, "examples": examples})

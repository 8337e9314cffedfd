"""The home page, sign-up, a player's own account page, their data downloaded and their
account closed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordResetView
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods

from games import engine, pace
from games import selectors as games_selectors
from games.views import browser_zone

from ..checkin.selectors import tonight
from ..events.selectors import upcoming_entries
from ..exports import csv_response
from ..models import Player
from ..notify import push
from . import own_data, services
from .forms import AccountForm, CloseAccountForm, QueuedPasswordResetForm, SignUpForm

WELCOME_TAG = "welcome"
#: The turn-based tables the home page lists; "Your games" has them all.
HOME_GAMES = 5

#: Django's page for a forgotten password, its mail sent by a task.
password_reset = PasswordResetView.as_view(form_class=QueuedPasswordResetForm)


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The welcome page; a signed-in player also sees tonight's league nights of their
    clubs (checked in to with one click), their tables and a quick start."""
    context = {"games": list(engine.VARIANTS.items())}
    if request.user.is_authenticated:
        context["my_tables"] = games_selectors.my_tables(request.user)
        # Tonight's league nights of the player's clubs, each with its "I'm here".
        context["tonight"] = tonight(request.user)
        # A short list of the player's turn-based tables, those waiting for them first.
        games = games_selectors.your_games(request.user, limit=HOME_GAMES)
        context["your_games"] = games
        context["your_turns"] = sum(game.your_turn for game in games)
        # A reminder of the events the player entered, until they are over.
        context["my_events"] = upcoming_entries(request.user, timezone.now())
        # Someone who has just signed up is greeted by the sign-up's message alone.
        context["greet"] = not any(
            WELCOME_TAG in message.extra_tags.split() for message in messages.get_messages(request)
        )
    return render(request, "leagues/home.html", context)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = form.save()
        login(request, player, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to Fairway, {player.name}!", extra_tags=WELCOME_TAG)
        return redirect(next_url or "home")
    return render(request, "registration/signup.html", {"form": form, "next": next_url})


@require_http_methods(["GET", "POST"])
@login_required
def account(request: HttpRequest) -> HttpResponse:
    """A player's own account: their display name and email, and a way to the password."""
    # The form checks a copy, so that a refused change never shows as the menu's name.
    player = Player.objects.get(pk=request.user.pk)
    form = AccountForm(
        request.POST or None, instance=player, initial=_zone_offered(request, player)
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.update_account(player=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, "Your account is saved.")
            return redirect("account")
    return render(
        request,
        "registration/account.html",
        {"form": form, "push_key": push.public_key()},
        status=400 if form.is_bound and form.errors else 200,
    )


def _zone_offered(request: HttpRequest, player: Player) -> dict:
    """A player who chose no time zone is offered their browser's."""
    zone = browser_zone(request)
    return {"time_zone": zone} if not player.time_zone and pace.valid_zone(zone) else {}


@require_GET
@login_required
def data_json(request: HttpRequest) -> HttpResponse:
    """What the site holds about the player, as JSON."""
    response = JsonResponse(own_data.own_data(request.user), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = 'attachment; filename="fairway-my-data.json"'
    return response


@require_GET
@login_required
def data_csv(request: HttpRequest) -> HttpResponse:
    """What the site holds about the player, as CSV: section, record, field, value."""
    response, writer = csv_response("fairway-my-data.csv")
    writer.writerow(["section", "record", "field", "value"])
    for row in own_data.as_rows(own_data.own_data(request.user)):
        writer.writerow(row)
    return response


@require_http_methods(["GET", "POST"])
@login_required
def close_account(request: HttpRequest) -> HttpResponse:
    """The player closes their account, on their password."""
    form = CloseAccountForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.close_account(player=request.user, password=form.cleaned_data["password"])
        except ValidationError as error:
            form.add_error(None, error)
        else:
            logout(request)
            messages.success(request, "Your account is closed. Thank you for playing.")
            return redirect("home")
    return render(
        request,
        "registration/close_account.html",
        {"form": form},
        status=400 if form.is_bound and form.errors else 200,
    )

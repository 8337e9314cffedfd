"""Account pages, the home page, and the league pages: clubs, leagues, seasons, nights.

Who may do what: anonymous visitors are sent to log in; a club's pages are 404 for
anyone outside it (they do not learn it exists); members may look; only organisers
change anything (403 for a member who tries).
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import get_text_list, slugify
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import engine
from games import selectors as games_selectors
from games.engine.match import HOLES
from games.models import Table
from games.scorecards import HandScoreError

from . import calendar, charts, deal_results, duplicate, handicaps, selectors, services
from .exports import csv_response
from .forms import (
    AbsenceForm,
    AccountForm,
    CorrectionForm,
    HandResultsForm,
    LeagueForm,
    MemberForm,
    NightForm,
    NightPlayersForm,
    ScheduleForm,
    SeasonForm,
    SeatingForm,
    SignUpForm,
    SubstituteForm,
)
from .models import Club, League, LeagueNight, NightTable, Player, Season

WELCOME_TAG = "welcome"
SEATING_CHOICES_KEY = "leagues:seating"


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The welcome page; a signed-in player also sees their tables and a quick start."""
    context = {"games": list(engine.VARIANTS.items())}
    if request.user.is_authenticated:
        context["my_tables"] = games_selectors.my_tables(request.user)
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
    form = AccountForm(request.POST or None, instance=Player.objects.get(pk=request.user.pk))
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
        {"form": form},
        status=400 if form.is_bound and form.errors else 200,
    )


# --- Access ----------------------------------------------------------------------------


def _member_role(request: HttpRequest, club: Club) -> str:
    """The visitor's role in `club`; 404 for anyone outside it."""
    role = selectors.role_in(request.user, club)
    if role is None:
        raise Http404("No such club.")
    return role


def _organiser(request: HttpRequest, club: Club) -> None:
    """404 outside the club, 403 for a member who is not an organiser."""
    if _member_role(request, club) != "organiser":
        raise PermissionDenied("Only the club's organisers may do that.")


def _night_table(night_table_id: int) -> NightTable:
    return get_object_or_404(
        NightTable.objects.select_related("table", "night__season__league__club"),
        pk=night_table_id,
    )


# --- Clubs and leagues -----------------------------------------------------------------


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
    role = _member_role(request, club)
    return render(
        request,
        "leagues/club.html",
        {
            "club": club,
            "is_organiser": role == "organiser",
            "leagues": club.leagues.all(),
            "members": club.memberships.select_related("player").order_by("player__username"),
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
    _organiser(request, club)
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
    _organiser(request, club)
    form = MemberForm(request.POST)
    if not form.is_valid():
        return _club_page(request, club, member_form=form, status=400)
    player = form.cleaned_data["username"]
    services.add_member(club=club, player=player, role=form.cleaned_data["role"], by=request.user)
    messages.success(request, f"{player.name} is a member of {club.name}.")
    return redirect(club)


def _league_page(request, league, *, season_form=None, status=200):
    role = _member_role(request, league.club)
    return render(
        request,
        "leagues/league.html",
        {
            "league": league,
            "club": league.club,
            "is_organiser": role == "organiser",
            "seasons": [(s, selectors.champions(s)) for s in league.seasons.all()],
            "ratings": selectors.league_ratings(league),
            "season_form": season_form or SeasonForm(),
        },
        status=status,
    )


@require_GET
@login_required
def league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A league's seasons and ratings."""
    return _league_page(
        request, get_object_or_404(League.objects.select_related("club"), pk=league_id)
    )


@require_POST
@login_required
def season_create(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser opens a season in the league."""
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id)
    _organiser(request, league.club)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = services.create_season(league=league, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"{season.name} is open: add its first night.")
            return redirect(season)
    return _league_page(request, league, season_form=form, status=400)


# --- Seasons and standings -------------------------------------------------------------


def _season(season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league__club"), pk=season_id)


def _season_page(request, season, *, night_form=None, next_form=None, status=200):
    role = _member_role(request, season.league.club)
    return render(
        request,
        "leagues/season.html",
        {
            "champions": selectors.champions(season),
            "next_form": next_form or SeasonForm(initial=_next_season_initial(season)),
            "season": season,
            "league": season.league,
            "club": season.league.club,
            "is_organiser": role == "organiser",
            "standings": deal_results.standings(season, request.user),
            "tie_break_rule": selectors.TIE_BREAK_RULE,
            "points_rule": selectors.points_rule(season.league),
            "absence_rule": selectors.absence_rule(season.league),
            "nights": season.nights.prefetch_related("tables__table"),
            "night_form": night_form or NightForm(),
        },
        status=status,
    )


@require_GET
@login_required
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A season's standings (printable) and nights."""
    return _season_page(request, _season(season_id))


@require_GET
@login_required
def standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings as a CSV download."""
    season = _season(season_id)
    _member_role(request, season.league.club)
    filename = f"{slugify(season.league.name)}-{slugify(season.name)}-standings.csv"
    response, writer = csv_response(filename)
    writer.writerow(
        ["place", "player", "matches", "holes", "strokes", "strokes_per_hole", "wins",
         "points", "movement", "net_strokes", "net_per_hole", "nights_away", "byes",
         "points_for_away_and_byes"]
    )  # fmt: skip
    for row in deal_results.standings(season, request.user):
        movement = "new" if row.is_new else ("" if row.movement is None else row.movement)
        writer.writerow(
            [row.place, row.player.name, row.matches, row.holes, row.strokes,
             row.mean_display, row.wins, row.points, movement, row.net_display,
             row.net_mean_display, row.absences, row.byes, row.missed_points]
        )  # fmt: skip
    return response


@require_POST
@login_required
def night_create(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser adds a night to the season."""
    season = _season(season_id)
    _organiser(request, season.league.club)
    form = NightForm(request.POST)
    if form.is_valid():
        try:
            night = services.create_night(
                season=season,
                night_date=form.cleaned_data["date"],
                duplicate_deals=form.cleaned_data["duplicate_deals"],
                start_time=form.cleaned_data["start_time"],
                venue=form.cleaned_data["venue"],
                by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "Night created: tick the players present, then seat them.")
            return redirect(night)
    return _season_page(request, season, night_form=form, status=400)


# --- Nights ----------------------------------------------------------------------------


def _night(night_id: int) -> LeagueNight:
    return get_object_or_404(
        LeagueNight.objects.select_related("season__league__club"), pk=night_id
    )


def _night_page(
    request,
    night,
    *,
    players_form=None,
    seating_form=None,
    schedule_form=None,
    absence_form=None,
    substitute_form=None,
    status=200,
):
    club = night.season.league.club
    role = _member_role(request, club)
    members = selectors.club_members(club)
    tables = deal_results.table_views(
        [selectors.table_view(nt) for nt in selectors.night_tables(night)], request.user
    )
    return render(
        request,
        "leagues/night.html",
        {
            "night": night,
            "season": night.season,
            "league": night.season.league,
            "club": club,
            "is_organiser": role == "organiser",
            "present": night.players.order_by("display_name", "username"),
            "tables": tables,
            "seated_for_good": any(view.table.status == Table.Status.FINISHED for view in tables),
            "holes": range(1, HOLES + 1),
            "corrections": deal_results.corrections(selectors.corrections_for(night), request.user),
            "schedule_form": schedule_form or ScheduleForm(instance=night),
            "players_form": players_form
            or NightPlayersForm(members=members, initial={"players": night.players.all()}),
            "seating_form": seating_form
            or SeatingForm(initial=request.session.get(SEATING_CHOICES_KEY)),
            "absence_rule": selectors.absence_rule(night.season.league),
            "absences": night.absences.select_related("player").order_by("kind"),
            "substitutes": night.substitutes.select_related("member", "player"),
            "absence_form": absence_form or AbsenceForm(members=members),
            "substitute_form": substitute_form or SubstituteForm(members=members),
        },
        status=status,
    )


@require_GET
@login_required
def night(request: HttpRequest, night_id: int) -> HttpResponse:
    """A night: players present, seating, and every table's scorecard (printable)."""
    return _night_page(request, _night(night_id))


@require_POST
@login_required
def night_players(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser records who is present."""
    night = _night(night_id)
    club = night.season.league.club
    _organiser(request, club)
    form = NightPlayersForm(request.POST, members=selectors.club_members(club))
    if not form.is_valid():
        return _night_page(request, night, players_form=form, status=400)
    try:
        services.set_night_players(
            night=night, players=form.cleaned_data["players"], by=request.user
        )
    except ValidationError as error:
        form.add_error(None, error)
        return _night_page(request, night, players_form=form, status=400)
    messages.success(request, f"{len(form.cleaned_data['players'])} players present.")
    return redirect(night)


@require_POST
@login_required
def night_seat(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser seats the players present at tables."""
    night = _night(night_id)
    _organiser(request, night.season.league.club)
    form = SeatingForm(request.POST)
    if form.is_valid():
        try:
            tables = services.seat_night(night=night, by=request.user, **form.cleaned_data)
        except services.SeatingError as error:
            form.add_error(None, str(error))
        except ValidationError as error:
            form.add_error(None, error)
        else:
            # The form offers the same choices next time, on this night or another.
            request.session[SEATING_CHOICES_KEY] = form.cleaned_data
            messages.success(request, f"Players seated at {len(tables)} tables.")
            return redirect(night)
    return _night_page(request, night, seating_form=form, status=400)


def _night_form(request, night_id: int, form_class, save, said, form_name: str):
    """An organiser's form on a night's page: `save(night, **cleaned)` under the rules of
    the league's services, then `said(what was saved)` as the page's message; a
    refusal shows the form again with its reason (400)."""
    night = _night(night_id)
    club = night.season.league.club
    _organiser(request, club)
    form = form_class(request.POST, members=selectors.club_members(club))
    if form.is_valid():
        try:
            saved = save(night=night, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, said(saved))
            return redirect(night)
    return _night_page(request, night, **{form_name: form}, status=400)


@require_POST
@login_required
def night_absence(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser marks a member away tonight, with or without notice."""
    return _night_form(
        request,
        night_id,
        AbsenceForm,
        services.mark_absent,
        lambda absence: f"{absence.player.name}: {absence.get_kind_display()}.",
        "absence_form",
    )


@require_POST
@login_required
def night_substitute(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser names who plays for a member tonight."""
    return _night_form(
        request,
        night_id,
        SubstituteForm,
        services.set_substitute,
        lambda substitute: f"{substitute.name} plays for {substitute.member.name}.",
        "substitute_form",
    )


@require_POST
@login_required
def night_absence_clear(request: HttpRequest, night_id: int, player_id: int) -> HttpResponse:
    """An organiser takes back a member's absence or substitute."""
    night = _night(night_id)
    club = night.season.league.club
    _organiser(request, club)
    player = get_object_or_404(selectors.club_members(club), pk=player_id)
    try:
        services.clear_absence(night=night, player=player, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{player.name} is no longer marked away.")
    return redirect(night)


@require_GET
@login_required
def night_scorecards_csv(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every scorecard of the night as a CSV download, a row per card."""
    night = _night(night_id)
    _member_role(request, night.season.league.club)
    response, writer = csv_response(f"night-{night.date:%Y-%m-%d}-scorecards.csv")
    views = deal_results.table_views(
        [selectors.table_view(nt) for nt in selectors.night_tables(night)], request.user
    )
    playoffs = max((len(v.playoff_numbers) for v in views), default=0)
    writer.writerow(
        ["table", "kind", "status", "player", *[f"hole_{n}" for n in range(1, HOLES + 1)],
         *[f"playoff_{i}" for i in range(1, playoffs + 1)], "total", "place"]
    )  # fmt: skip
    for view in views:
        for card_view in view.cards:
            card = card_view.card
            writer.writerow(
                [view.night_table.number, view.table.kind, view.status_code, card.name,
                 *["" if s is None else s for s in card_view.holes],
                 *["" if s is None else s for s in card_view.playoff],
                 *[""] * (playoffs - len(card_view.playoff)),
                 *(["", ""] if card_view.hidden else [card.total, card.place or ""])]
            )  # fmt: skip
    return response


# --- Duplicate deals -------------------------------------------------------------------


def _deals_page(request: HttpRequest, night: LeagueNight, *, public: bool) -> HttpResponse:
    """The deal comparison, for members (`leagues/deals.html`) or read by anyone on a
    public league (`leagues/public/deals.html`): one reading, one set of partials."""
    if not night.duplicate_deals:
        raise Http404("This night was not dealt in duplicate.")
    league = night.season.league
    seen = selectors.deal_comparison(night, request.user, public=public)
    return render(
        request,
        "leagues/public/deals.html" if public else "leagues/deals.html",
        {
            "night": night,
            "season": night.season,
            "league": league,
            "club": None if public else league.club,
            "waiting": seen.waiting,
            "in_play": seen.in_play,
            "comparison": seen.comparison,
            "replayable": seen.replayable,
            "by_matchpoints": duplicate.counts_by_matchpoints(league, night),
            "matchpoint_rule": duplicate.MATCHPOINT_RULE,
            "by_net": league.by_net,
            "public": public,
        },
    )


@require_GET
@login_required
def night_deals(request: HttpRequest, night_id: int) -> HttpResponse:
    """A duplicate night's deals compared seat by seat (travellers) and its matchpoints.

    Someone seated at a table of the night that has not finished sees it once their
    table has: the comparison would tell them about deals they are still to play.
    """
    night = _night(night_id)
    _member_role(request, night.season.league.club)
    return _deals_page(request, night, public=False)


@require_GET
@login_required
def deal_sheet(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """A paper table's deal sheet on a duplicate night: each hole's courses as dealt.

    Organisers only, and not one seated at another table of the night still playing
    the same deals.
    """
    night_table = _night_table(night_table_id)
    night = night_table.night
    _organiser(request, night.season.league.club)
    if not night.duplicate_deals or not night_table.is_hand:
        raise Http404("Deal sheets are for paper tables on a night of duplicate deals.")
    waiting = selectors.unfinished_table_of(request.user, night)
    if (
        waiting is not None
        and waiting.pk != night_table.pk
        and waiting.table.deal_seed == night_table.table.deal_seed
    ):
        raise PermissionDenied(
            "You are seated at a table still playing these deals: ask another organiser "
            "to print this sheet."
        )
    return render(
        request,
        "leagues/deal_sheet.html",
        {
            "night_table": night_table,
            "night": night,
            "season": night.season,
            "league": night.season.league,
            "club": night.season.league.club,
            "holes": duplicate.deal_sheet(night_table),
            "rules": night_table.table.rules_name,
        },
    )


# --- Results and corrections -----------------------------------------------------------


@require_http_methods(["GET", "POST"])
@login_required
def table_results(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """An organiser enters a hand-played table's holes; nothing is saved on error."""
    night_table = _night_table(night_table_id)
    _organiser(request, night_table.night.season.league.club)
    table = night_table.table
    if table.kind != Table.Kind.HAND:
        raise Http404("This table is played live.")
    if table.status == Table.Status.FINISHED:
        messages.info(request, "Results are in for this table: change a hole with a correction.")
        return redirect("leagues:table_correct", night_table.pk)
    names = [seat.name for seat in table.seats.select_related("player").order_by("position")]
    form = HandResultsForm(request.POST or None, table=table, names=names)
    if request.method == "POST" and form.is_valid():
        try:
            services.enter_hand_results(
                night_table=night_table, hole_scores=form.hole_scores, by=request.user
            )
        except (HandScoreError, ValueError) as error:
            form.add_error(None, str(error))
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, f"Results saved for table {night_table.number}.")
            return redirect(night_table.night)
    return render(
        request,
        "leagues/table_results.html",
        {
            "night_table": night_table,
            "night": night_table.night,
            "season": night_table.night.season,
            "league": night_table.night.season.league,
            "club": night_table.night.season.league.club,
            "form": form,
            "names": names,
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
@login_required
def table_correct(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """An organiser corrects one hole of a finished table, with a reason."""
    night_table = _night_table(night_table_id)
    _organiser(request, night_table.night.season.league.club)
    if deal_results.hides_any(night_table.table, request.user):
        raise PermissionDenied(
            "You are seated at a table still playing these deals: ask another organiser "
            "to correct this one."
        )
    form = CorrectionForm(request.POST or None, table=night_table.table)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            correction = services.correct_score(
                scorecard=data["card"],
                number=data["number"],
                strokes=data["strokes"],
                reason=data["reason"],
                by=request.user,
                remove_playoffs=data.get("remove_playoffs", False),
            )
        except HandScoreError as error:
            form.add_error(None, [p.message for p in error.problems])
        except ValidationError as error:
            # A problem with one of the form's fields is shown beside it.
            on_fields = hasattr(error, "error_dict") and set(error.error_dict) <= set(form.fields)
            form.add_error(None, error if on_fields else error.messages)
        else:
            removed = correction.removed_holes
            if removed:
                messages.success(
                    request,
                    f"Score corrected; {get_text_list(removed, 'and')} "
                    f"{'is' if len(removed) == 1 else 'are'} no longer needed and "
                    f"{'was' if len(removed) == 1 else 'were'} removed. "
                    "Standings and ratings are up to date.",
                )
            else:
                messages.success(request, "Score corrected; standings and ratings are up to date.")
            return redirect(night_table.night)
    return render(
        request,
        "leagues/correction.html",
        {
            "night_table": night_table,
            "night": night_table.night,
            "season": night_table.night.season,
            "league": night_table.night.season.league,
            "club": night_table.night.season.league.club,
            "table": selectors.table_view(night_table),
            "holes": range(1, HOLES + 1),
            "form": form,
        },
        status=400 if form.is_bound and form.errors else 200,
    )


# --- Players ---------------------------------------------------------------------------


@require_GET
@login_required
def player(request: HttpRequest, league_id: int, player_id: int) -> HttpResponse:
    """A player's record in a league: matches, holes, rating over time, charts.

    404 unless the visitor shares the league with the player (`may_see_player`), so
    that nobody reads the names of people outside their leagues by trying ids.
    """
    league = get_object_or_404(League.objects.select_related("club"), pk=league_id)
    person = Player.objects.filter(pk=player_id).first()
    if person is None or not selectors.may_see_player(request.user, person, league):
        raise Http404("No such player in this league.")
    record = selectors.player_record(
        league, person, leave_out=deal_results.hidden_scorecards(request.user)
    )
    history = selectors.rating_history(league, person)
    strokes_chart = charts.line_chart(
        [(f"{line.date:%d %b}", line.card.total) for line in record.matches]
    )
    rating_chart = charts.line_chart(
        [(f"{c.night_table.night.date:%d %b}", c.ordinal) for c in history], digits=1
    )
    given_away_chart = charts.line_chart(
        [(f"{day:%d %b}", away) for day, away in selectors.given_away_by_match(record)],
        digits=1,
    )
    given_away_nights = selectors.given_away_by_night(record)
    rating = league.ratings.filter(player=person).first()
    return render(
        request,
        "leagues/player.html",
        {
            "league": league,
            "club": league.club,
            "person": person,
            "record": record,
            "rating": rating,
            "history": history,
            "strokes_chart": strokes_chart,
            "rating_chart": rating_chart,
            "given_away_chart": given_away_chart,
            "given_away_nights": given_away_nights,
            "spread_chart": charts.histogram(record.spread),
            "handicap": handicaps.display(handicaps.by_night(league)[None].get(person.pk, 0)),
            "handicap_rule": handicaps.HANDICAP_RULE,
        },
    )


# --- Nights planned ahead, calendars ---------------------------------------------------


@require_POST
@login_required
def night_schedule(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser sets when and where a night is played."""
    night = _night(night_id)
    _organiser(request, night.season.league.club)
    form = ScheduleForm(request.POST, instance=LeagueNight.objects.get(pk=night.pk))
    if form.is_valid():
        try:
            services.schedule_night(
                night=night,
                night_date=form.cleaned_data["date"],
                start_time=form.cleaned_data["start_time"],
                venue=form.cleaned_data["venue"],
                by=request.user,
            )
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, "The night's time and place are saved.")
            return redirect(night)
    night.refresh_from_db()
    return _night_page(request, night, schedule_form=form, status=400)


def _league(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("club"), pk=league_id)


@require_GET
@login_required
def league_calendar(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's nights to come and past, and the member's own feed to subscribe to."""
    league = _league(league_id)
    role = _member_role(request, league.club)
    today = timezone.localdate()
    nights = list(selectors.league_nights(league))
    token = services.calendar_token(player=request.user)
    feed = request.build_absolute_uri(reverse("leagues:calendar_feed", args=[league.pk, token]))
    return render(
        request,
        "leagues/calendar.html",
        {
            "league": league,
            "club": league.club,
            "is_organiser": role == "organiser",
            "upcoming": [n for n in nights if n.date >= today],
            "past": [n for n in nights if n.date < today][::-1],
            "feed_url": feed,
        },
    )


def _feed(request: HttpRequest, league: League) -> HttpResponse:
    body = calendar.league_calendar(
        league,
        selectors.league_nights(league),
        lambda night: request.build_absolute_uri(night.get_absolute_url()),
    )
    return calendar.ics_response(body, f"{slugify(league.name)}.ics")


@require_GET
def calendar_feed(request: HttpRequest, league_id: int, token: str) -> HttpResponse:
    """A member's ICS feed of the league's nights, opened by the secret in its address alone
    (a calendar app has no session). 404 for a wrong secret or a player outside the club."""
    league = _league(league_id)
    person = Player.objects.filter(calendar_token=token, is_active=True).first()
    if person is None or selectors.role_in(person, league.club) is None:
        raise Http404("No such calendar.")
    return _feed(request, league)


@require_POST
@login_required
def calendar_reset(request: HttpRequest, league_id: int) -> HttpResponse:
    """A new secret for the member's feeds, when an old address was shared by mistake."""
    league = _league(league_id)
    _member_role(request, league.club)
    services.reset_calendar_token(player=request.user)
    messages.success(request, "Your calendar has a new address: the old one no longer works.")
    return redirect("leagues:calendar", league.pk)


# --- Corrections log, public leagues ---------------------------------------------------


@require_GET
@login_required
def league_corrections(request: HttpRequest, league_id: int) -> HttpResponse:
    """Every score correction of the league: who, when, why, before and after."""
    league = _league(league_id)
    _member_role(request, league.club)
    return render(
        request,
        "leagues/corrections.html",
        {
            "league": league,
            "club": league.club,
            "corrections": deal_results.corrections(selectors.corrections_in(league), request.user),
        },
    )


@require_POST
@login_required
def league_public(request: HttpRequest, league_id: int) -> HttpResponse:
    """An organiser makes the league's results public, or private again."""
    league = _league(league_id)
    _organiser(request, league.club)
    is_public = request.POST.get("is_public") == "on"
    services.set_league_public(league=league, is_public=is_public, by=request.user)
    if is_public:
        messages.success(request, "The league's results are public: anyone may read them.")
    else:
        messages.success(request, "The league is private again: only its club reads it.")
    return redirect(league)


def _public(league_id: int) -> League:
    league = selectors.public_league(league_id)
    if league is None:
        raise Http404("No such league.")
    return league


@require_GET
def public_league(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league, read without an account: its seasons and nights to come."""
    league = _public(league_id)
    today = timezone.localdate()
    seasons = list(league.seasons.all())
    return render(
        request,
        "leagues/public/league.html",
        {
            "league": league,
            "seasons": [(s, selectors.champions(s)) for s in seasons],
            "upcoming": [n for n in selectors.league_nights(league) if n.date >= today],
        },
    )


@require_GET
def public_season(request: HttpRequest, season_id: int) -> HttpResponse:
    """A public league's season: standings and nights, read only."""
    season = _season(season_id)
    league = _public(season.league_id)
    return render(
        request,
        "leagues/public/season.html",
        {
            "season": season,
            "league": league,
            "standings": deal_results.standings(season, request.user),
            "champions": selectors.champions(season),
            "tie_break_rule": selectors.TIE_BREAK_RULE,
            "absence_rule": selectors.absence_rule(league),
            "nights": season.nights.all(),
            "public": True,
        },
    )


@require_GET
def public_night(request: HttpRequest, night_id: int) -> HttpResponse:
    """A public league's night: its scorecards and corrections, read only."""
    night = _night(night_id)
    league = _public(night.season.league_id)
    return render(
        request,
        "leagues/public/night.html",
        {
            "night": night,
            "season": night.season,
            "league": league,
            "tables": deal_results.table_views(
                [selectors.table_view(nt) for nt in selectors.night_tables(night)], request.user
            ),
            "holes": range(1, HOLES + 1),
            "corrections": deal_results.corrections(selectors.corrections_for(night), request.user),
            "is_organiser": False,
            "public": True,
        },
    )


@require_GET
def public_night_deals(request: HttpRequest, night_id: int) -> HttpResponse:
    """A public league's duplicate night compared deal by deal, read only; it opens once
    every table of the night is done, since anyone at all may read it."""
    night = _night(night_id)
    _public(night.season.league_id)
    return _deals_page(request, night, public=True)


@require_GET
def public_corrections(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league's corrections log."""
    league = _public(league_id)
    return render(
        request,
        "leagues/public/corrections.html",
        {
            "league": league,
            "corrections": deal_results.corrections(selectors.corrections_in(league), request.user),
            "public": True,
        },
    )


@require_GET
def public_calendar_feed(request: HttpRequest, league_id: int) -> HttpResponse:
    """A public league's nights as an ICS feed, for anyone."""
    return _feed(request, _public(league_id))


# --- Closing a season ------------------------------------------------------------------


def _next_season_initial(season: Season) -> dict:
    """The next season's name and dates as a guess: the same length, straight after."""
    start = season.end + timedelta(days=1)
    name = re.sub(r"\d+$", lambda m: str(int(m.group()) + 1), season.name)
    return {
        "name": name if name != season.name else "",
        "start": start,
        "end": start + (season.end - season.start),
    }


@require_POST
@login_required
def season_close(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser closes the season: standings frozen, champion named."""
    season = _season(season_id)
    _organiser(request, season.league.club)
    try:
        services.close_season(season=season, by=request.user)
    except ValidationError as error:
        for text in error.messages:
            messages.error(request, text)
    else:
        names = get_text_list([p.name for p in selectors.champions(season)], "and")
        messages.success(request, f"{season.name} is closed. Champion: {names}.")
    return redirect(season)


@require_POST
@login_required
def season_next(request: HttpRequest, season_id: int) -> HttpResponse:
    """An organiser starts the season after a closed one, with the league's members and
    settings."""
    season = _season(season_id)
    _organiser(request, season.league.club)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            new = services.start_next_season(season=season, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, f"{new.name} is open: add its first night.")
            return redirect(new)
    return _season_page(request, season, next_form=form, status=400)

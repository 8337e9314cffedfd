"""The night's page, drawn whole from every room's reads about the night: the seasons
room's page, which the night's other rooms (attendance, seating) draw again with their
form's errors, so that no room's views import another's."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from games.engine.match import HOLES
from games.models import Table

from .. import deal_results
from ..attendance.forms import AbsenceForm, NightPlayersForm, SubstituteForm, one_member_list
from ..attendance.selectors import absence_rule, answers_close_hours, night_answers
from ..board.selectors import live_board
from ..checkin.selectors import arrivals, check_in_state
from ..clubs.selectors import club_members
from ..models import Answer, LeagueNight, Membership
from ..pages import SEATING_CHOICES_KEY, crumbs, member_role
from ..reporting.selectors import night_reports, with_reported
from ..results.selectors import corrections_for, night_tables, table_view
from ..seating.forms import SeatingForm
from ..seating.online import progress
from ..teams.selectors import left_out, night_teams, teammates_together
from .forms import ScheduleForm


def _board_url(request: HttpRequest, night: LeagueNight) -> str:
    """The whole address of the night's board, or "" when it has no link that works."""
    board = live_board(night)
    return request.build_absolute_uri(board.get_absolute_url()) if board else ""


def night_page(
    request: HttpRequest,
    night: LeagueNight,
    *,
    players_form=None,
    seating_form=None,
    schedule_form=None,
    absence_form=None,
    substitute_form=None,
    status: int = 200,
) -> HttpResponse:
    """The night's page: players present, seating, every table's scorecard, check-in,
    absences and substitutes, line-ups, paper tables' reports, corrections; a form
    given is drawn as given (with its errors, `status` 400), the others empty."""
    club = night.season.league.club
    role = member_role(request, club)
    members = club_members(club)
    # A paper table still reporting shows the holes its phones confirmed (not final).
    reported = with_reported([table_view(nt) for nt in night_tables(night)])
    tables = deal_results.table_views(reported.views, request.user)
    here = arrivals(night)
    checked_in_ids = {arrival.player_id for arrival in here.here}
    teams = night_teams(night) if night.season.league.is_team_league else []
    member = Membership.objects.filter(club=club, player=request.user).exists()
    check_in = check_in_state(night, request.user) if member else None
    answers = night_answers(night)
    reports = []
    if role == "organiser":
        # What the paper tables reported themselves, for the organiser to settle.
        reports = deal_results.reports(night_reports(night), request.user)
    absence_form = absence_form or AbsenceForm(members=members)
    substitute_form = substitute_form or SubstituteForm(members=members)
    one_member_list(absence_form, substitute_form)
    return render(
        request,
        "leagues/night.html",
        {
            **crumbs(night),
            "is_organiser": role == "organiser",
            "reports": reports,
            "has_paper_tables": any(view.table.kind == Table.Kind.PAPER for view in tables),
            # The link is a key to the board: only organisers see it.
            "board_url": _board_url(request, night) if role == "organiser" else None,
            "present": night.players.order_by("display_name", "username"),
            "tables": tables,
            "seated_for_good": any(view.table.status == Table.Status.FINISHED for view in tables),
            "holes": range(1, HOLES + 1),
            "corrections": deal_results.corrections(corrections_for(night), request.user),
            "schedule_form": schedule_form or ScheduleForm(instance=night),
            "players_form": players_form
            or NightPlayersForm(
                members=members,
                left_out=left_out(teams),
                initial={
                    "players": night.players.all(),
                    "seen": ",".join(str(pk) for pk in sorted(checked_in_ids)),
                },
            ),
            "arrivals": here,
            "checked_in_ids": checked_in_ids,
            "check_in": check_in,
            # "Are you coming?": until the night is over, for members and organisers.
            "answers": answers,
            "my_answer": answers.of(request.user) if member else None,
            "answer_choices": Answer.Choice.choices,
            "close_hours": answers_close_hours(night.season.league)
            if role == "organiser"
            else None,
            "coming_ids": {
                pk for pk, said in answers.choices.items() if said == Answer.Choice.COMING
            },
            "show_answers": not night.season.is_closed and night.date >= timezone.localdate(),
            # Check-in is for the night's day; the count stays once anyone checked in.
            "show_check_in": here.count
            or (not night.season.is_closed and night.date >= timezone.localdate()),
            "seating_form": seating_form
            or SeatingForm(initial=request.session.get(SEATING_CHOICES_KEY)),
            "absence_rule": absence_rule(night.season.league),
            "absences": night.absences.select_related("player").order_by("kind"),
            "substitutes": night.substitutes.select_related("member", "player"),
            "absence_form": absence_form,
            # A team league's line-ups, and teammates the seating could not split.
            "night_teams": teams,
            "together": teammates_together(night),
            "substitute_form": substitute_form,
            # An online round: each table's progress and deadline, the viewer's table.
            "round_tables": progress(night, request.user) if night.online else [],
        },
        status=status,
    )

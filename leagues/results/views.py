"""A night's scorecards as CSV, a paper table's results entered, a score corrected, and
the league's corrections log."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import get_text_list
from django.views.decorators.http import require_GET, require_http_methods

from games.engine.match import HOLES
from games.scorecards import PaperScoreError

from .. import deal_results
from ..exports import csv_response
from ..guests import as_played, guests_on
from ..pages import (
    crumbs,
    league_or_404,
    member_role,
    night_or_404,
    night_table_or_404,
    organiser_only,
)
from ..reporting.selectors import reported_results
from . import selectors, services
from .entry import enter_paper_results
from .forms import CorrectionForm


@require_GET
@login_required
def night_scorecards_csv(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every scorecard of the night as a CSV download, a row per card."""
    night = night_or_404(night_id)
    member_role(request, night.season.league.club)
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


@require_http_methods(["GET", "POST"])
@login_required
def table_results(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """An organiser enters a paper table's holes; nothing is saved on error."""
    night_table = night_table_or_404(night_table_id)
    organiser_only(request, night_table.night.season.league.club)
    table = night_table.table

    def finished() -> HttpResponse:
        messages.info(request, "Results are in for this table: change a hole with a correction.")
        return redirect("leagues:table_correct", night_table.pk)

    guests = guests_on([night_table.night_id])
    names = [
        as_played(seat.name, guests.get((night_table.night_id, seat.player_id)))
        for seat in table.seats.select_related("player").order_by("position")
    ]
    # What the table's players confirmed on their report is filled in for the organiser.
    reported = reported_results(night_table)
    return enter_paper_results(
        request,
        table=table,
        number=night_table.number,
        names=names,
        save=lambda hole_scores: services.enter_night_results(
            night_table=night_table, hole_scores=hole_scores, by=request.user
        ),
        saved_to=night_table.night,
        finished=finished,
        template="leagues/table_results.html",
        context={**crumbs(night_table), "reported": reported},
        initial=reported.initial if reported else None,
    )


@require_http_methods(["GET", "POST"])
@login_required
def table_correct(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """An organiser corrects one hole of a finished table, with a reason."""
    night_table = night_table_or_404(night_table_id)
    organiser_only(request, night_table.night.season.league.club)
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
        except PaperScoreError as error:
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
            **crumbs(night_table),
            "table": selectors.table_view(night_table),
            "holes": range(1, HOLES + 1),
            "form": form,
        },
        status=400 if form.is_bound and form.errors else 200,
    )


@require_GET
@login_required
def league_corrections(request: HttpRequest, league_id: int) -> HttpResponse:
    """Every score correction of the league: who, when, why, before and after."""
    league = league_or_404(league_id)
    member_role(request, league.club)
    log, page = deal_results.corrections_page(
        selectors.corrections_in(league), request.user, request.GET.get("page")
    )
    return render(
        request,
        "leagues/corrections.html",
        {**crumbs(league), "corrections": log, "page": page},
    )

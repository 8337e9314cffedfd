"""A paper table reports itself: the table cards the organiser prints, the page where a
player types a table's code, and the table's report page, where its players enter the
strokes hole by hole, confirm or dispute each other's, and the organiser settles.

Every page is plain forms; htmx swaps the page's main part instead of loading it anew,
and the holes stay current over the report's socket (`consumers`) while the table plays.
"""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from games.engine.match import HOLES
from games.models import Table, hole_name
from games.numbers import whole_number
from games.scorecards import PaperScoreError

from ..duplicate import sheets
from ..duplicate.selectors import unfinished_table_of
from ..models import NightTable, ReportedHole, TableReport
from ..pages import crumbs, night_or_404, night_table_or_404, organiser_only
from ..qr import qr_svg
from ..results.forms import typed_strokes
from ..roles import is_organiser
from . import guesses, selectors, services
from .forms import CodeForm, DisputeForm, HoleForm, VersionForm
from .pages import report_for


def _card(request: HttpRequest, night_table: NightTable) -> dict:
    """What a table card prints: the code, its QR code, the seats, and the deal sheet on
    a duplicate night (unless the organiser is seated at a table still playing its deals).
    The code was made as the table was seated: the card only reads it."""
    report = selectors.report_of(night_table)
    if report is None:
        raise Http404("This table has no card: it is not played with a physical deck.")
    url = request.build_absolute_uri(reverse("leagues:report", args=[report.code]))
    night = night_table.night
    deals = None
    if night.duplicate_deals:
        waiting = unfinished_table_of(request.user, night)
        if waiting is None or waiting.table.deal_seed != night_table.table.deal_seed:
            deals = sheets.deal_sheet(night_table)
    return {
        "night_table": night_table,
        "code": selectors.shown_code(report.code),
        "url": url,
        "code_url": request.build_absolute_uri(reverse("leagues:report_code")),
        "qr": qr_svg(url, title=url),
        "names": [seat.name for seat in selectors.seats_of(night_table.table)],
        "holes": deals,
        "withheld": night.duplicate_deals and deals is None,
    }


@require_GET
@login_required
def table_cards(request: HttpRequest, night_id: int) -> HttpResponse:
    """Every paper table's card of the night on one page, one card per printed sheet."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
    cards = [
        _card(request, night_table)
        for night_table in selectors.paper_tables(night).select_related(
            "night__season__league__club"
        )
        if night_table.table.status != Table.Status.FINISHED
    ]
    return render(
        request,
        "leagues/table_cards.html",
        {**crumbs(night), "cards": cards, "rules": night.season.league.rules_name},
    )


@require_GET
@login_required
def table_card(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """One paper table's card."""
    night_table = night_table_or_404(night_table_id)
    organiser_only(request, night_table.night.season.league.club)
    if not night_table.is_paper:
        raise Http404("Only a table played with a physical deck has a table card.")
    return render(
        request,
        "leagues/table_cards.html",
        {
            **crumbs(night_table),
            "cards": [_card(request, night_table)],
            "rules": night_table.table.rules_name,
        },
    )


@require_GET
@login_required
def report_code(request: HttpRequest) -> HttpResponse:
    """The page where a player types the code on their table's card."""
    form = CodeForm(request.GET or None)
    status = 200
    if form.is_bound and form.is_valid():
        refused = guesses.refusal(request)
        if refused:
            form.add_error("code", refused)
            status = 429
        else:
            report = selectors.report_by_code(form.cleaned_data["code"])
            if report is not None:
                return redirect("leagues:report", report.code)
            guesses.count_miss(request)
            form.add_error("code", "No table has that code: check it against the table card.")
    if status == 200 and form.is_bound and form.errors:
        status = 400
    return render(request, "leagues/report_code.html", {"form": form}, status=status)


def _report_or_404(request: HttpRequest, code: str) -> TableReport:
    return report_for(request.user, code)


def _status(request: HttpRequest, status: int) -> int:
    # htmx swaps only a successful answer: it gets the page with its errors as one.
    return 200 if request.htmx else status


def _report_page(
    request: HttpRequest,
    report: TableReport,
    *,
    form: HoleForm | None = None,
    dispute: tuple[int, DisputeForm] | None = None,
    conflict: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    view = selectors.report_view(report)
    night_table = report.night_table
    organiser = is_organiser(request.user, night_table.night.season.league.club)
    seated = selectors.is_seated(request.user, night_table.table)
    finished = night_table.table.status == Table.Status.FINISHED
    to_dispute = _asked_hole(request, "dispute", len(view.lines))
    to_enter = _asked_hole(request, "hole", len(view.lines) + 1)
    if to_dispute is None or to_enter is None:
        messages.error(request, "That hole is not on this table's report: choose one below.")
        status = 400
    if dispute is None and to_dispute and seated:
        dispute = (to_dispute, DisputeForm(initial={"version": _version(view, to_dispute)}))
    if form is None:
        number = to_enter or view.next_number
        form = _blank_form(view, number) if number else None
    line = dispute and next((ln for ln in view.lines if ln.number == dispute[0]), None)
    changes = bool(form and (_was_confirmed(view, form.number, finished) or form["reason"].value()))
    if conflict is not None:
        conflict["theirs"] = list(zip(view.names, conflict["hole"].strokes, strict=True))
        if conflict["mine"] is not None:
            conflict["mine"] = list(zip(view.names, conflict["mine"], strict=True))
    return render(
        request,
        "leagues/report.html",
        {
            **crumbs(night_table),
            "report": report,
            "code": selectors.shown_code(report.code),
            "view": view,
            "form": form,
            "dispute": line and line.hole and {"line": line, "form": dispute[1]},
            "conflict": conflict,
            "entry_name": form and hole_name(form.number).lower(),
            "entry_title": form
            and f"{'Change' if _version(view, form.number) else 'Enter'} "
            f"{hole_name(form.number).lower()}",
            "entry_changes": changes,
            "entry_cells": form and _cells_with_totals(view, form),
            "entry_regulation": form and form.number <= HOLES,
            "is_organiser": organiser,
            "is_seated": seated,
            "finished": finished,
        },
        status=_status(request, status),
    )


def _asked_hole(request: HttpRequest, name: str, last: int) -> int | None:
    """The hole a link of the page asks for in the query (`?hole=3`): 0 when it asks
    for none, None when it names no hole from 1 to `last`."""
    if name not in request.GET:
        return 0
    number = whole_number(request.GET[name], digits=3)
    return number if number is not None and 1 <= number <= last else None


def _cells_with_totals(view: selectors.ReportView, form: HoleForm) -> list[tuple]:
    """Each cell of the form with its player's total over the other regulation holes, so
    that the page (and its script, as the player types) shows the total with this hole."""
    line = next((line for line in view.lines if line.number == form.number), None)
    counted = line.strokes if line and form.number <= HOLES else [None] * len(view.names)
    cells = []
    for position, cell in zip(form.seats, form.cells(), strict=True):
        before = view.totals[position] - (counted[position] or 0)
        typed = typed_strokes(str(cell.value() or ""))
        after = before + typed if type(typed) is int and form.number <= HOLES else before
        cells.append((cell, before, after))
    return cells


def _was_confirmed(view: selectors.ReportView, number: int, finished: bool) -> bool:
    line = next((line for line in view.lines if line.number == number), None)
    hole = line.hole if line else None
    return hole is not None and (hole.confirmed_strokes is not None or finished)


def _version(view: selectors.ReportView, number: int) -> int:
    line = next((line for line in view.lines if line.number == number), None)
    return line.hole.version if line and line.hole else 0


def _blank_form(view: selectors.ReportView, number: int) -> HoleForm:
    """The form of hole `number` as it stands: its strokes and version, or empty."""
    line = next((line for line in view.lines if line.number == number), None)
    hole = line.hole if line else None
    if hole is not None:
        seats = [p for p, v in enumerate(hole.strokes) if v is not None] or view.next_seats
    else:
        seats = view.next_seats if number == view.next_number else list(range(len(view.names)))
    initial = {"version": hole.version if hole else 0}
    if hole is not None:
        initial |= {HoleForm.cell(p): v for p, v in enumerate(hole.strokes) if v is not None}
    return HoleForm(initial=initial, number=number, names=view.names, seats=seats)


@require_http_methods(["GET"])
@login_required
def report(request: HttpRequest, code: str) -> HttpResponse:
    """A paper table's report: its holes with running totals, the hole to enter next,
    and each hole to confirm or dispute; the organiser settles here too."""
    report = _report_or_404(request, code)
    if report.night_table.table.kind != Table.Kind.PAPER:
        raise Http404("This table is played live.")
    return _report_page(request, report)


def _form_address(request: HttpRequest, code: str, number: int, shows: str) -> HttpResponse:
    """What a form's own address shows when read (a GET): the report with that hole's
    form (`shows` "hole" or "dispute", as the page's links open them) or as it stands
    ("page"). A refused form is shown at the address it was sent to: a reload after the
    error, or going back to it, shows the page again rather than a refusal of the method."""
    report = _report_or_404(request, code)
    if report.night_table.table.kind != Table.Kind.PAPER:
        raise Http404("This table is played live.")
    view = selectors.report_view(report)
    if not 1 <= number <= len(view.lines) + 1:
        raise Http404("That hole is not on this table's report.")
    if shows == "hole":
        return _report_page(request, report, form=_blank_form(view, number))
    if shows == "dispute" and selectors.is_seated(request.user, report.night_table.table):
        form = DisputeForm(initial={"version": _version(view, number)})
        return _report_page(request, report, dispute=(number, form))
    return _report_page(request, report)


def _hole_form(request: HttpRequest, report: TableReport, number: int) -> HoleForm:
    view = selectors.report_view(report)
    line = next((line for line in view.lines if line.number == number), None)
    if line is not None and line.hole is not None:
        seats = [p for p, v in enumerate(line.hole.strokes) if v is not None]
    else:
        seats = view.next_seats if number == view.next_number else list(range(len(view.names)))
    # A cell posted for a seat the page did not offer is read too, so that the rules
    # name it (a playoff stroke for a player who is not tied).
    seats = sorted(
        set(seats)
        | {p for p in range(len(view.names)) if (request.POST.get(HoleForm.cell(p)) or "").strip()}
    )
    return HoleForm(request.POST, number=number, names=view.names, seats=seats)


def _entry_key(request: HttpRequest) -> uuid.UUID | None:
    """The key the phone's script gave the entry (none from a page sent without it), so
    that the entry sent again once the connection returns is recorded once. Read inside
    a write: a malformed one is refused as the write's error."""
    return forms.UUIDField(required=False).clean(request.POST.get("key"))


def _write(request: HttpRequest, report: TableReport, number: int, act, form) -> HttpResponse:
    """Run `act`; back to the report on success, else the page with what went wrong."""
    try:
        outcome = act()
    except services.HoleConflict as conflict:
        hole = conflict.hole
        mine = form if isinstance(form, HoleForm) else None
        return _report_page(
            request,
            report,
            form=mine and _overwrite_form(report, hole, mine),
            conflict={
                "hole": hole,
                "by": hole.entered_by.name if hole.entered_by else "Someone",
                "theirs": hole.strokes,
                "mine": mine.strokes if mine else None,
            },
            status=409,
        )
    except PaperScoreError as error:
        for problem in error.problems:
            form.add_error(None, problem.message)
    except ValueError as error:  # the organiser entered the results at that moment
        form.add_error(None, str(error))
    except ValidationError as error:
        fields = getattr(error, "error_dict", {})
        if fields and set(fields) <= set(form.fields):
            form.add_error(None, error)
        else:
            form.add_error(None, error.messages)
    else:
        messages.success(request, outcome)
        return redirect("leagues:report", report.code)
    if isinstance(form, DisputeForm):
        return _report_page(request, report, dispute=(number, form), status=400)
    if isinstance(form, HoleForm):
        return _report_page(request, report, form=form, status=400)
    messages.error(request, " ".join(e for errs in form.errors.values() for e in errs))
    return redirect("leagues:report", report.code)


def _overwrite_form(report: TableReport, hole: ReportedHole, mine: HoleForm) -> HoleForm:
    """The writer's own figures again, at the hole's new version: sending it overwrites."""
    data = {HoleForm.cell(p): mine.data.get(HoleForm.cell(p), "") for p in mine.seats}
    data |= {"version": hole.version, "reason": mine.data.get("reason", "")}
    form = HoleForm(data, number=hole.number, names=mine.names, seats=mine.seats)
    form.is_valid()
    return form


@require_http_methods(["GET", "POST"])
@login_required
def report_hole(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """A player enters (or changes) a hole's strokes."""
    if request.method == "GET":
        return _form_address(request, code, number, "hole")
    report = _report_or_404(request, code)
    form = _hole_form(request, report, number)
    if not form.is_valid():
        return _report_page(request, report, form=form, status=400)
    data = form.cleaned_data

    def act() -> str:
        services.enter_hole(
            report=report,
            number=number,
            strokes=form.strokes,
            version=data["version"],
            by=request.user,
            reason=data["reason"],
            key=_entry_key(request),
        )
        return f"{hole_name(number)} entered: another player of the table confirms it."

    return _write(request, report, number, act, form)


@require_http_methods(["GET", "POST"])
@login_required
def report_confirm(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """Another player confirms a hole as entered."""
    if request.method == "GET":
        return _form_address(request, code, number, "page")
    report = _report_or_404(request, code)
    form = VersionForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The page was out of date: look again, then confirm.")
        return redirect("leagues:report", report.code)

    def act() -> str:
        services.confirm_hole(
            report=report,
            number=number,
            version=form.cleaned_data["version"],
            by=request.user,
            key=_entry_key(request),
        )
        return f"{hole_name(number)} confirmed."

    return _write(request, report, number, act, form)


@require_http_methods(["GET", "POST"])
@login_required
def report_dispute(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """Another player disputes a hole, saying why."""
    if request.method == "GET":
        return _form_address(request, code, number, "dispute")
    report = _report_or_404(request, code)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        return _report_page(request, report, dispute=(number, form), status=400)

    def act() -> str:
        services.dispute_hole(
            report=report,
            number=number,
            version=form.cleaned_data["version"],
            by=request.user,
            reason=form.cleaned_data["reason"],
            key=_entry_key(request),
        )
        return f"{hole_name(number)} disputed: the organiser settles it."

    return _write(request, report, number, act, form)


@require_http_methods(["GET", "POST"])
@login_required
def report_settle(request: HttpRequest, code: str, number: int) -> HttpResponse:
    """The organiser settles a hole at the strokes that stand."""
    if request.method == "GET":
        return _form_address(request, code, number, "hole")
    report = _report_or_404(request, code)
    organiser_only(request, report.night_table.night.season.league.club)
    form = _hole_form(request, report, number)
    if not form.is_valid():
        return _report_page(request, report, form=form, status=400)

    def act() -> str:
        services.settle_hole(
            report=report,
            number=number,
            strokes=form.strokes,
            version=form.cleaned_data["version"],
            by=request.user,
            reason=form.cleaned_data["reason"],
            key=_entry_key(request),
        )
        return f"{hole_name(number)} settled."

    return _write(request, report, number, act, form)

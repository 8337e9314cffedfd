"""A duplicate night's deals compared, and a paper table's deal sheet."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ..pages import crumbs, member_role, night_or_404, night_table_or_404, organiser_only
from . import sheets
from .pages import deals_page
from .selectors import unfinished_table_of


@require_GET
@login_required
def night_deals(request: HttpRequest, night_id: int) -> HttpResponse:
    """A duplicate night's deals compared seat by seat (travellers) and its matchpoints.

    Someone seated at a table of the night that has not finished sees it once their
    table has: the comparison would tell them about deals they are still to play.
    """
    night = night_or_404(night_id)
    member_role(request, night.season.league.club)
    return deals_page(request, night, public=False)


@require_GET
@login_required
def deal_sheet(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """A paper table's deal sheet on a duplicate night: each hole's courses as dealt.

    Organisers only, and not one seated at another table of the night still playing
    the same deals.
    """
    night_table = night_table_or_404(night_table_id)
    night = night_table.night
    organiser_only(request, night.season.league.club)
    if not night.duplicate_deals or not night_table.is_paper:
        raise Http404("Deal sheets are for paper tables on a night of duplicate deals.")
    waiting = unfinished_table_of(request.user, night)
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
            **crumbs(night_table),
            "holes": sheets.deal_sheet(night_table),
            "rules": night_table.table.rules_name,
        },
    )

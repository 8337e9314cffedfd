"""Starting a league night's live table from the night's page.

The organiser who seats a night hosts its live tables, and may be seated at one of
them: the others then deal what they have yet to play, so their pages are closed to
them (`games.deal_visibility`) and the night's page starts them instead.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from games import services as game_services
from games.models import Table

from .models import NightTable
from .news import send_night_changed
from .roles import role_in


@require_POST
@login_required
def start_table(request: HttpRequest, night_table_id: int) -> HttpResponse:
    """The table's host (the organiser who seated the night) deals its first hole."""
    night_table = get_object_or_404(
        NightTable.objects.select_related("table", "night__season__league__club"),
        pk=night_table_id,
    )
    night = night_table.night
    role = role_in(request.user, night.season.league.club)
    if role is None:
        raise Http404("No such club.")
    if role != "organiser":
        raise PermissionDenied("Only the club's organisers may do that.")
    if night_table.table.kind != Table.Kind.LIVE:
        messages.error(request, "A paper table is not started here: enter its results.")
        return redirect(night)
    try:
        game_services.start_match(table=night_table.table, by=request.user)
    except game_services.GameError as error:
        messages.error(request, str(error))
    else:
        send_night_changed(night.pk)
        messages.success(request, f"Table {night_table.number} has teed off.")
    return redirect(night)

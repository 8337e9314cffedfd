"""An organiser seats a night's players present at tables."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from ..pages import SEATING_CHOICES_KEY, night_or_404, organiser_only
from ..seasons.pages import night_page
from ..teams.selectors import teammates_together
from . import services
from .forms import SeatingForm


@require_POST
@login_required
def night_seat(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser seats the players present at tables."""
    night = night_or_404(night_id)
    organiser_only(request, night.season.league.club)
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
            for number, players in teammates_together(night):
                names = " and ".join(player.name for player in players)
                messages.warning(
                    request,
                    f"Teammates {names} sit at table {number}: no seating of tonight's "
                    "players at these tables keeps them apart.",
                )
            return redirect(night)
    return night_page(request, night, seating_form=form, status=400)

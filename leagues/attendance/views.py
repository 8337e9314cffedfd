"""What an organiser records on a night's page: who is present, who is away, who
stands in for whom."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from ..clubs.selectors import club_members
from ..pages import night_or_404, organiser_only
from ..seasons.pages import night_page
from . import services
from .forms import AbsenceForm, NightPlayersForm, SubstituteForm


@require_POST
@login_required
def night_players(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser records who is present."""
    night = night_or_404(night_id)
    club = night.season.league.club
    organiser_only(request, club)
    form = NightPlayersForm(request.POST, members=club_members(club))
    if not form.is_valid():
        return night_page(request, night, players_form=form, status=400)
    try:
        services.set_night_players(
            night=night,
            players=form.cleaned_data["players"],
            by=request.user,
            seen_check_ins=form.cleaned_data["seen"],
        )
    except ValidationError as error:
        form.add_error(None, error)
        return night_page(request, night, players_form=form, status=400)
    # The count saved: members who checked in after the form was drawn stay present.
    messages.success(request, f"{night.players.count()} players present.")
    return redirect(night)


def _night_form(request, night_id: int, form_class, save, said, form_name: str):
    """An organiser's form on a night's page: `save(night, **cleaned)` under the rules of
    the league's services, then `said(what was saved)` as the page's message; a
    refusal shows the form again with its reason (400)."""
    night = night_or_404(night_id)
    club = night.season.league.club
    organiser_only(request, club)
    form = form_class(request.POST, members=club_members(club))
    if form.is_valid():
        try:
            saved = save(night=night, by=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, said(saved))
            return redirect(night)
    return night_page(request, night, **{form_name: form}, status=400)


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
    night = night_or_404(night_id)
    club = night.season.league.club
    organiser_only(request, club)
    player = get_object_or_404(club_members(club), pk=player_id)
    try:
        services.clear_absence(night=night, player=player, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"{player.name} is no longer marked away.")
    return redirect(night)

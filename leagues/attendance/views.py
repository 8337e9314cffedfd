"""What an organiser records on a night's page: who is present, who is away, who
stands in for whom; and a member's answer to "are you coming?", from the night's page
or a mail's one-click link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from games.numbers import whole_number

from ..clubs.selectors import club_members
from ..models import Answer, LeagueNight
from ..pages import crumbs, member_role, night_or_404, organiser_only
from ..seasons.pages import night_page
from . import links, services
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


@require_POST
@login_required
def night_answer(request: HttpRequest, night_id: int) -> HttpResponse:
    """A member says whether they are coming to a night ahead."""
    night = night_or_404(night_id)
    member_role(request, night.season.league.club)  # 404 outside the club
    try:
        saved = services.answer(
            night=night, player=request.user, choice=request.POST.get("answer", "")
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, f"Saved: {saved.get_choice_display().lower()}.")
    return redirect(f"{night.get_absolute_url()}#coming")


@require_POST
@login_required
def answer_links_renew(request: HttpRequest) -> HttpResponse:
    """A member makes every answer link of their mail so far stop working."""
    links.renew(request.user)
    messages.success(
        request, "Your answer links are renewed: those in earlier mail no longer work."
    )
    night_id = request.POST.get("night", "")
    if night_id.isdigit():
        return redirect(f"{reverse('leagues:night', args=[int(night_id)])}#coming")
    return redirect("account")


@require_http_methods(["GET", "POST"])
def answer_link(request: HttpRequest, player_id: int, token: str) -> HttpResponse:
    """A mail's one-click answer, with no log-in: the GET shows the answer and a button
    (a mail scanner opening the link records nothing); the POST records it."""
    try:
        player, night_id = links.read_token(player_id, token)
    except links.BadLink as error:
        return render(request, "leagues/answer.html", {"error": str(error)}, status=400)
    night = LeagueNight.objects.select_related("season__league__club").filter(pk=night_id).first()
    if night is None:
        return render(
            request,
            "leagues/answer.html",
            {"error": "This night is no longer planned."},
            status=404,
        )
    choice = request.POST.get("answer") if request.method == "POST" else request.GET.get("answer")
    context = {
        **crumbs(night),
        "member": player,
        "choice": choice if choice in Answer.Choice.values else "",
        "choices": Answer.Choice.choices,
        "current": night.answers.filter(player=player).values_list("choice", flat=True).first(),
    }
    if request.method == "GET":
        return render(request, "leagues/answer.html", context)
    try:
        saved = services.answer(night=night, player=player, choice=choice or "")
    except ValidationError as error:
        context["error"] = " ".join(error.messages)
        return render(request, "leagues/answer.html", context, status=400)
    context["saved"] = saved.get_choice_display()
    context["current"] = saved.choice
    return render(request, "leagues/answer.html", context)


@require_POST
@login_required
def answers_close(request: HttpRequest, night_id: int) -> HttpResponse:
    """An organiser sets, from a night's page, when answers close for the league's nights."""
    night = night_or_404(night_id)
    league = night.season.league
    organiser_only(request, league.club)
    raw = request.POST.get("close_hours", "").strip()
    hours = whole_number(raw) if raw else None
    try:
        if raw and hours is None:
            raise ValidationError("Give the hours as a whole number, or leave it empty.")
        services.set_answers_close(league=league, hours=hours, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        said = f"{hours} hours before each night" if hours is not None else "when a night starts"
        messages.success(request, f"Answers for {league.name} now close {said}.")
    return redirect(f"{night.get_absolute_url()}#coming")

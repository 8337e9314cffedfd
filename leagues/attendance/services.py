"""Writes of who plays a night: the members present, absences and substitutes
(organisers only, while the season is open)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q

from games.text import validate_shown

from ..clubs.selectors import club_members
from ..guards import require_open, require_organiser
from ..locks import hold_season
from ..models import (
    Absence,
    Answer,
    AnswerRule,
    Club,
    League,
    LeagueNight,
    Membership,
    Player,
    Substitute,
)
from ..news import send_arrivals_changed
from ..ratings.services import queue_rate_from
from ..standings.services import score_night
from .models import GUEST_MARK
from .selectors import answers_closed_reason


def set_night_players(
    *,
    night: LeagueNight,
    players: Sequence[Player],
    by: Player,
    seen_check_ins: Collection[int] | None = None,
) -> None:
    """Record who is present; only the club's members can be.

    `seen_check_ins` are the ids of the members the organiser saw checked in when the
    form was drawn: a member who checked in since stays present, since the organiser
    could not have meant to leave them out. None: every check-in was seen.
    """
    club = night.season.league.club
    require_organiser(by, club)
    members = set(club_members(club).values_list("pk", flat=True))
    strangers = [p for p in players if p.pk not in members]
    if strangers:
        raise ValidationError(f"{strangers[0].name} is not a member of {club.name}.")
    with transaction.atomic():
        hold_season(night.season)
        require_open(night.season)
        players = list(players)
        if seen_check_ins is not None:
            chosen = {p.pk for p in players}
            players += [
                check_in.player
                for check_in in night.check_ins.select_related("player")
                if check_in.player_id not in chosen and check_in.player_id not in seen_check_ins
            ]
        night.players.set(players)
        # Someone present is no longer away.
        night.absences.filter(player__in=players).exclude(kind=Absence.Kind.BYE).delete()
        send_arrivals_changed(night.pk)


def _require_member(player: Player, club: Club) -> None:
    if not Membership.objects.filter(club=club, player=player).exists():
        raise ValidationError(f"{player.name} is not a member of {club.name}.")


def _require_unseated(night: LeagueNight, player: Player) -> None:
    seated = night.tables.filter(table__seats__player=player).first()
    if seated is not None:
        raise ValidationError(
            f"{player.name} is seated at table {seated.number}: seat the night again first."
        )


@transaction.atomic
def mark_absent(*, night: LeagueNight, player: Player, notice: bool, by: Player) -> Absence:
    """Record a member as away for the night, with or without notice (not seated)."""
    club = night.season.league.club
    require_organiser(by, club)
    hold_season(night.season)
    require_open(night.season)
    _require_member(player, club)
    _require_unseated(night, player)
    if night.substitutes.filter(player=player).exists():
        raise ValidationError(f"{player.name} is a substitute tonight: remove that first.")
    if night.substitutes.filter(member=player).exists():
        raise ValidationError(f"{player.name} has a substitute tonight: remove that first.")
    night.players.remove(player)
    send_arrivals_changed(night.pk)
    kind = Absence.Kind.NOTICE if notice else Absence.Kind.NO_NOTICE
    absence, _ = Absence.objects.update_or_create(
        night=night, player=player, defaults={"kind": kind}
    )
    return absence


@transaction.atomic
def clear_absence(*, night: LeagueNight, player: Player, by: Player) -> None:
    """Take back an absence or a substitute for `player`; nobody is marked present."""
    require_organiser(by, night.season.league.club)
    require_open(night.season)
    night.absences.filter(player=player).delete()
    if night.substitutes.filter(member=player).delete()[0]:
        _rescore(night)
    send_arrivals_changed(night.pk)


@transaction.atomic
def set_substitute(
    *,
    night: LeagueNight,
    member: Player,
    by: Player,
    player: Player | None = None,
    guest_name: str = "",
) -> Substitute:
    """Name who plays for an absent member tonight: another member, or a guest by name.

    A member substitute is marked present in their own name. A guest has no account, so
    the absent member's own seat is kept for them (at a paper table) and the card is
    the member's; the league's rule then says whom the result counts for.
    """
    club = night.season.league.club
    require_organiser(by, club)
    hold_season(night.season)
    require_open(night.season)
    _require_member(member, club)
    # "Walt (guest)" is Walt: the pages mark a guest themselves.
    guest_name = GUEST_MARK.sub("", " ".join(guest_name.split()))
    if (player is None) == (not guest_name):
        raise ValidationError("Name one substitute: a member, or a guest who has no account.")
    if len(guest_name) > 40:
        raise ValidationError("A guest's name is at most 40 characters.")
    validate_shown(guest_name)
    if night.substitutes.filter(member=member).exists():
        raise ValidationError(f"{member.name} has a substitute tonight already.")
    if player is not None:
        _require_member(player, club)
        if player.pk == member.pk:
            raise ValidationError("A member cannot stand in for themselves.")
        if night.substitutes.filter(Q(player=player) | Q(member=player)).exists():
            raise ValidationError(f"{player.name} already plays for someone tonight.")
        if night.absences.filter(player=player).exists():
            raise ValidationError(f"{player.name} is marked away tonight.")
        _require_unseated(night, member)
        night.players.remove(member)
        night.players.add(player)
    else:
        # The member's seat is the guest's, so it stays in the member's name.
        night.players.add(member)
    # The substitute's result, by the league's rule, takes the place of an absence.
    night.absences.filter(player=member).delete()
    substitute = Substitute.objects.create(
        night=night, member=member, player=player, guest_name=guest_name
    )
    _rescore(night)
    send_arrivals_changed(night.pk)
    return substitute


def _rescore(night: LeagueNight) -> None:
    """Whom the night's results count for changed: its tables are scored again, and
    their matches and those after them rated again (in a task, after the commit)."""
    score_night(night)
    first = night.tables.filter(card_results__isnull=False).order_by("number").first()
    if first is not None:
        queue_rate_from(first)


def answer(*, night: LeagueNight, player: Player, choice: str) -> Answer:
    """Record whether `player` is coming to `night` (a member, before the league's
    deadline), replacing their earlier answer."""
    if choice not in Answer.Choice.values:
        raise ValidationError("Answer coming, maybe or not coming.")
    _require_member(player, night.season.league.club)
    closed = answers_closed_reason(night)
    if closed:
        raise ValidationError(closed)
    saved, _ = Answer.objects.update_or_create(
        night=night, player=player, defaults={"choice": choice}
    )
    return saved


def set_answers_close(*, league: League, hours: int | None, by: Player) -> None:
    """An organiser sets how many hours before each night answers close (None: at the
    night's start)."""
    require_organiser(by, league.club)
    if hours is None:
        AnswerRule.objects.filter(league=league).delete()
        return
    rule = AnswerRule.objects.filter(league=league).first() or AnswerRule(league=league)
    rule.close_hours = hours
    rule.full_clean()
    rule.save()

"""Writes of teams (organisers only): a team league's settings, its teams, their members
and captains; and a night's line-up (the team's captain, or an organiser), until the
night is seated.

Team writes of one league hold the league's row first, so two at once go one after the
other and the second sees the first's work (two teams claiming one member: the second
is refused in words, not by a broken constraint). A line-up holds the season's row, as
seating does: a line-up racing the seating comes first (and is seated) or sees the
tables and is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import get_text_list

from games.text import validate_shown

from ..guards import require_open, require_organiser
from ..locks import hold_season
from ..models import Absence, League, LeagueNight, LineUp, Membership, Player, Team, TeamMember
from ..roles import is_organiser
from ..words import possessive
from .models import FEWEST_MEMBERS, MOST_MEMBERS


def _hold_league(league: League) -> None:
    League.objects.select_for_update().filter(pk=league.pk).values_list("pk").get()


def _require_team_league(league: League) -> None:
    if not league.is_team_league:
        raise ValidationError(f"{league.name} is not a team league: set its team size first.")


def _require_members_of_club(league: League, players: Sequence[Player]) -> None:
    members = set(
        Membership.objects.filter(club_id=league.club_id, player__in=players).values_list(
            "player_id", flat=True
        )
    )
    for player in players:
        if player.pk not in members:
            raise ValidationError(f"{player.name} is not a member of {league.club.name}.")


def _require_on_no_team(league: League, players: Sequence[Player], but: Team | None = None):
    taken = (
        TeamMember.objects.filter(league=league, player__in=players)
        .exclude(team=but)
        .select_related("team", "player")
        .first()
    )
    if taken is not None:
        raise ValidationError(
            f"{taken.player.name} is on {taken.team.name} already: a member plays for one "
            "team of a league."
        )


def _require_size(league: League, count: int) -> None:
    most = league.team_size
    if not FEWEST_MEMBERS <= count <= most:
        raise ValidationError(
            f"A team of {league.name} has {FEWEST_MEMBERS} to {most} members, not {count}."
        )


@transaction.atomic
def set_team_rules(
    *, league: League, team_size: int, team_score: str, team_counted: int, by: Player
) -> League:
    """Make `league` a team league (or change how its teams score; 0: no teams)."""
    require_organiser(by, league.club)
    _hold_league(league)
    largest = max((team.members.count() for team in league.teams.all()), default=0)
    if largest and team_size < largest:
        raise ValidationError(
            f"A team of {league.name} has {largest} members: the team size cannot be less."
        )
    # Checked on a fresh copy: a refusal leaves the caller's league as it was.
    fresh = League.objects.get(pk=league.pk)
    fresh.team_size, fresh.team_score, fresh.team_counted = team_size, team_score, team_counted
    fresh.full_clean()
    fresh.save(update_fields=["team_size", "team_score", "team_counted"])
    league.team_size, league.team_score, league.team_counted = team_size, team_score, team_counted
    return league


@transaction.atomic
def create_team(
    *, league: League, name: str, members: Sequence[Player], captain: Player, by: Player
) -> Team:
    """A new team of `league`: 2 to the league's team size of its club's members, none
    on another of its teams, `captain` one of them."""
    require_organiser(by, league.club)
    _hold_league(league)
    league.refresh_from_db(fields=["team_size"])
    _require_team_league(league)
    name = " ".join(name.split())
    if not name:
        raise ValidationError("A team needs a name.")
    validate_shown(name)
    members = list(dict.fromkeys(members))
    _require_size(league, len(members))
    _require_members_of_club(league, members)
    if captain not in members:
        raise ValidationError(
            f"{captain.name} is not on the team: a captain is one of its members."
        )
    if league.teams.filter(name__iexact=name).exists():
        raise ValidationError(f"{league.name} has a team called {name} already.")
    _require_on_no_team(league, members)
    try:
        with transaction.atomic():
            team = Team.objects.create(league=league, name=name)
            TeamMember.objects.bulk_create(
                TeamMember(team=team, league=league, player=p, is_captain=p == captain)
                for p in members
            )
    except IntegrityError:  # the league's lock makes this a last line only
        raise ValidationError("A member of that team joined another team meanwhile.") from None
    return team


@transaction.atomic
def add_team_member(*, team: Team, player: Player, by: Player) -> TeamMember:
    """Put a club member on `team`, up to the league's team size."""
    league = team.league
    require_organiser(by, league.club)
    _hold_league(league)
    league.refresh_from_db(fields=["team_size"])
    _require_team_league(league)
    _require_members_of_club(league, [player])
    if team.members.filter(player=player).exists():
        raise ValidationError(f"{player.name} is on {team.name} already.")
    _require_on_no_team(league, [player])
    count = team.members.count()
    if count >= league.team_size:
        raise ValidationError(
            f"{team.name} has {count} members, the most a team of {league.name} has."
        )
    try:
        with transaction.atomic():
            return TeamMember.objects.create(team=team, league=league, player=player)
    except IntegrityError:
        raise ValidationError(f"{player.name} joined another team meanwhile.") from None


@transaction.atomic
def remove_team_member(*, team: Team, player: Player, by: Player) -> None:
    """Take `player` off `team`; a team keeps two members and its captain."""
    require_organiser(by, team.league.club)
    _hold_league(team.league)
    member = team.members.filter(player=player).first()
    if member is None:
        raise ValidationError(f"{player.name} is not on {team.name}.")
    if member.is_captain:
        raise ValidationError(f"{player.name} captains {team.name}: name another captain first.")
    if team.members.count() <= FEWEST_MEMBERS:
        raise ValidationError(
            f"A team has at least {FEWEST_MEMBERS} members: add another before taking "
            f"{player.name} off, or delete {team.name}."
        )
    member.delete()


@transaction.atomic
def name_captain(*, team: Team, player: Player, by: Player) -> None:
    """Make `player`, one of `team`'s members, its captain (the old captain stays on)."""
    require_organiser(by, team.league.club)
    _hold_league(team.league)
    if not team.members.filter(player=player).exists():
        raise ValidationError(
            f"{player.name} is not on {team.name}: a captain is one of its members."
        )
    team.members.filter(is_captain=True).update(is_captain=False)
    team.members.filter(player=player).update(is_captain=True)


@transaction.atomic
def delete_team(*, team: Team, by: Player) -> None:
    """Delete `team`: its members are free to join another, its line-ups go with it."""
    require_organiser(by, team.league.club)
    _hold_league(team.league)
    team.delete()


def may_set_line_up(team: Team, player: Player) -> bool:
    """Whether `player` sets `team`'s line-ups: its captain, or the club's organisers."""
    if is_organiser(player, team.league.club):
        return True
    return team.members.filter(player=player, is_captain=True).exists()


@transaction.atomic
def set_line_up(*, team: Team, night: LeagueNight, players: Sequence[Player], by: Player) -> LineUp:
    """Who of `team` plays `night`: 1 to the league's team size of its members.

    They are the night's players of that team: they are marked present (and no longer
    away), and its other members are not. Only until the night is seated.
    """
    league = team.league
    if night.season.league_id != league.pk:
        raise ValidationError(f"{team.name} does not play in that night's league.")
    if not may_set_line_up(team, by):
        raise PermissionDenied(
            f"Only {possessive(team.name)} captain or the club's organisers set its line-up."
        )
    hold_season(night.season)
    require_open(night.season)
    if night.tables.exists():
        raise ValidationError(
            "The night is seated: its line-ups are settled (an organiser can change who "
            "plays on the night's page)."
        )
    players = list(dict.fromkeys(players))
    members = {m.player_id: m for m in team.members.all()}
    strangers = [p.name for p in players if p.pk not in members]
    if strangers:
        raise ValidationError(
            f"{get_text_list(strangers, 'and')} {'is' if len(strangers) == 1 else 'are'} "
            f"not on {team.name}."
        )
    if not players:
        raise ValidationError("A line-up needs at least one of the team's members.")
    if len(players) > min(league.team_size, MOST_MEMBERS):
        raise ValidationError(f"A line-up has at most {league.team_size} players.")
    line_up, _ = LineUp.objects.update_or_create(team=team, night=night, defaults={"set_by": by})
    line_up.players.set(players)
    chosen = {p.pk for p in players}
    night.players.remove(*[pk for pk in members if pk not in chosen])
    night.players.add(*players)
    night.absences.filter(player__in=players).exclude(kind=Absence.Kind.BYE).delete()
    return line_up

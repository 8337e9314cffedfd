"""Reads of teams: a league's teams and their members, a player's team and captaincy,
teammates among a set of players, and a night's line-ups."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Prefetch, QuerySet

from ..models import League, LeagueNight, LineUp, Player, Team, TeamMember


def league_teams(league: League) -> QuerySet[Team]:
    """The league's teams by name, their members (captain first) fetched with them."""
    members = TeamMember.objects.select_related("player").order_by(
        "-is_captain", "player__display_name", "player__username"
    )
    return league.teams.prefetch_related(Prefetch("members", queryset=members))


def team_of(league: League, player: Player) -> Team | None:
    """The team `player` is on in `league`, if any."""
    return Team.objects.filter(league=league, members__player=player).first()


def captain_of(team: Team) -> Player | None:
    member = team.members.filter(is_captain=True).select_related("player").first()
    return member.player if member else None


def captained_teams(league: League, player: Player) -> QuerySet[Team]:
    """The teams of `league` that `player` captains (one at most)."""
    return league.teams.filter(members__player=player, members__is_captain=True)


def teammate_pairs(league: League, players: Iterable[Player | int]) -> set[frozenset[int]]:
    """Every pair of `players` (players or their ids) on the same team of `league`, as
    pairs of player ids: those to keep apart at a table."""
    ids = {p if isinstance(p, int) else p.pk for p in players}
    by_team: dict[int, list[int]] = {}
    for team_id, player_id in TeamMember.objects.filter(
        league=league, player_id__in=ids
    ).values_list("team_id", "player_id"):
        by_team.setdefault(team_id, []).append(player_id)
    return {
        frozenset(pair)
        for members in by_team.values()
        for pair in itertools.combinations(sorted(members), 2)
    }


@dataclass
class NightTeam:
    """A team on a night: its members, and its line-up if one is set."""

    team: Team
    members: list[TeamMember]
    line_up: set[int] | None = None
    set_by: Player | None = None
    captain: Player | None = field(default=None)

    @property
    def playing(self) -> list[Player]:
        """The line-up's members, or, with no line-up set, nobody yet."""
        return [m.player for m in self.members if self.line_up and m.player_id in self.line_up]


def night_teams(night: LeagueNight) -> list[NightTeam]:
    """Each team of the night's league with its line-up for the night."""
    line_ups = {
        line_up.team_id: line_up
        for line_up in LineUp.objects.filter(night=night)
        .select_related("set_by")
        .prefetch_related("players")
    }
    views = []
    for team in league_teams(night.season.league):
        members = list(team.members.all())
        line_up = line_ups.get(team.pk)
        views.append(
            NightTeam(
                team=team,
                members=members,
                line_up={p.pk for p in line_up.players.all()} if line_up else None,
                set_by=line_up.set_by if line_up else None,
                captain=next((m.player for m in members if m.is_captain), None),
            )
        )
    return views


def left_out(teams: list[NightTeam]) -> dict[int, str]:
    """The members whom their team's line-up leaves out, by id, with the team's name
    (none of a team without a line-up yet)."""
    return {
        member.player_id: team.team.name
        for team in teams
        if team.line_up is not None
        for member in team.members
        if member.player_id not in team.line_up
    }


def line_up_ids(night: LeagueNight) -> dict[int, set[int]]:
    """Each team's line-up for the night, as player ids, for the teams that set one."""
    ids: dict[int, set[int]] = {}
    for team_id, player_id in LineUp.players.through.objects.filter(
        lineup__night=night
    ).values_list("lineup__team_id", "player_id"):
        ids.setdefault(team_id, set()).add(player_id)
    return ids


def left_out_of_line_up(night: LeagueNight, player: Player) -> Team | None:
    """`player`'s team, if it set a line-up for `night` that leaves them out."""
    team = Team.objects.filter(league_id=night.season.league_id, members__player=player).first()
    if team is None:
        return None
    line_up = LineUp.objects.filter(team=team, night=night).first()
    if line_up is None or line_up.players.filter(pk=player.pk).exists():
        return None
    return team


def is_seated(night: LeagueNight) -> bool:
    """Whether the night has tables: its line-ups are then settled."""
    return night.tables.exists()


def teammates_together(night: LeagueNight) -> list[tuple[int, list[Player]]]:
    """Teammates seated at one table of the night: (table number, the players), for
    the organiser to see what seating could not avoid."""
    league = night.season.league
    if not league.is_team_league:
        return []
    found = []
    for night_table in night.tables.prefetch_related("table__seats__player"):
        seated = [s.player for s in night_table.table.seats.all() if s.player_id]
        pairs = teammate_pairs(league, seated)
        if pairs:
            ids = set().union(*pairs)
            found.append((night_table.number, [p for p in seated if p.pk in ids]))
    return found

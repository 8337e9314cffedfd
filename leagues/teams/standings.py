"""Reads of team standings: each team's score night by night, and a season's team
standings, added up from the cards' stored figures (`CardResult`) beside the individual
standings; a night in play is scored as its screen may see it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import date

from django.db.models import F, QuerySet

from games.models import Scorecard, Table

from ..attendance.selectors import credited_to
from ..handicaps import selectors as handicaps
from ..models import League, LeagueNight, LineUp, Player, Season, Team, TeamMember
from ..standings.models import CardResult
from ..standings.places import place_in_order
from ..standings.scoring import Scoring


def counted_words(league: League) -> str:
    """Whose points make a team's night score, in a few words."""
    if league.counts_best:
        return f"the best {league.team_counted} of its line-up's points"
    return "the sum of its line-up's points"


def team_rule(league: League) -> str:
    """How a team's score and the team standings are worked out, in words."""
    counted = counted_words(league)
    return (
        f"A team's night score is {counted}: the league points each member earned at "
        "their table that night, as the individual standings count them (a team without "
        "a line-up that night counts every member who played). The team standings add up "
        "the nights' scores; teams level on points share a place. Points for nights away "
        "and byes count for the player alone."
    )


@dataclass
class TeamNight:
    """A team's night: each counted member's points, and the score they make."""

    team: Team
    night_id: int
    #: (player, points) of every member who played for the team, best first.
    played: list[tuple[Player, int]] = field(default_factory=list)
    score: int = 0
    #: The players whose points made the score.
    counted: list[Player] = field(default_factory=list)
    #: Its place among the night's teams (`night_team_scores`).
    place: int = 0


@dataclass
class TeamRow:
    """One team's line in a season's team standings."""

    team: Team
    nights: int = 0
    points: int = 0
    place: int = 0
    members: list[Player] = field(default_factory=list)


def team_nights(season: Season, before: date | None = None) -> list[TeamNight]:
    """Each team's score on each night of `season` with finished tables (`before` a
    date: only the nights before it), from the cards' stored figures."""
    league = season.league
    if not league.is_team_league:
        return []
    results = CardResult.objects.filter(night_table__night__season=season, counts_for__isnull=False)
    if before is not None:
        results = results.filter(night_table__night__date__lt=before)
    credited = list(results.values_list("night_table__night_id", "counts_for_id", "points"))
    line_ups = LineUp.players.through.objects.filter(lineup__night__season=season)
    return _teams(league, credited, line_ups)


def night_team_scores(
    night: LeagueNight,
    tables: Collection[int],
    visible: Callable[[Table, int], bool] | None = None,
) -> list[TeamNight]:
    """The night's team scores so far, by the same rule as `team_nights`: every team of
    the league, with the points its members earned at the finished tables among
    `tables` (ids: those a screen may show whole), most points first, teams level
    sharing a place. `visible(table, number)`: the holes that screen may show, so that
    matchpoints compare those alone."""
    league = night.season.league
    if not league.is_team_league:
        return []
    cards = Scorecard.objects.filter(
        table__night_table__night=night,
        table__status=Table.Status.FINISHED,
        table_id__in=list(tables),
        player__isnull=False,
    )
    line_ups = LineUp.players.through.objects.filter(lineup__night=night)
    scored = {t.team.pk: t for t in _scored(league, cards, line_ups, visible)}
    teams = [
        scored.get(team.pk) or TeamNight(team=team, night_id=night.pk)
        for team in league.teams.all()
    ]
    teams.sort(key=lambda t: (-t.score, t.team.name.lower()))
    _place(teams, lambda t: t.score)
    return teams


def _scored(
    league: League,
    cards: QuerySet[Scorecard],
    line_ups: QuerySet,
    visible: Callable[[Table, int], bool] | None = None,
) -> list[TeamNight]:
    """The team night scores that `cards` (finished, people's, of one night) make as
    `visible` lets a screen see them, with the night's line-ups (`line_ups`: rows of
    line-ups' players)."""
    cards = list(
        cards.select_related("player").annotate(night_id=F("table__night_table__night_id"))
    )
    nights = list(LeagueNight.objects.filter(pk__in={card.night_id for card in cards}))
    scoring = Scoring(
        league,
        cards,
        nights,
        visible,
        night_handicaps={night.pk: handicaps.frozen(night) for night in nights},
    )
    credit = credited_to(league, cards)
    credited = [
        (card.night_id, credit[card.pk], scoring.points(card))
        for card in cards
        if credit[card.pk] is not None
    ]
    return _teams(league, credited, line_ups)


def _teams(
    league: League, credited: list[tuple[int, int, int]], line_ups: QuerySet
) -> list[TeamNight]:
    """The team night scores that results make: (night id, whom it counts for, points)
    of each, with the nights' line-ups (`line_ups`: rows of line-ups' players)."""
    team_of = dict(TeamMember.objects.filter(league=league).values_list("player_id", "team_id"))
    # A line-up pins a night's team: a member who changes team later leaves that
    # night's points where they were.
    lined: dict[tuple[int, int], int] = {}
    with_line_up: set[tuple[int, int]] = set()
    for night_id, team_id, player_id in line_ups.values_list(
        "lineup__night_id", "lineup__team_id", "player_id"
    ):
        lined[night_id, player_id] = team_id
        with_line_up.add((night_id, team_id))
    teams = Team.objects.in_bulk(set(team_of.values()) | set(lined.values()))
    people = Player.objects.in_bulk({owner for _night, owner, _points in credited})
    found: dict[tuple[int, int], TeamNight] = {}
    for night_id, owner, points in credited:
        team_id = lined.get((night_id, owner))
        if team_id is None:
            team_id = team_of.get(owner)
            if team_id is None or (night_id, team_id) in with_line_up:
                continue  # on no team, or played outside the team's line-up that night
        key = (night_id, team_id)
        if key not in found:
            found[key] = TeamNight(team=teams[team_id], night_id=night_id)
        found[key].played.append((people[owner], points))
    for team_night in found.values():
        team_night.played.sort(key=lambda pair: (-pair[1], pair[0].name.lower()))
        counted = team_night.played
        if league.counts_best:
            counted = counted[: league.team_counted]
        team_night.score = sum(points for _player, points in counted)
        team_night.counted = [player for player, _points in counted]
    return sorted(found.values(), key=lambda t: (t.night_id, -t.score, t.team.name.lower()))


def team_standings(season: Season, before: date | None = None) -> list[TeamRow]:
    """The season's team standings: every team of the league, most points first, teams
    level on points sharing a place (then by name)."""
    league = season.league
    if not league.is_team_league:
        return []
    rows = {
        team.pk: TeamRow(team=team, members=[m.player for m in team.members.all()])
        for team in league.teams.prefetch_related("members__player")
    }
    for team_night in team_nights(season, before):
        row = rows.get(team_night.team.pk)
        if row is not None:
            row.nights += 1
            row.points += team_night.score
    ordered = sorted(rows.values(), key=lambda r: (-r.points, r.team.name.lower()))
    _place(ordered, lambda r: r.points)
    return ordered


def _place(ordered: Sequence[TeamRow | TeamNight], points: Callable) -> None:
    """Places down `ordered` (most points first): teams level on points share one."""
    for row, place in zip(ordered, place_in_order(ordered, points), strict=True):
        row.place = place


def team_context(season: Season, before: date | None = None) -> dict[str, object]:
    """What a season's page shows of its teams: their standings and how they are made."""
    league = season.league
    if not league.is_team_league:
        return {"team_standings": [], "team_rule": ""}
    return {"team_standings": team_standings(season, before), "team_rule": team_rule(league)}

"""The night's board in a team league: the teams' running scores, by the team
standings' own rule, and none drawn from a hole the room may not see yet."""

from __future__ import annotations

from datetime import date

import pytest

from games.models import Table
from leagues.board import selectors
from leagues.models import League, LeagueNight, Player
from leagues.results.services import enter_night_results
from leagues.teams import services as teams
from leagues.teams.standings import team_nights
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def team_league(count: int, *, score: str = "sum", counted: int = 2, **night_fields):
    """Olive's team league (teams of two: Reds are p0 and p1, Blues p2 and p3, ...) and
    a night of it."""
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{n}", display_name=f"P{n}") for n in range(count)]
    club = make_club(organiser=olive, members=people)
    league = make_league(club)
    teams.set_team_rules(
        league=league, team_size=2, team_score=score, team_counted=counted, by=olive
    )
    names = ["Reds", "Blues", "Greens", "Golds", "Pinks"]
    for index in range(0, count - 1, 2):
        teams.create_team(
            league=league,
            name=names[index // 2],
            members=people[index : index + 2],
            captain=people[index],
            by=olive,
        )
    night = make_night(make_season(league), date(2026, 3, 1), **night_fields)
    return night, olive, people


def team_scores(night: LeagueNight) -> dict[str, tuple[int, int]]:
    """The board's teams: (members whose points are in, points) by name."""
    night = LeagueNight.objects.select_related("season__league").get(pk=night.pk)
    return {line.name: (line.finished, line.points) for line in selectors.night_board(night).teams}


def season_scores(night: LeagueNight) -> dict[str, int]:
    night = LeagueNight.objects.select_related("season__league").get(pk=night.pk)
    return {t.team.name: t.score for t in team_nights(night.season) if t.night_id == night.pk}


def seated(night, tables: list[list[Player]]):
    return [open_table(night, players) for players in tables]


def test_a_team_leagues_board_adds_up_each_finished_tables_points_by_the_leagues_rule(client):
    night, olive, p = team_league(6)
    first, second = seated(night, [[p[0], p[2], p[4]], [p[1], p[3], p[5]]])
    assert team_scores(night) == {"Reds": (0, 0), "Blues": (0, 0), "Greens": (0, 0)}
    enter_night_results(night_table=first, hole_scores=even_holes(20, 30, 40), by=olive)
    # Table 2 is still playing: table 1's places alone count (6, 4, 2 points).
    assert team_scores(night) == {"Reds": (1, 6), "Blues": (1, 4), "Greens": (1, 2)}
    enter_night_results(night_table=second, hole_scores=even_holes(40, 20, 30), by=olive)
    board = team_scores(night)
    assert board == {"Reds": (2, 8), "Blues": (2, 10), "Greens": (2, 6)}
    # The same scores as the team standings count for the night.
    assert {name: points for name, (_in, points) in board.items()} == season_scores(night)
    lines = selectors.night_board(night).teams
    assert [line.name for line in lines] == ["Blues", "Reds", "Greens"]
    html = client.get(_board_url(night, olive)).content.decode()
    assert "Teams tonight" in html and "the sum of its line-up" in html


def test_a_league_counting_the_best_n_shows_that_score():
    night, olive, p = team_league(6, score="best", counted=1)
    first, second = seated(night, [[p[0], p[2], p[4]], [p[1], p[3], p[5]]])
    enter_night_results(night_table=first, hole_scores=even_holes(20, 30, 40), by=olive)
    enter_night_results(night_table=second, hole_scores=even_holes(40, 20, 30), by=olive)
    assert team_scores(night) == {"Reds": (2, 6), "Blues": (2, 6), "Greens": (2, 4)}
    assert {name: pts for name, (_in, pts) in team_scores(night).items()} == season_scores(night)
    assert [line.place for line in selectors.night_board(night).teams] == [1, 1, 3]


def test_a_league_without_teams_shows_none(client):
    olive = make_player("olive")
    people = [make_player(f"p{n}") for n in range(2)]
    night = make_night(make_season(make_league(make_club(organiser=olive, members=people))))
    enter_night_results(
        night_table=open_table(night, people), hole_scores=even_holes(20, 30), by=olive
    )
    assert selectors.night_board(night).teams == ()
    assert "Teams tonight" not in client.get(_board_url(night, olive)).content.decode()


def test_on_a_duplicate_night_a_finished_table_counts_once_every_table_of_its_deals_has():
    night, olive, p = team_league(6, duplicate_deals=True)
    first, second = seated(night, [[p[0], p[2], p[4]], [p[1], p[3], p[5]]])
    Table.objects.filter(pk=second.table_id).update(deal_seed=first.table.deal_seed)
    enter_night_results(night_table=first, hole_scores=even_holes(20, 30, 40), by=olive)
    # Table 2 still has every deal to play: table 1's places would tell of them.
    assert team_scores(night) == {"Reds": (0, 0), "Blues": (0, 0), "Greens": (0, 0)}
    enter_night_results(night_table=second, hole_scores=even_holes(40, 20, 30), by=olive)
    assert team_scores(night) == {"Reds": (2, 8), "Blues": (2, 10), "Greens": (2, 6)}


def test_matchpoints_behind_a_team_score_leave_out_the_holes_still_hidden():
    """Points by matchpoints rank everyone across the night: while the tables of one deal
    wait for a third, their results must not move the others' ranks on the board."""
    night, olive, p = team_league(10, duplicate_deals=True)
    League.objects.filter(pk=night.season.league_id).update(
        night_points=League.NightPoints.MATCHPOINTS
    )
    a1, a2, b1, b2, b3 = seated(
        night, [[p[0], p[2]], [p[1], p[3]], [p[4], p[6]], [p[5], p[7]], [p[8], p[9]]]
    )
    Table.objects.filter(pk=a2.table_id).update(deal_seed=a1.table.deal_seed)
    Table.objects.filter(pk__in=[b2.table_id, b3.table_id]).update(deal_seed=b1.table.deal_seed)
    # Seat by seat, table a1 beats a2 on hole 1 and ties it on the others.
    enter_night_results(night_table=a1, hole_scores=even_holes(20, 22), by=olive)
    enter_night_results(night_table=a2, hole_scores=even_holes(30, 32), by=olive)
    before = team_scores(night)
    assert before["Reds"][1] > 0 and before["Blues"][1] > 0
    # Tables b1 and b2 finish, all square, while b3 has yet to play: hidden.
    square = even_holes(25, 25, playoff=[[3, 4]])
    enter_night_results(night_table=b1, hole_scores=square, by=olive)
    enter_night_results(night_table=b2, hole_scores=square, by=olive)
    assert team_scores(night) == before
    # Once b3 has played, everyone's results count.
    enter_night_results(night_table=b3, hole_scores=square, by=olive)
    after = team_scores(night)
    assert {name: pts for name, (_in, pts) in after.items()} == season_scores(night)
    assert after != before


def _board_url(night: LeagueNight, olive: Player) -> str:
    from leagues.board import services

    return services.create_board(night=night, by=olive).get_absolute_url()

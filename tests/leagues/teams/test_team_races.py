"""Team writes at the same moment on PostgreSQL, in real threads: two teams claiming one
member, and a captain and an organiser setting one line-up at once. Each holds a row
first (the league's, the season's), so they go one after the other: one member on one
team, and one line-up whole, with the night's players agreeing with it."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from leagues.models import LineUp, TeamMember
from leagues.teams import services
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.races import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


@pytest.fixture
def league():
    olive = make_player("olive")
    people = [make_player(f"m{n}", display_name=f"M{n}") for n in range(6)]
    league = make_league(make_club(organiser=olive, members=people))
    services.set_team_rules(league=league, team_size=3, team_score="sum", team_counted=2, by=olive)
    return olive, people, league


def test_two_teams_claiming_one_member_at_once_leave_them_on_one(league):
    olive, (a, b, c, d, e, _), league = league
    results = at_once(
        lambda: services.create_team(
            league=league, name="Eagles", members=[a, b, e], captain=a, by=olive
        ),
        lambda: services.create_team(
            league=league, name="Hawks", members=[c, d, e], captain=c, by=olive
        ),
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), results
    assert "M4 is on" in str(errors[0])
    assert TeamMember.objects.filter(player=e).count() == 1
    assert league.teams.count() == 1


def test_adding_one_member_to_two_teams_at_once_puts_them_on_one(league):
    olive, (a, b, c, d, e, _), league = league
    eagles = services.create_team(league=league, name="Eagles", members=[a, b], captain=a, by=olive)
    hawks = services.create_team(league=league, name="Hawks", members=[c, d], captain=c, by=olive)
    results = at_once(
        lambda: services.add_team_member(team=eagles, player=e, by=olive),
        lambda: services.add_team_member(team=hawks, player=e, by=olive),
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), results
    assert TeamMember.objects.filter(player=e).count() == 1


def test_a_captain_and_an_organiser_setting_a_line_up_at_once_leave_one_whole(league):
    olive, (a, b, c, *_), league = league
    team = services.create_team(
        league=league, name="Eagles", members=[a, b, c], captain=a, by=olive
    )
    night = make_night(make_season(league), date(2026, 3, 1))
    for _ in range(5):  # a few rounds, each a fresh race
        results = at_once(
            lambda: services.set_line_up(team=team, night=night, players=[a, b], by=a),
            lambda: services.set_line_up(team=team, night=night, players=[c], by=olive),
        )
        assert not [r for r in results if isinstance(r, BaseException)], results
        line_up = LineUp.objects.get(team=team, night=night)
        chosen = set(line_up.players.values_list("pk", flat=True))
        assert chosen in ({a.pk, b.pk}, {c.pk})
        # The night's players of the team are the line-up's, never a mix of the two.
        assert set(night.players.values_list("pk", flat=True)) == chosen

"""Team leagues: teams and captains made by the organiser, line-ups set by the captain
until the night is seated, and team scores and standings worked out by hand."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from leagues.checkin.services import check_in
from leagues.models import LineUp, Team, TeamMember
from leagues.seating.services import seat_night
from leagues.teams import services
from leagues.teams.selectors import captain_of, night_teams, team_of, teammate_pairs
from leagues.teams.standings import team_nights, team_rule, team_standings
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


class Club:
    """A club of eight members and a stranger, its team league (teams of up to 3) with a
    season and a night."""

    def __init__(self, team_size: int = 3) -> None:
        self.olive = make_player("olive", display_name="Olive")
        names = ("Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
        self.people = {name: make_player(name.lower(), display_name=name) for name in names}
        self.stranger = make_player("sam", display_name="Sam")
        self.club = make_club("Green Club", organiser=self.olive, members=self.people.values())
        self.league = make_league(self.club)
        services.set_team_rules(
            league=self.league, team_size=team_size, team_score="sum", team_counted=2, by=self.olive
        )
        self.season = make_season(self.league)
        self.night = make_night(self.season, date(2026, 3, 1))

    def __getattr__(self, name: str):
        try:
            return self.__dict__["people"][name.capitalize()]
        except KeyError:
            raise AttributeError(name) from None

    def team(self, name: str, *members, captain=None) -> Team:
        return services.create_team(
            league=self.league,
            name=name,
            members=list(members),
            captain=captain or members[0],
            by=self.olive,
        )


@pytest.fixture
def c() -> Club:
    return Club()


def names(players) -> list[str]:
    return sorted(p.name for p in players)


# --- teams and captains ------------------------------------------------------------------


def test_an_organiser_makes_a_team_with_its_captain(c):
    team = c.team("Eagles", c.ann, c.bea, c.cat, captain=c.bea)
    assert names(m.player for m in team.members.all()) == ["Ann", "Bea", "Cat"]
    assert captain_of(team) == c.bea
    assert team_of(c.league, c.cat) == team and team_of(c.league, c.dan) is None


def test_a_league_without_a_team_size_has_no_teams(c):
    services.set_team_rules(
        league=c.league, team_size=0, team_score="sum", team_counted=2, by=c.olive
    )
    with pytest.raises(ValidationError, match="not a team league"):
        c.team("Eagles", c.ann, c.bea)
    assert not Team.objects.exists()


@pytest.mark.parametrize("count", [1, 4])
def test_a_team_too_small_or_too_large_is_refused_and_nothing_is_made(c, count):
    members = list(c.people.values())[:count]
    with pytest.raises(ValidationError, match=f"has 2 to 3 members, not {count}"):
        c.team("Eagles", *members)
    assert not Team.objects.exists() and not TeamMember.objects.exists()


def test_a_team_of_five_is_refused_in_a_league_of_teams_of_four():
    c = Club(team_size=4)
    with pytest.raises(ValidationError, match="not 5"):
        c.team("Eagles", c.ann, c.bea, c.cat, c.dan, c.eve)
    # Nor may the league's teams grow beyond four.
    with pytest.raises(ValidationError, match="2 to 4 members"):
        services.set_team_rules(
            league=c.league, team_size=5, team_score="sum", team_counted=2, by=c.olive
        )


def test_a_member_on_one_team_cannot_join_another(c):
    eagles = c.team("Eagles", c.ann, c.bea)
    with pytest.raises(ValidationError, match="Bea is on Eagles already"):
        c.team("Hawks", c.bea, c.cat)
    hawks = c.team("Hawks", c.cat, c.dan)
    with pytest.raises(ValidationError, match="Ann is on Eagles already"):
        services.add_team_member(team=hawks, player=c.ann, by=c.olive)
    assert names(m.player for m in eagles.members.all()) == ["Ann", "Bea"]
    assert names(m.player for m in hawks.members.all()) == ["Cat", "Dan"]


def test_a_non_member_of_the_club_cannot_be_on_a_team(c):
    with pytest.raises(ValidationError, match="Sam is not a member of Green Club"):
        c.team("Eagles", c.ann, c.stranger)
    team = c.team("Eagles", c.ann, c.bea)
    with pytest.raises(ValidationError, match="Sam is not a member"):
        services.add_team_member(team=team, player=c.stranger, by=c.olive)
    assert team.members.count() == 2


def test_a_captain_is_one_of_the_team(c):
    with pytest.raises(ValidationError, match="Cat is not on the team"):
        c.team("Eagles", c.ann, c.bea, captain=c.cat)
    team = c.team("Eagles", c.ann, c.bea)
    with pytest.raises(ValidationError, match="Cat is not on Eagles"):
        services.name_captain(team=team, player=c.cat, by=c.olive)
    services.name_captain(team=team, player=c.bea, by=c.olive)
    assert captain_of(team) == c.bea
    assert team.members.filter(is_captain=True).count() == 1


def test_a_team_keeps_two_members_and_its_captain_and_grows_to_its_size(c):
    team = c.team("Eagles", c.ann, c.bea)
    with pytest.raises(ValidationError, match="at least 2 members"):
        services.remove_team_member(team=team, player=c.bea, by=c.olive)
    with pytest.raises(ValidationError, match="Ann captains Eagles"):
        services.remove_team_member(team=team, player=c.ann, by=c.olive)
    services.add_team_member(team=team, player=c.cat, by=c.olive)
    with pytest.raises(ValidationError, match="has 3 members, the most"):
        services.add_team_member(team=team, player=c.dan, by=c.olive)
    services.remove_team_member(team=team, player=c.bea, by=c.olive)
    assert names(m.player for m in team.members.all()) == ["Ann", "Cat"]
    # The team size cannot shrink below a team's members.
    services.add_team_member(team=team, player=c.dan, by=c.olive)
    with pytest.raises(ValidationError, match="has 3 members"):
        services.set_team_rules(
            league=c.league, team_size=2, team_score="sum", team_counted=2, by=c.olive
        )


def test_only_organisers_manage_teams(c):
    with pytest.raises(PermissionDenied):
        services.create_team(
            league=c.league, name="Eagles", members=[c.ann, c.bea], captain=c.ann, by=c.ann
        )
    team = c.team("Eagles", c.ann, c.bea)
    for write in (
        lambda: services.add_team_member(team=team, player=c.cat, by=c.ann),
        lambda: services.name_captain(team=team, player=c.bea, by=c.ann),
        lambda: services.delete_team(team=team, by=c.ann),
        lambda: services.set_team_rules(
            league=c.league, team_size=4, team_score="sum", team_counted=2, by=c.ann
        ),
    ):
        with pytest.raises(PermissionDenied):
            write()
    assert team.members.count() == 2


def test_best_n_counts_at_most_the_team_size(c):
    with pytest.raises(ValidationError, match="best n counts 1 to 3"):
        services.set_team_rules(
            league=c.league, team_size=3, team_score="best", team_counted=4, by=c.olive
        )


def test_teammate_pairs_are_the_pairs_of_the_given_players_on_one_team(c):
    c.team("Eagles", c.ann, c.bea, c.cat)
    c.team("Hawks", c.dan, c.eve)
    pairs = teammate_pairs(c.league, [c.ann, c.bea, c.cat, c.dan, c.eve.pk, c.gus])
    ids = lambda *people: frozenset(p.pk for p in people)  # noqa: E731
    assert pairs == {ids(c.ann, c.bea), ids(c.ann, c.cat), ids(c.bea, c.cat), ids(c.dan, c.eve)}
    assert teammate_pairs(c.league, [c.ann, c.dan, c.gus]) == set()


# --- line-ups ----------------------------------------------------------------------------


def test_a_captain_sets_the_line_up_and_the_night_s_players_follow(c):
    eagles = c.team("Eagles", c.ann, c.bea, c.cat, captain=c.ann)
    c.night.players.set([c.bea, c.cat, c.gus])
    line_up = services.set_line_up(team=eagles, night=c.night, players=[c.ann, c.bea], by=c.ann)
    assert names(line_up.players.all()) == ["Ann", "Bea"]
    # Ann and Bea play, Cat does not; Gus, on no team, stays present.
    assert names(c.night.players.all()) == ["Ann", "Bea", "Gus"]
    # Set again (by the organiser): replaced whole, not added to.
    services.set_line_up(team=eagles, night=c.night, players=[c.cat], by=c.olive)
    assert names(c.night.players.all()) == ["Cat", "Gus"]
    assert LineUp.objects.count() == 1
    [view] = night_teams(c.night)
    assert names(view.playing) == ["Cat"] and view.set_by == c.olive


def test_a_line_up_takes_back_a_member_s_absence(c):
    eagles = c.team("Eagles", c.ann, c.bea)
    c.night.absences.create(player=c.ann, kind="notice")
    services.set_line_up(team=eagles, night=c.night, players=[c.ann], by=c.ann)
    assert not c.night.absences.exists()


def test_only_the_team_s_captain_or_an_organiser_sets_its_line_up(c):
    eagles = c.team("Eagles", c.ann, c.bea, captain=c.ann)
    c.team("Hawks", c.cat, c.dan, captain=c.cat)
    for someone in (c.cat, c.bea, c.gus):  # another team's captain, a teammate, a member
        with pytest.raises(PermissionDenied, match="Eagles' captain"):
            services.set_line_up(team=eagles, night=c.night, players=[c.bea], by=someone)
    assert not LineUp.objects.exists() and not c.night.players.exists()


def test_a_line_up_of_someone_not_on_the_team_changes_nothing(c):
    eagles = c.team("Eagles", c.ann, c.bea)
    services.set_line_up(team=eagles, night=c.night, players=[c.ann], by=c.ann)
    with pytest.raises(ValidationError, match="Cat is not on Eagles"):
        services.set_line_up(team=eagles, night=c.night, players=[c.bea, c.cat], by=c.ann)
    with pytest.raises(ValidationError, match="Sam is not on Eagles"):
        services.set_line_up(team=eagles, night=c.night, players=[c.stranger], by=c.olive)
    with pytest.raises(ValidationError, match="at least one"):
        services.set_line_up(team=eagles, night=c.night, players=[], by=c.ann)
    assert names(LineUp.objects.get().players.all()) == ["Ann"]
    assert names(c.night.players.all()) == ["Ann"]


def test_a_line_up_after_the_seating_is_refused(c):
    eagles = c.team("Eagles", c.ann, c.bea)
    services.set_line_up(team=eagles, night=c.night, players=[c.ann, c.bea], by=c.ann)
    c.night.players.add(c.cat, c.dan)
    seat_night(night=c.night, by=c.olive, seats_per_table=4)
    with pytest.raises(ValidationError, match="The night is seated"):
        services.set_line_up(team=eagles, night=c.night, players=[c.ann], by=c.ann)
    assert names(LineUp.objects.get().players.all()) == ["Ann", "Bea"]


def test_a_team_s_line_up_is_for_its_own_league_s_nights(c):
    eagles = c.team("Eagles", c.ann, c.bea)
    other = make_night(make_season(make_league(c.club)), date(2026, 3, 1))
    with pytest.raises(ValidationError, match="does not play in that night's league"):
        services.set_line_up(team=eagles, night=other, players=[c.ann], by=c.olive)


# --- team scores and standings, worked by hand -------------------------------------------


@pytest.fixture
def two_nights(c):
    """Points per place 6,4,2,0. Eagles: Ann, Bea, Cat; Hawks: Dan, Eve, Fay.

    Night 1 (no line-ups): table 1 Ann 20 (1st, 6), Dan 25 (2nd, 4), Eve 30 (3rd, 2),
    Gus 35 (4th, 0); table 2 Fay 22 (1st, 6), Bea 24 (2nd, 4), Hal 26 (3rd, 2), Cat 40
    (4th, 0). Eagles 6 + 4 + 0 = 10, Hawks 4 + 2 + 6 = 12; best two: 10 and 10.

    Night 2, Eagles' line-up Ann and Bea: table 1 Cat 20 (1st, 6: not in the line-up,
    so not the team's), Bea 28 (2nd, 4), Ann 30 (3rd, 2), Dan 35 (4th, 0); table 2 Eve
    25 (1st, 6), Fay 26 (2nd, 4). Eagles 4 + 2 = 6, Hawks 0 + 6 + 4 = 10; best two: 6
    and 10.
    """
    eagles = c.team("Eagles", c.ann, c.bea, c.cat)
    hawks = c.team("Hawks", c.dan, c.eve, c.fay)
    played_table(c.night, [c.ann, c.dan, c.eve, c.gus], even_holes(20, 25, 30, 35))
    played_table(c.night, [c.fay, c.bea, c.hal, c.cat], even_holes(22, 24, 26, 40))
    second = make_night(c.season, date(2026, 3, 8))
    services.set_line_up(team=eagles, night=second, players=[c.ann, c.bea], by=c.ann)
    played_table(second, [c.cat, c.bea, c.ann, c.dan], even_holes(20, 28, 30, 35))
    played_table(second, [c.eve, c.fay], even_holes(25, 26))
    return eagles, hawks, second


def scores(season):
    return [(t.night_id, t.team.name, t.score, names(t.counted)) for t in team_nights(season)]


def test_a_team_s_night_score_is_the_sum_of_its_line_up_s_points(c, two_nights):
    _, _, second = two_nights
    assert scores(c.season) == [
        (c.night.pk, "Hawks", 12, ["Dan", "Eve", "Fay"]),
        (c.night.pk, "Eagles", 10, ["Ann", "Bea", "Cat"]),
        (second.pk, "Hawks", 10, ["Dan", "Eve", "Fay"]),
        (second.pk, "Eagles", 6, ["Ann", "Bea"]),
    ]
    rows = team_standings(c.season)
    assert [(r.place, r.team.name, r.nights, r.points) for r in rows] == [
        (1, "Hawks", 2, 22),
        (2, "Eagles", 2, 16),
    ]
    assert "the sum of its line-up's points" in team_rule(c.league)


def test_best_n_counts_only_the_best_members_points(c, two_nights):
    _, _, second = two_nights
    services.set_team_rules(
        league=c.league, team_size=3, team_score="best", team_counted=2, by=c.olive
    )
    c.season.league.refresh_from_db()
    assert scores(c.season) == [
        (c.night.pk, "Eagles", 10, ["Ann", "Bea"]),
        (c.night.pk, "Hawks", 10, ["Dan", "Fay"]),
        (second.pk, "Hawks", 10, ["Eve", "Fay"]),
        (second.pk, "Eagles", 6, ["Ann", "Bea"]),
    ]
    rows = team_standings(c.season)
    assert [(r.place, r.team.name, r.points) for r in rows] == [(1, "Hawks", 20), (2, "Eagles", 16)]
    assert "the best 2 of its line-up's points" in team_rule(c.league)


def test_teams_level_on_points_share_a_place_and_a_team_without_results_stands_last(c):
    c.team("Eagles", c.ann, c.bea)
    c.team("Hawks", c.cat, c.dan)
    c.team("Owls", c.eve, c.fay)
    # Ann 1st (6) and Cat 2nd (4) at one table, Dan 1st (6) and Bea 2nd (4) at another.
    played_table(c.night, [c.ann, c.cat], even_holes(20, 30))
    played_table(c.night, [c.dan, c.bea], even_holes(20, 30))
    rows = team_standings(c.season)
    assert [(r.place, r.team.name, r.nights, r.points) for r in rows] == [
        (1, "Eagles", 1, 10),
        (1, "Hawks", 1, 10),
        (3, "Owls", 0, 0),
    ]


def test_a_league_without_teams_has_no_team_standings(c):
    played_table(c.night, [c.ann, c.bea], even_holes(20, 30))
    assert team_standings(c.season) == []


def test_a_member_left_out_of_the_line_up_cannot_check_in_but_one_in_it_can(c):
    eagles = c.team("Eagles", c.ann, c.bea, c.cat)
    today = make_night(make_season(c.league, start=date(2026, 1, 1)), timezone.localdate())
    services.set_line_up(team=eagles, night=today, players=[c.ann, c.bea], by=c.ann)
    with pytest.raises(ValidationError, match="Eagles' line-up tonight leaves you out"):
        check_in(night=today, player=c.cat)
    assert check_in(night=today, player=c.bea).again is False
    assert check_in(night=today, player=c.gus).again is False  # on no team
    assert names(today.players.all()) == ["Ann", "Bea", "Gus"]


def test_a_line_up_keeps_a_night_s_points_with_its_team_when_a_member_moves(c, two_nights):
    eagles, _, second = two_nights
    # Bea leaves the Eagles for a new team with Gus. Night 2's line-up had her for the
    # Eagles: her 4 points there stay theirs. Night 1 had no line-ups: her 4 points
    # go with her, to the Owls (with Gus's 0); the Eagles keep Ann's 6 and Cat's 0.
    services.remove_team_member(team=eagles, player=c.bea, by=c.olive)
    c.team("Owls", c.bea, c.gus)
    assert scores(c.season) == [
        (c.night.pk, "Hawks", 12, ["Dan", "Eve", "Fay"]),
        (c.night.pk, "Eagles", 6, ["Ann", "Cat"]),
        (c.night.pk, "Owls", 4, ["Bea", "Gus"]),
        (second.pk, "Hawks", 10, ["Dan", "Eve", "Fay"]),
        (second.pk, "Eagles", 6, ["Ann", "Bea"]),
    ]
    rows = team_standings(c.season)
    assert [(r.place, r.team.name, r.nights, r.points) for r in rows] == [
        (1, "Hawks", 2, 22),
        (2, "Eagles", 2, 12),
        (3, "Owls", 1, 4),
    ]

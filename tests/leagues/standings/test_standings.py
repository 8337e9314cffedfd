"""Season standings worked out by hand for a small season with ties."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from django.urls import reverse

from games import scorecards
from games.models import Seat, Table
from leagues.standings.selectors import TIE_BREAK_RULE, season_standings
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
    played_table,
)

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def season_with_ties():
    """Two nights, points 6,4,2,0.

    Night 1: Ann 30 beats Bea 40 (table 1); Cat 30 beats Dan 40 (table 2).
    Night 2, one table: Bea 30, Cat 40, Dan 40, Ann 45; Cat and Dan share 2nd place.

    Points: Ann 6+0=6, Bea 4+6=10, Cat 6+4=10, Dan 4+4=8.
    Wins: Ann 1, Bea 1, Cat 1, Dan 0. Strokes over 18 holes: Ann 75, Bea 70, Cat 70, Dan 80.
    Bea and Cat are level on points, wins and strokes per hole: they share 1st.
    Before night 2: Ann and Cat shared 1st, Bea and Dan shared 3rd.
    """
    ann, bea, cat, dan = (
        make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat", "Dan")
    )
    organiser = make_player()
    club = make_club(organiser=organiser, members=[ann, bea, cat, dan])
    season = make_season(make_league(club, points="6,4,2,0"))
    first = make_night(season, date(2026, 3, 1))
    played_table(first, [ann, bea], even_holes(30, 40))
    played_table(first, [cat, dan], even_holes(30, 40))
    second = make_night(season, date(2026, 3, 8))
    played_table(second, [ann, bea, cat, dan], even_holes(45, 30, 40, 40))
    return season, (ann, bea, cat, dan)


def test_standings_points_wins_means_and_shared_places(season_with_ties):
    season, (ann, bea, cat, dan) = season_with_ties
    rows = season_standings(season)
    table = [(r.place, r.player, r.matches, r.holes, r.strokes, r.wins, r.points) for r in rows]
    assert table == [
        (1, bea, 2, 18, 70, 1, 10),
        (1, cat, 2, 18, 70, 1, 10),
        (3, dan, 2, 18, 80, 0, 8),
        (4, ann, 2, 18, 75, 1, 6),
    ]
    assert rows[0].mean == Fraction(70, 18)
    assert rows[0].mean_display == "3.89"


def test_movement_is_measured_against_the_standings_before_the_latest_night(season_with_ties):
    season, (ann, bea, cat, dan) = season_with_ties
    movement = {r.player: r.movement for r in season_standings(season)}
    assert movement == {bea: 2, cat: 0, dan: 0, ann: -3}


def test_a_player_new_on_the_latest_night_is_marked_new(season_with_ties):
    season, players = season_with_ties
    eve = make_player("eve")
    late = make_night(season, date(2026, 3, 15))
    played_table(late, [eve, players[0]], even_holes(30, 31))
    rows = {r.player: r for r in season_standings(season)}
    assert rows[eve].is_new and rows[eve].movement is None
    assert not rows[players[0]].is_new


def test_the_first_night_has_no_movement(season_with_ties):
    season, _ = season_with_ties
    first = season.nights.order_by("date").first()
    other = make_season(season.league)
    night = make_night(other, first.date)
    played_table(night, [make_player(), make_player()], even_holes(30, 31))
    assert all(r.movement is None and not r.is_new for r in season_standings(other))


def test_unfinished_tables_and_other_seasons_do_not_count(season_with_ties):
    season, (ann, bea, cat, dan) = season_with_ties
    night = make_night(season, date(2026, 3, 22))
    open_table(night, [ann, bea])
    other = make_night(make_season(season.league), date(2026, 3, 22))
    played_table(other, [ann, dan], even_holes(20, 50))
    assert {r.player: r.points for r in season_standings(season)}[ann] == 6


def test_bots_are_not_ranked():
    ann = make_player("ann")
    season = make_season(make_league(make_club(members=[ann])))
    night = make_night(season)
    table = Table.objects.create(variant="play-nine", kind=Table.Kind.PAPER, seat_count=2)
    Seat.objects.create(table=table, position=0, player=ann)
    Seat.objects.create(table=table, position=1, bot_level="easy")
    night.tables.create(table=table, number=1)
    scorecards.open_scorecards(table=table)
    scorecards.record_paper_results(table=table, hole_scores=even_holes(40, 30))
    rows = season_standings(season)
    assert [(r.player, r.place, r.points) for r in rows] == [(ann, 1, 4)]


def test_season_page_shows_the_standings_and_states_the_tie_break_rule(client, season_with_ties):
    season, (ann, bea, cat, dan) = season_with_ties
    client.force_login(ann)
    response = client.get(reverse("leagues:season", args=[season.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert TIE_BREAK_RULE in html
    assert html.index("Bea") < html.index("Cat") < html.index("Dan")
    assert "▲2" in html and "▼3" in html
    assert "css/leagues.css" in html

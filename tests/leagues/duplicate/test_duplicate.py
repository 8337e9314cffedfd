"""Duplicate nights: deals compared seat by seat, matchpoints and the points they earn,
and deal sheets for tables played on paper. The figures are worked out by hand."""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

from games import lobby, scorecards
from games import selectors as game_selectors
from games import services as game_services
from games.engine import card_text
from games.models import Hole, Seat, Table
from leagues.deal_results import hidden_scorecards
from leagues.duplicate import matchpoints, sheets
from leagues.models import League, NightTable
from leagues.players.selectors import player_record
from leagues.results.services import enter_night_results
from leagues.seating.services import SeatingError, seat_night
from leagues.standings.selectors import points_rule, season_standings
from tests import driving
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    settle,
)
from tests.games.helpers import act_until_finished
from tests.test_content_security_policy import INLINE

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

SEED = 4242

# Strokes by hole (rows) and seat (columns) at each table of three.
# Seat 1 (Ann, Dan, Gus): hole 1 3/5/5, every other hole 2 at each table.
# Seat 2 (Bea, Eve, Hal): hole 2 10/0/6, hole 4 1/1/3, every other hole 4 (hole 1) or 3.
# Seat 3 (Cat, Fay, Ivy): hole 3 -5/7/12, hole 1 6 at each table, every other hole 4.
TABLE_1 = [[3, 4, 6], [2, 10, 4], [2, 3, -5], [2, 1, 4], *[[2, 3, 4]] * 5]
TABLE_2 = [[5, 4, 6], [2, 0, 4], [2, 3, 7], [2, 1, 4], *[[2, 3, 4]] * 5]
TABLE_3 = [[5, 4, 6], [2, 6, 4], [2, 3, 12], [2, 3, 4], *[[2, 3, 4]] * 5]

# Matchpoints (2 per player in the same seat who took more, 1 per tie), 4 at most a
# deal, 36 over nine deals:
#   Ann: hole 1 beats Dan and Gus 4, eight ties 16 -> 20   Dan, Gus: 1 + 16 -> 17
#   Bea: hole 1 2, hole 2 0, hole 4 (ties Eve, beats Hal) 3, six ties 12 -> 17
#   Eve: 2 + 4 + 3 + 12 -> 21                          Hal: 2 + 2 + 0 + 12 -> 16
#   Cat: hole 3 4, eight ties 16 -> 20   Fay: 2 + 16 -> 18   Ivy: 0 + 16 -> 16
MATCHPOINTS = {
    "Eve": 21,
    "Ann": 20,
    "Cat": 20,
    "Fay": 18,
    "Bea": 17,
    "Dan": 17,
    "Gus": 17,
    "Hal": 16,
    "Ivy": 16,
}
# Across the night: Eve 1st; Ann and Cat share 2nd; Fay 4th; Bea, Dan and Gus share
# 5th; Hal and Ivy share 8th. With points 10,8,6,5,4,3,2,1 by those places:
NIGHT_PLACES = {
    "Eve": (1, 10),
    "Ann": (2, 8),
    "Cat": (2, 8),
    "Fay": (4, 5),
    "Bea": (5, 4),
    "Dan": (5, 4),
    "Gus": (5, 4),
    "Hal": (8, 1),
    "Ivy": (8, 1),
}
# At the tables: totals Ann 19, Cat 29, Bea 33; Dan 21, Eve 23, Fay 41; Gus 21,
# Hal 31, Ivy 46. So by place: Ann, Dan, Gus 10; Cat, Eve, Hal 8; Bea, Fay, Ivy 6.
TABLE_PLACES = {
    "Ann": 10, "Dan": 10, "Gus": 10, "Cat": 8, "Eve": 8, "Hal": 8, "Bea": 6, "Fay": 6, "Ivy": 6,
}  # fmt: skip


def _live_table(night, players, holes, number):
    """A finished live table sharing the night's deals, its holes' strokes on the cards."""
    table = Table.objects.create(
        variant="play-nine",
        kind=Table.Kind.LIVE,
        status=Table.Status.FINISHED,
        seat_count=len(players),
        deal_seed=SEED,
        is_public=False,
    )
    for position, player in enumerate(players):
        Seat.objects.create(table=table, position=position, player=player)
    scorecards.open_scorecards(table=table)
    for hole, strokes in enumerate(holes, start=1):
        driving.record_hole(table=table, number=hole, strokes=dict(enumerate(strokes)))
    return NightTable.objects.create(night=night, table=table, number=number)


def _paper_table(night, players, holes, number):
    table = driving.record_paper_match(
        variant="play-nine", players=players, hole_scores=holes, deal_seed=SEED
    )
    return NightTable.objects.create(night=night, table=table, number=number)


@pytest.fixture
def three_tables():
    """A duplicate night: two live tables and one on paper, three seats each, one deal."""
    names = ["Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
    people = {name: make_player(name.lower(), display_name=name) for name in names}
    organiser = make_player("olive", display_name="Olive")
    club = make_club(organiser=organiser, members=people.values())
    league = make_league(club, points="10,8,6,5,4,3,2,1")
    season = make_season(league)
    night = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    p = [people[name] for name in names]
    _live_table(night, p[0:3], TABLE_1, 1)
    _live_table(night, p[3:6], TABLE_2, 2)
    _paper_table(night, p[6:9], TABLE_3, 3)
    settle(night)
    return league, season, night, people, organiser


def test_a_deal_scores_two_per_worse_result_and_one_per_tie():
    assert matchpoints.score_deal([3, 5, 5]) == [4, 1, 1]
    assert matchpoints.score_deal([10, 0, 6]) == [0, 4, 2]
    assert matchpoints.score_deal([1, 1, 3]) == [3, 3, 0]
    assert matchpoints.score_deal([4]) == [0]


def test_the_night_is_compared_seat_by_seat_with_matchpoints(three_tables):
    _league, _season, night, _people, _organiser = three_tables
    comparison = matchpoints.compare(night)
    (group,) = comparison.groups
    assert group.seats == 3
    traveller = group.holes[2]
    assert [[e.strokes for e in row.entries] for row in traveller.rows] == [
        [2, 10, 4],
        [2, 0, 4],
        [2, 6, 4],
    ]
    seat_2 = traveller.deals[1]
    assert [(e.card.name, e.matchpoints, e.on_paper) for e in seat_2.entries] == [
        ("Bea", 0, False),
        ("Eve", 4, False),
        ("Hal", 2, True),
    ]
    assert seat_2.top == 4
    results = {r.card.name: r for r in comparison.results}
    assert {name: r.matchpoints for name, r in results.items()} == MATCHPOINTS
    assert {r.available for r in results.values()} == {36}
    assert results["Eve"].percentage == Fraction(2100, 36)
    assert results["Eve"].percentage_display == "58.33%"
    assert results["Hal"].percentage_display == "44.44%"
    assert {name: (r.place, r.points) for name, r in results.items()} == NIGHT_PLACES
    assert [r.card.name for r in comparison.results][:3] == ["Eve", "Ann", "Cat"]


def test_a_league_by_places_keeps_places_at_the_table(three_tables):
    league, season, _night, _people, _organiser = three_tables
    rows = season_standings(season)
    assert {row.player.name: row.points for row in rows} == TABLE_PLACES
    assert points_rule(league) == (
        "Points per place: 10,8,6,5,4,3,2,1. A night earns points by place at the table."
    )


def test_a_league_by_matchpoints_ranks_the_night_by_percentage(three_tables):
    league, season, _night, people, _organiser = three_tables
    league.night_points = League.NightPoints.MATCHPOINTS
    league.save()
    rows = season_standings(season)
    assert {row.player.name: row.points for row in rows} == {
        name: points for name, (_place, points) in NIGHT_PLACES.items()
    }
    assert [row.player.name for row in rows][:1] == ["Eve"]
    # Wins stay the places at the table.
    assert {row.player.name for row in rows if row.wins} == {"Ann", "Dan", "Gus"}
    record = player_record(league, people["Fay"])
    assert [line.points for line in record.matches] == [5]
    assert "by matchpoint percentage, ranked across the night" in points_rule(league)


def test_a_night_without_duplicate_deals_keeps_places_in_a_matchpoint_league(three_tables):
    league, season, night, _people, _organiser = three_tables
    league.night_points = League.NightPoints.MATCHPOINTS
    league.save()
    night.duplicate_deals = False
    night.save()
    settle(night)
    assert {row.player.name: row.points for row in season_standings(season)} == TABLE_PLACES


def test_the_standings_count_finished_tables_only(three_tables):
    league, season, night, _people, _organiser = three_tables
    league.night_points = League.NightPoints.MATCHPOINTS
    league.save()
    Table.objects.filter(night_table__number=3).update(status=Table.Status.PLAYING)
    settle(night)
    # Tables 1 and 2 alone: 2 at most a deal, 18 a night.
    # Ann: hole 1 beats Dan 2, eight ties 8 -> 10; Dan 8. Bea: 1 + 0 + 1 + 6 = 8;
    # Eve: 1 + 2 + 1 + 6 = 10. Cat: hole 3 2, eight ties 8 -> 10; Fay 8.
    # Ann, Cat and Eve share 1st (10 points); Bea, Dan and Fay share 4th (5 points).
    points = {row.player.name: row.points for row in season_standings(season)}
    assert points == {"Ann": 10, "Cat": 10, "Eve": 10, "Bea": 5, "Dan": 5, "Fay": 5}


def test_the_deal_comparison_page_marks_paper_tables(client, three_tables):
    _league, _season, night, people, _organiser = three_tables
    client.force_login(people["Ann"])
    response = client.get(reverse("leagues:night_deals", args=[night.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="hole-9"' in page
    assert "played on paper" in page
    assert "58.33%" in page
    # Ann played live table 1: its replays are hers to open, table 2's are not.
    table_1 = night.tables.get(number=1).table_id
    table_2 = night.tables.get(number=2).table_id
    assert reverse("games:replay", args=[table_1, 3]) in page
    assert reverse("games:replay", args=[table_2, 3]) not in page
    night_page = client.get(night.get_absolute_url()).content.decode()
    assert reverse("leagues:night_deals", args=[night.pk]) + "#hole-4" in night_page


def test_the_comparison_waits_for_a_players_own_table(client, three_tables):
    _league, _season, night, people, _organiser = three_tables
    Table.objects.filter(night_table__number=2).update(status=Table.Status.PLAYING)
    client.force_login(people["Eve"])
    page = client.get(reverse("leagues:night_deals", args=[night.pk])).content.decode()
    assert "Your table (table 2) has not finished" in page
    assert "Hole 1" not in page
    # An abandoned table is played no more: nothing is left to hide.
    Table.objects.filter(night_table__number=2).update(status=Table.Status.ABANDONED)
    page = client.get(reverse("leagues:night_deals", args=[night.pk])).content.decode()
    assert 'id="hole-1"' in page


def test_the_comparison_is_for_members_and_duplicate_nights(client, three_tables):
    _league, _season, night, _people, _organiser = three_tables
    client.force_login(make_player("stranger"))
    assert client.get(reverse("leagues:night_deals", args=[night.pk])).status_code == 404
    night.duplicate_deals = False
    night.save()
    client.force_login(_organiser)
    assert client.get(reverse("leagues:night_deals", args=[night.pk])).status_code == 404


def test_a_paper_table_is_dealt_the_courses_a_live_table_plays(client):
    """Seated live with one paper table: the paper table's sheet shows hole 1 as the live
    table dealt it, seat by seat, and the same first discard."""
    organiser = make_player("olive")
    players = [make_player(f"p{n}", display_name=f"P{n}") for n in range(6)]
    club = make_club(organiser=organiser, members=players)
    season = make_season(make_league(club))
    night = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    night.players.set(players)
    live, paper = seat_night(
        night=night, by=organiser, seats_per_table=3, kind=Table.Kind.LIVE, paper_tables=1
    )
    assert (live.table.kind, paper.table.kind) == (Table.Kind.LIVE, Table.Kind.PAPER)
    assert live.table.deal_seed == paper.table.deal_seed
    lobby.start_match(table=live.table, by=organiser)
    dealt = Hole.objects.get(table=live.table, number=1)
    sheet = sheets.deal_sheet(paper)
    assert len(sheet) == 9
    first = sheet[0]
    assert [[c for row in seat.rows for c in row] for seat in first.seats] == [
        [str(card) for card in layout] for layout in dealt.state["layouts"]
    ]
    assert first.first_discard == str(dealt.state["discard_pile"][-1])
    assert [seat.is_dealer for seat in first.seats].index(True) == dealt.dealer
    assert [seat.position for seat in sheet[1].seats if seat.is_dealer] == [(dealt.dealer + 1) % 3]

    client.force_login(organiser)
    response = client.get(reverse("leagues:deal_sheet", args=[paper.pk]))
    assert response.status_code == 200
    assert "First discard" in response.content.decode()
    # A live table has no deal sheet; a member may not print one.
    assert client.get(reverse("leagues:deal_sheet", args=[live.pk])).status_code == 404
    client.force_login(players[0])
    assert client.get(reverse("leagues:deal_sheet", args=[paper.pk])).status_code == 403


def test_an_organiser_playing_the_deals_live_cannot_print_their_sheet(client, three_tables):
    _league, _season, night, people, organiser = three_tables
    live = night.tables.get(number=1).table
    live.status = Table.Status.PLAYING
    live.save()
    Seat.objects.filter(table=live, position=0).update(player=organiser)
    paper = night.tables.get(number=3)
    Table.objects.filter(pk=paper.table_id).update(status=Table.Status.PLAYING)
    client.force_login(organiser)
    response = client.get(reverse("leagues:deal_sheet", args=[paper.pk]))
    assert response.status_code == 403
    # Once the live table has finished, the sheet opens.
    Table.objects.filter(pk=live.pk).update(status=Table.Status.FINISHED)
    assert client.get(reverse("leagues:deal_sheet", args=[paper.pk])).status_code == 200


def test_asking_for_more_paper_tables_than_tables_is_refused_and_seats_nobody():
    organiser = make_player("olive")
    players = [make_player(f"r{n}") for n in range(6)]
    club = make_club(organiser=organiser, members=players)
    season = make_season(make_league(club))
    night = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    night.players.set(players)
    with pytest.raises(SeatingError, match="6 players make 2 tables: 3 cannot"):
        seat_night(
            night=night, by=organiser, seats_per_table=3, kind=Table.Kind.LIVE, paper_tables=3
        )
    assert not night.tables.exists()


def test_the_season_page_shows_the_rule_under_the_standings(client, three_tables):
    league, season, night, people, _organiser = three_tables
    league.night_points = League.NightPoints.MATCHPOINTS
    league.save()
    client.force_login(people["Ann"])
    page = client.get(season.get_absolute_url()).content.decode()
    assert "ranked across the night" in page
    assert reverse("leagues:night_deals", args=[night.pk]) in page
    assert "2 matchpoints for each player in the same seat" in page


def test_an_organiser_chooses_matchpoints_for_a_new_league_and_nonsense_is_refused(client):
    organiser = make_player("olive")
    club = make_club(organiser=organiser)
    client.force_login(organiser)
    url = reverse("leagues:league_create", args=[club.slug])
    form = {"name": "Tuesday", "variant": "play-nine", "points_per_place": "6,4,2,0"}
    response = client.post(url, {**form, "night_points": "coin-toss"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not club.leagues.exists()
    client.post(url, {**form, "night_points": "matchpoints"})
    assert club.leagues.get().night_points == League.NightPoints.MATCHPOINTS


def test_a_table_with_no_other_of_its_size_earns_points_by_place(client, three_tables):
    """Jo and Kim play a table of two with deals of their own: Jo 20 beats Kim 30, so by
    place at the table Jo earns 10 and Kim 8; the nine players compared keep theirs."""
    league, season, night, _people, organiser = three_tables
    league.night_points = League.NightPoints.MATCHPOINTS
    league.save()
    jo, kim = make_player("jo", display_name="Jo"), make_player("kim", display_name="Kim")
    table = driving.record_paper_match(
        variant="play-nine", players=[jo, kim], hole_scores=even_holes(20, 30), deal_seed=7
    )
    NightTable.objects.create(night=night, table=table, number=4)
    settle(night)
    points = {row.player.name: row.points for row in season_standings(season)}
    assert points == {
        "Jo": 10,
        "Kim": 8,
        **{name: points for name, (_place, points) in NIGHT_PLACES.items()},
    }
    client.force_login(organiser)
    page = client.get(reverse("leagues:night_deals", args=[night.pk])).content.decode()
    assert "No other table played the deals of table 4" in page


def play_out(table: Table, host) -> None:
    """Start a live table and let bots play every seat to the end of the match.

    A server's driver may act for the same table meanwhile: its version then wins.
    """
    lobby.start_match(table=table, by=host)
    for seat in table.seats.all():
        game_services.leave_match(table=table, player=seat.player)
    act_until_finished(table, timezone.now() + timedelta(days=1))


def test_live_tables_played_out_deal_what_the_paper_tables_sheet_says():
    """Two live tables played to the end by bots deal, hole after hole, the courses and
    first discard of the paper table's sheet; the three tables are then compared."""
    organiser = make_player("olive")
    players = [make_player(f"s{n}", display_name=f"S{n}") for n in range(9)]
    club = make_club(organiser=organiser, members=players)
    season = make_season(make_league(club))
    night = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    night.players.set(players)
    first, second, paper = seat_night(
        night=night, by=organiser, seats_per_table=3, kind=Table.Kind.LIVE, paper_tables=1
    )
    play_out(first.table, organiser)
    play_out(second.table, organiser)
    sheet = sheets.deal_sheet(paper)
    for live in (first, second):
        for hole in live.table.holes.filter(number__lte=9).order_by("number"):
            dealt, _move = game_selectors.replay_states(hole)[0]
            expected = sheet[hole.number - 1]
            assert [[c for row in s.rows for c in row] for s in expected.seats] == [
                [card_text("play-nine", card) for card in layout] for layout in dealt.layouts
            ]
            assert expected.first_discard == card_text("play-nine", dealt.discard_pile[-1])
    enter_night_results(night_table=paper, hole_scores=even_holes(20, 25, 30), by=organiser)
    comparison = matchpoints.compare(night)
    (group,) = comparison.groups
    assert [nt.number for nt in group.night_tables] == [1, 2, 3]
    assert len(comparison.results) == 9
    assert {r.available for r in comparison.results} == {36}
    assert sum(r.matchpoints for r in comparison.results) == 9 * 36 // 2


def test_the_comparison_and_the_deal_sheet_need_no_inline_script_or_style(client, three_tables):
    _league, _season, night, _people, organiser = three_tables
    paper = night.tables.get(number=3)
    Table.objects.filter(pk=paper.table_id).update(status=Table.Status.PLAYING)
    client.force_login(organiser)
    for url in (
        reverse("leagues:night_deals", args=[night.pk]),
        reverse("leagues:deal_sheet", args=[paper.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert not INLINE.findall(response.content.decode()), url


def test_nonsense_seating_and_another_club_s_sheet_are_refused(client, three_tables):
    _league, _season, night, _people, _organiser = three_tables
    paper = night.tables.get(number=3)
    # An organiser of another club does not learn this club's sheet exists.
    other = make_player("otto")
    make_club(organiser=other)
    client.force_login(other)
    assert client.get(reverse("leagues:deal_sheet", args=[paper.pk])).status_code == 404

    organiser = make_player("opal")
    players = [make_player(f"t{n}") for n in range(4)]
    club = make_club(organiser=organiser, members=players)
    fresh = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=True)
    fresh.players.set(players)
    client.force_login(organiser)
    url = reverse("leagues:night_seat", args=[fresh.pk])
    form = {"method": "random", "seats_per_table": "2", "kind": "live"}
    for paper_tables, message in (
        ("-1", "greater than or equal to 0"),
        ("many", "Enter a whole number"),
        ("3", "4 players make 2 tables: 3 cannot be played on paper."),
    ):
        response = client.post(url, {**form, "paper_tables": paper_tables})
        assert response.status_code == 400
        assert message in response.content.decode()
    assert not fresh.tables.exists()


def test_a_duplicate_nights_replay_links_to_the_hole_at_every_table(client):
    """A hole's replay at a duplicate night's table leads to that hole's comparison; a
    replay of another night's table has no such link."""
    organiser = make_player("olive")
    players = [make_player(f"r{n}", display_name=f"R{n}") for n in range(4)]
    club = make_club(organiser=organiser, members=players)
    season = make_season(make_league(club, variant="golf-6"))
    duplicate_night = make_night(season, date(2026, 3, 1), duplicate_deals=True)
    plain_night = make_night(season, date(2026, 3, 8))
    tables = {}
    for night in (duplicate_night, plain_night):
        night.players.set(players)
        first, _second = seat_night(
            night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE
        )
        play_out(first.table, organiser)
        tables[night] = first.table
    comparison = reverse("leagues:night_deals", args=[duplicate_night.pk])
    seated = tables[duplicate_night].seats.first().player
    for user in (seated, organiser):
        client.force_login(user)
        page = client.get(reverse("games:replay", args=[tables[duplicate_night].pk, 4]))
        assert f'href="{comparison}#hole-4">Hole 4 at every table</a>' in page.content.decode()
    page = client.get(reverse("games:replay", args=[tables[plain_night].pk, 4]))
    assert page.status_code == 200
    assert "at every table" not in page.content.decode()


def test_a_players_figures_leave_out_a_deal_the_viewer_is_still_to_play(three_tables):
    """Ann's figures over every match are kept summed; seen by Eve while her table of the
    same deal plays on, Ann's match at it is taken out of them, and only until then."""
    league, _season, _night, people, _organiser = three_tables
    ann, eve = people["Ann"], people["Eve"]
    record = player_record(league, ann, leave_out=hidden_scorecards(eve))
    assert (record.played, record.match_strokes, record.spread) == (1, 19, [(2, 8), (3, 1)])
    assert record.wins == 1

    Table.objects.filter(night_table__number=2).update(status=Table.Status.PLAYING)
    record = player_record(league, ann, leave_out=hidden_scorecards(eve))
    assert (record.played, record.wins, record.match_strokes) == (0, 0, 0)
    assert (record.spread, record.matches, record.mean_per_hole) == ([], [], None)
    # Others still see it whole.
    seen = player_record(league, ann, leave_out=hidden_scorecards(people["Bea"]))
    assert (seen.played, seen.match_strokes, seen.spread) == (1, 19, [(2, 8), (3, 1)])

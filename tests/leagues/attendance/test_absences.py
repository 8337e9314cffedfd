"""Absences, substitutes, byes and seats the bot finished, worked out by hand."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from games import lobby
from games import services as game_services
from games.engine.bots import BOT_LEVELS
from games.models import Scorecard, Seat, Table
from leagues.attendance import services as attendance
from leagues.attendance.selectors import absence_rule
from leagues.models import Absence, League, Substitute
from leagues.players.selectors import player_record
from leagues.seating.services import SeatingError, seat_night
from leagues.standings.selectors import season_standings
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)
from tests.games.helpers import act_until_finished

pytestmark = pytest.mark.django_db

POINTS = "6,3,1,0"


def _people(*names):
    return [make_player(name.lower(), display_name=name) for name in names]


@pytest.fixture
def away_season():
    """Three nights of four members, one away each night; points 6,3,1,0.

    Night 1: Ann 30, Bea 40, Cat 50 -> 6, 3, 1. Dan away, with notice.
    Night 2: Bea 30, Dan 40, Ann 50 -> 6, 3, 1. Cat away, without notice.
    Night 3: Ann 30, Cat 40, Dan 50 -> 6, 3, 1. Bea away, with notice.

    Played: Ann 13 over 3 nights; Bea 9 over 2 (average 4.5, rounded up to 5);
    Cat 4 over 2 (average 2); Dan 4 over 2 (average 2).
    """
    ann, bea, cat, dan = _people("Ann", "Bea", "Cat", "Dan")
    organiser = make_player("olive")
    club = make_club(organiser=organiser, members=[ann, bea, cat, dan])
    league = make_league(club, points=POINTS)
    season = make_season(league)
    nights = [make_night(season, date(2026, 3, day)) for day in (1, 8, 15)]
    for night, seated, away, notice in (
        (nights[0], [ann, bea, cat], dan, True),
        (nights[1], [bea, dan, ann], cat, False),
        (nights[2], [ann, cat, dan], bea, True),
    ):
        attendance.mark_absent(night=night, player=away, notice=notice, by=organiser)
        played_table(night, seated, even_holes(30, 40, 50))
    return league, season, (ann, bea, cat, dan)


def _points(season):
    return {row.player.name: row.points for row in season_standings(season)}


def _set(league, **rules):
    for name, value in rules.items():
        setattr(league, name, value)
    league.save()


def test_an_absence_earns_nothing(away_season):
    league, season, _people = away_season
    _set(league, absence_points=League.Missed.NOTHING)
    assert _points(season) == {"Ann": 13, "Bea": 9, "Cat": 4, "Dan": 4}
    rows = {row.player.name: row for row in season_standings(season)}
    assert (rows["Dan"].absences, rows["Dan"].missed_points, rows["Dan"].matches) == (1, 0, 2)
    assert "An absence earns nothing." in absence_rule(league)


def test_an_absence_with_notice_earns_the_fixed_points(away_season):
    league, season, _people = away_season
    _set(league, absence_points=League.Missed.FIXED, absence_fixed_points=3)
    # Bea 9 + 3, Dan 4 + 3; Cat was away without notice: nothing.
    assert _points(season) == {"Ann": 13, "Bea": 12, "Cat": 4, "Dan": 7}
    assert "An absence with notice earns 3 points; one without notice, nothing." in (
        absence_rule(league)
    )


def test_without_the_notice_rule_every_absence_earns_the_fixed_points(away_season):
    league, season, _people = away_season
    _set(
        league,
        absence_points=League.Missed.FIXED,
        absence_fixed_points=3,
        absence_needs_notice=False,
    )
    assert _points(season) == {"Ann": 13, "Bea": 12, "Cat": 7, "Dan": 7}


def test_an_absence_earns_the_season_average_rounded_halves_up(away_season):
    league, season, _people = away_season
    _set(league, absence_points=League.Missed.AVERAGE, absence_needs_notice=False)
    # Bea 9 + 5 (4.5 rounded up), Cat 4 + 2, Dan 4 + 2.
    assert _points(season) == {"Ann": 13, "Bea": 14, "Cat": 6, "Dan": 6}
    assert "average points per night played this season" in absence_rule(league)


def test_an_absence_counts_once_its_night_has_results(away_season):
    league, season, (ann, *_rest) = away_season
    _set(league, absence_points=League.Missed.FIXED, absence_fixed_points=3)
    organiser = league.club.memberships.get(role="organiser").player
    later = make_night(season, date(2026, 3, 22))
    attendance.mark_absent(night=later, player=ann, notice=True, by=organiser)
    assert _points(season)["Ann"] == 13  # the night is still to come


@pytest.fixture
def substitute_night():
    """Eve plays for Dan, who is away: Eve 30, Ann 40, Bea 50 -> 6, 3, 1 (points 6,3,1,0)."""
    ann, bea, dan, eve = _people("Ann", "Bea", "Dan", "Eve")
    organiser = make_player("olive")
    club = make_club(organiser=organiser, members=[ann, bea, dan, eve])
    league = make_league(club, points=POINTS)
    season = make_season(league)
    night = make_night(season)
    night.players.set([ann, bea, dan])
    attendance.set_substitute(night=night, member=dan, player=eve, by=organiser)
    assert set(night.players.all()) == {ann, bea, eve}
    played_table(night, [eve, ann, bea], even_holes(30, 40, 50))
    return league, season


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        # Dan takes Eve's win: 1 match, 30 strokes, 1 win, 6 points.
        (League.SubstituteCounts.MEMBER, {"Dan": (1, 30, 1, 6), "Ann": (1, 40, 0, 3)}),
        (League.SubstituteCounts.SUBSTITUTE, {"Eve": (1, 30, 1, 6), "Ann": (1, 40, 0, 3)}),
        # Only for the table: Ann stays second there, with 3 points; nobody has Eve's 6.
        (League.SubstituteCounts.TABLE, {"Ann": (1, 40, 0, 3)}),
    ],
)
def test_a_substitutes_result_counts_as_the_league_says(substitute_night, rule, expected):
    league, season = substitute_night
    _set(league, substitute_counts=rule)
    rows = {
        r.player.name: (r.matches, r.strokes, r.wins, r.points) for r in season_standings(season)
    }
    assert rows == {**expected, "Bea": (1, 50, 0, 1)}


@pytest.mark.parametrize(
    ("rule", "dan"),
    [
        (League.SubstituteCounts.MEMBER, 6),
        (League.SubstituteCounts.SUBSTITUTE, None),
        (League.SubstituteCounts.TABLE, None),
    ],
)
def test_a_guest_plays_the_members_own_seat(rule, dan):
    """Gus, a guest, plays Dan's seat: Dan's card 30, Ann 40 -> 6, 3."""
    ann, dan_ = _people("Ann", "Dan")
    organiser = make_player("olive")
    league = make_league(make_club(organiser=organiser, members=[ann, dan_]), points=POINTS)
    _set(league, substitute_counts=rule)
    season = make_season(league)
    night = make_night(season)
    night.players.set([ann])
    sub = attendance.set_substitute(night=night, member=dan_, guest_name="  Gus  ", by=organiser)
    assert sub.name == "Gus (guest)" and dan_ in night.players.all()
    played_table(night, [dan_, ann], even_holes(30, 40))
    points = _points(season)
    assert points.get("Dan") == dan and points["Ann"] == 3


def test_bad_absences_and_substitutes_are_refused_and_change_nothing(substitute_night):
    league, season = substitute_night
    night = season.nights.get()
    organiser = league.club.memberships.get(role="organiser").player
    ann, dan, eve = (league.club.members.get(username=n) for n in ("ann", "dan", "eve"))
    stranger = make_player("sam")
    before = (set(night.players.all()), Absence.objects.count(), Substitute.objects.count())
    with pytest.raises(ValidationError, match="sam is not a member"):
        attendance.mark_absent(night=night, player=stranger, notice=True, by=organiser)
    with pytest.raises(ValidationError, match="Ann is seated at table 1"):
        attendance.mark_absent(night=night, player=ann, notice=True, by=organiser)
    with pytest.raises(ValidationError, match="Dan has a substitute tonight already"):
        attendance.set_substitute(night=night, member=dan, guest_name="Gus", by=organiser)
    with pytest.raises(ValidationError, match="Name one substitute"):
        attendance.set_substitute(
            night=night, member=ann, player=eve, guest_name="Gus", by=organiser
        )
    with pytest.raises(ValidationError, match="cannot stand in for themselves"):
        attendance.set_substitute(night=night, member=eve, player=eve, by=organiser)
    with pytest.raises(PermissionDenied):
        attendance.mark_absent(night=night, player=dan, notice=True, by=ann)
    after = (set(night.players.all()), Absence.objects.count(), Substitute.objects.count())
    assert after == before


def test_marking_present_takes_an_absence_back(away_season):
    league, season, (ann, bea, cat, dan) = away_season
    organiser = league.club.memberships.get(role="organiser").player
    night = make_night(season, date(2026, 3, 22))
    attendance.mark_absent(night=night, player=dan, notice=False, by=organiser)
    assert dan not in night.players.all()
    attendance.set_night_players(night=night, players=[ann, dan], by=organiser)
    assert not night.absences.exists()


# --- Byes -------------------------------------------------------------------------------


@pytest.fixture
def five_members():
    people = _people("Ann", "Bea", "Cat", "Dan", "Eve")
    organiser = make_player("olive")
    league = make_league(make_club(organiser=organiser, members=people), points=POINTS)
    return league, make_season(league), people, organiser


def test_full_tables_leave_the_players_over_with_a_bye(five_members):
    league, season, people, organiser = five_members
    night = make_night(season)
    night.players.set(people)
    tables = seat_night(
        night=night, by=organiser, seats_per_table=4, byes=True, rng=random.Random(1)
    )
    seated = {seat.player for seat in Seat.objects.filter(table=tables[0].table)}
    (bye,) = night.absences.all()
    assert [len(seated), bye.kind] == [4, Absence.Kind.BYE]
    assert {bye.player, *seated} == set(people)
    # Seating again gives one bye still; the next four nights give it to the other four.
    seat_night(night=night, by=organiser, seats_per_table=4, byes=True)
    assert night.absences.count() == 1
    had_a_bye = [night.absences.get().player]
    for day in range(4):
        later = make_night(season, date(2026, 4, 1) + timedelta(days=day))
        later.players.set(people)
        seat_night(night=later, by=organiser, seats_per_table=4, byes=True, rng=random.Random(day))
        had_a_bye.append(later.absences.get().player)
    assert sorted(p.name for p in had_a_bye) == ["Ann", "Bea", "Cat", "Dan", "Eve"]


def test_byes_need_one_full_table(five_members):
    _league, season, people, organiser = five_members
    night = make_night(season)
    night.players.set(people[:3])
    with pytest.raises(SeatingError, match="3 players present cannot fill a table of 4"):
        seat_night(night=night, by=organiser, seats_per_table=4, byes=True)
    assert not night.tables.exists() and not night.absences.exists()


@pytest.mark.parametrize(
    ("how", "fixed", "ann"),
    # Ann's bye on night 1; on night 2 she wins (6): the average is 6 over 1 night.
    [(League.Missed.NOTHING, 0, 6), (League.Missed.FIXED, 2, 8), (League.Missed.AVERAGE, 0, 12)],
)
def test_a_bye_earns_what_the_league_says(five_members, how, fixed, ann):
    league, season, (ann_, bea, cat, dan, eve), organiser = five_members
    _set(league, bye_points=how, bye_fixed_points=fixed)
    first = make_night(season, date(2026, 3, 1))
    Absence.objects.create(night=first, player=ann_, kind=Absence.Kind.BYE)
    played_table(first, [bea, cat, dan, eve], even_holes(30, 40, 50, 60))
    second = make_night(season, date(2026, 3, 8))
    played_table(second, [ann_, bea, cat, dan], even_holes(30, 40, 50, 60))
    # Bea 6 + 3, Cat 3 + 1, Dan 1 + 0, Eve 0.
    assert _points(season) == {"Ann": ann, "Bea": 9, "Cat": 4, "Dan": 1, "Eve": 0}
    rows = {row.player.name: row for row in season_standings(season)}
    assert rows["Ann"].byes == 1 and rows["Ann"].absences == 0


# --- A seat the bot played out ----------------------------------------------------------


def _play_out(table: Table) -> None:
    """Let the bots and the turn timer finish the match."""
    Table.objects.filter(pk=table.pk).update(turn_timer=30)
    act_until_finished(table, timezone.now() + timedelta(days=1))


@pytest.mark.parametrize(("counts", "level"), [(True, "expert"), (False, "master")])
def test_a_member_who_leaves_a_live_league_table_is_played_out_by_the_league_s_bot(counts, level):
    ann, bea = _people("Ann", "Bea")
    organiser = make_player("olive")
    league = make_league(make_club(organiser=organiser, members=[ann, bea]), points=POINTS)
    _set(league, stand_in_counts=counts, stand_in_level=level)
    season = make_season(league)
    night = make_night(season)
    night.players.set([ann, bea])
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE)
    table = night_table.table
    lobby.start_match(table=table, by=organiser)
    game_services.leave_match(table=table, player=ann)
    assert Seat.objects.get(table=table, player=ann).bot_level == level
    _play_out(table)
    cards = {card.player: card for card in Scorecard.objects.filter(table=table)}
    rows = {row.player: (row.matches, row.points) for row in season_standings(season)}
    # Bea's result stands either way; Ann's counts only if the league says so.
    bea_points = league.points_for(cards[bea].place)
    ann_points = league.points_for(cards[ann].place)
    assert {bea_points, ann_points} == {6, 3}
    expected = {bea: (1, bea_points)}
    if counts:
        expected[ann] = (1, ann_points)
    assert rows == expected
    assert ("the result counts for them" in absence_rule(league)) is counts
    assert f"played out by the {level} bot" in absence_rule(league)


# --- Pages ------------------------------------------------------------------------------


def test_the_night_page_marks_an_absence_and_a_substitute(five_members, client):
    league, season, (ann, bea, cat, dan, eve), organiser = five_members
    night = make_night(season)
    client.force_login(organiser)
    url = reverse("leagues:night_absence", args=[night.pk])
    response = client.post(url, {"absence-player": dan.pk, "absence-notice": "1"})
    assert response.status_code == 302
    assert night.absences.get().kind == Absence.Kind.NOTICE
    url = reverse("leagues:night_substitute", args=[night.pk])
    response = client.post(url, {"substitute-member": cat.pk, "substitute-guest_name": "Gus"})
    assert response.status_code == 302
    page = client.get(night.get_absolute_url()).content.decode()
    assert "Absent, with notice" in page and "Gus (guest) plays for them" in page


def test_the_night_page_refuses_nonsense_and_other_clubs(five_members, client):
    league, season, (ann, *_rest), organiser = five_members
    night = make_night(season)
    client.force_login(organiser)
    url = reverse("leagues:night_substitute", args=[night.pk])
    response = client.post(url, {"substitute-member": ann.pk})
    assert response.status_code == 400
    assert "Name one substitute" in response.content.decode()
    response = client.post(
        reverse("leagues:night_absence", args=[night.pk]),
        {"absence-player": "999999", "absence-notice": "maybe"},
    )
    assert response.status_code == 400
    other = make_player("otto")
    make_club(organiser=other)
    client.force_login(other)
    response = client.post(
        reverse("leagues:night_absence", args=[night.pk]),
        {"absence-player": ann.pk, "absence-notice": "1"},
    )
    assert response.status_code == 404
    assert not Absence.objects.exists() and not Substitute.objects.exists()


def test_a_guests_seat_goes_to_a_paper_table(five_members):
    league, season, (ann, bea, cat, dan, _eve), organiser = five_members
    night = make_night(season)
    night.players.set([ann, bea, cat])
    attendance.set_substitute(night=night, member=dan, guest_name="Gus", by=organiser)
    with pytest.raises(SeatingError, match="Dan's seat is played by a guest"):
        seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE)
    assert not night.tables.exists()
    for seed in range(4):
        live, paper = seat_night(
            night=night,
            by=organiser,
            seats_per_table=2,
            kind=Table.Kind.LIVE,
            paper_tables=1,
            method="balanced" if seed % 2 else "random",
            rng=random.Random(seed),
        )
        assert paper.is_paper and not live.is_paper
        assert dan in {seat.player for seat in paper.table.seats.all()}


def test_the_substitutes_page_says_whom_the_result_counts_for(substitute_night):
    league, _season = substitute_night
    eve = league.club.members.get(username="eve")
    (line,) = player_record(league, eve).matches
    assert (line.card.total, line.place, line.points, line.counts_for) == (30, 1, 0, "Dan")
    _set(league, substitute_counts=League.SubstituteCounts.SUBSTITUTE)
    (line,) = player_record(league, eve).matches
    assert (line.points, line.counts_for) == (6, "")


def test_every_stand_in_a_league_offers_is_a_bot_level():
    assert set(League.StandIn.values) <= set(BOT_LEVELS)


def test_an_organiser_chooses_the_stand_in_bot_and_nonsense_is_refused(client):
    organiser = make_player("olive")
    club = make_club(organiser=organiser)
    client.force_login(organiser)
    url = reverse("leagues:league_create", args=[club.slug])
    form = {"name": "Tuesday", "variant": "play-nine", "points_per_place": "6,4,2,0"}
    response = client.post(url, {**form, "stand_in_level": "random"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not club.leagues.exists()
    client.post(url, form)
    assert club.leagues.get().stand_in_level == League.StandIn.EXPERT  # left out: the default
    club.leagues.all().delete()
    client.post(url, {**form, "stand_in_level": "master"})
    league = club.leagues.get()
    assert league.stand_in_level == League.StandIn.MASTER
    assert "played out by the master bot" in absence_rule(league)

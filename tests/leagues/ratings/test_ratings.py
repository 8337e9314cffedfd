"""Ratings: openskill's PlackettLuce over a league's matches, checked against openskill itself."""

from __future__ import annotations

import math
from datetime import date
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from openskill.models import PlackettLuce

from games import scorecards
from leagues.attendance import services as attendance
from leagues.models import Membership, NightTable, Rating, RatingChange
from leagues.ratings.selectors import REBUILD_TASK
from leagues.ratings.services import rebuild_league_ratings, rebuild_ratings
from leagues.results.services import enter_night_results
from leagues.seating.services import seat_night
from leagues.standings.places import competition_places
from tests import driving
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
def league_with_two_nights():
    ann, bea, cat = (make_player(n) for n in ("ann", "bea", "cat"))
    league = make_league(make_club(members=[ann, bea, cat]))
    season = make_season(league)
    # Entered out of order: the later night first, so order comes from dates, not ids.
    late = make_night(season, date(2026, 4, 1))
    # Level after nine holes; the second playoff hole decides it for Bea.
    played_table(late, [bea, cat], even_holes(30, 30, playoff=[[3, 3], [2, 4]]))
    early = make_night(season, date(2026, 3, 1))
    played_table(early, [ann, bea, cat], even_holes(28, 35, 41))
    return league, (ann, bea, cat)


def test_competition_places_lower_total_is_better_and_ties_share():
    assert competition_places([40, 30, 40, 50]) == [2, 1, 2, 4]


def test_the_playoff_winner_gains_the_rating_the_loser_gives_up(club_night):
    """Level on 45 after nine holes, Mia wins the playoff hole 4 to 6.

    Worked by hand from Weng and Lin's Plackett-Luce update for two new players
    (mu 25, sigma 25/3, beta 25/6, openskill's dynamics tau 25/300 added to the
    variance first): at equal ratings each wins with probability 1/2, so the winner's
    mu rises by var / c * (1 - 1/2) and the loser's falls as much, where
    c = sqrt(2 * (var + beta^2)). A draw would leave both at 25.
    """

    cn = club_night
    mia, noah = cn.member, cn.others[0]
    night_table = open_table(cn.night, [mia, noah])
    enter_night_results(
        night_table=night_table,
        hole_scores=even_holes(45, 45, playoff=[[4, 6]]),
        by=cn.organiser,
    )
    var = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (var + (25 / 6) ** 2))
    step = var / c / 2
    winner = Rating.objects.get(league=cn.league, player=mia)
    loser = Rating.objects.get(league=cn.league, player=noah)
    assert winner.mu == pytest.approx(25 + step)
    assert loser.mu == pytest.approx(25 - step)
    assert step > 2.5
    assert winner.sigma == pytest.approx(loser.sigma)
    assert winner.ordinal > loser.ordinal


def test_rebuild_matches_openskill_applied_by_hand_in_date_order(league_with_two_nights):
    league, (ann, bea, cat) = league_with_two_nights
    assert rebuild_ratings(league=league).matches == 2

    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a], [b], [c]] = model.rate([[a], [b], [c]], ranks=[1, 2, 3])
    [[b], [c]] = model.rate([[b], [c]], ranks=[1, 2])

    got = {r.player: r for r in Rating.objects.filter(league=league)}
    for player, expected, matches in ((ann, a, 1), (bea, b, 2), (cat, c, 2)):
        assert got[player].mu == pytest.approx(expected.mu)
        assert got[player].sigma == pytest.approx(expected.sigma)
        assert got[player].matches == matches
        assert got[player].ordinal == pytest.approx(expected.ordinal())


def test_history_keeps_every_match_in_order_before_and_after(league_with_two_nights):
    league, (ann, bea, cat) = league_with_two_nights
    rebuild_ratings(league=league)
    history = list(RatingChange.objects.filter(league=league, player=bea).order_by("sequence"))
    assert [h.night_table.night.date for h in history] == [date(2026, 3, 1), date(2026, 4, 1)]
    assert history[0].mu_before == pytest.approx(25.0)
    assert history[1].mu_before == pytest.approx(history[0].mu)
    final = Rating.objects.get(league=league, player=bea)
    assert (final.mu, final.sigma) == (history[1].mu, history[1].sigma)


def test_rebuilding_twice_gives_the_same_ratings(league_with_two_nights):
    league, _ = league_with_two_nights
    rebuild_ratings(league=league)
    first = list(Rating.objects.filter(league=league).values_list("player", "mu", "sigma"))
    rebuild_ratings(league=league)
    assert list(Rating.objects.filter(league=league).values_list("player", "mu", "sigma")) == first
    assert RatingChange.objects.filter(league=league).count() == 5


def test_other_leagues_are_rated_apart(league_with_two_nights):
    league, (ann, bea, cat) = league_with_two_nights
    other = make_league(league.club)
    played_table(make_night(make_season(other)), [ann, cat], even_holes(50, 20))
    others = list(Rating.objects.filter(league=other).values_list("player", "mu", "sigma"))
    assert Rating.objects.get(league=other, player=ann).mu < 25  # Ann lost there
    rebuild_ratings(league=league)
    assert Rating.objects.get(league=league, player=ann).mu > 25
    assert list(Rating.objects.filter(league=other).values_list("player", "mu", "sigma")) == (
        others
    )


def test_the_management_command_rebuilds_one_or_every_league(league_with_two_nights):
    league, _ = league_with_two_nights
    out = StringIO()
    call_command("rebuild_ratings", "--league", str(league.pk), stdout=out)
    assert "2 matches rated" in out.getvalue()
    assert Rating.objects.filter(league=league).count() == 3
    out = StringIO()
    call_command("rebuild_ratings", stdout=out)
    assert str(league) in out.getvalue()


def test_entering_results_through_the_service_updates_ratings_at_once():
    from tests.factories import open_table

    organiser, ann, bea = make_player(), make_player(), make_player()
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    night_table = open_table(make_night(make_season(league)), [ann, bea])
    enter_night_results(night_table=night_table, hole_scores=even_holes(25, 35), by=organiser)
    assert (
        Rating.objects.get(league=league, player=ann).mu
        > 25
        > Rating.objects.get(league=league, player=bea).mu
    )


def test_a_live_night_table_is_rated_once_its_match_finishes(django_capture_on_commit_callbacks):
    from games import scorecards
    from games.models import Seat, Table, match_finished

    ann, bea = make_player(), make_player()
    league = make_league(make_club(members=[ann, bea]))
    night = make_night(make_season(league))
    # A league's live table has its seats assigned, as seating makes it.
    table = Table.objects.create(
        variant="play-nine", kind=Table.Kind.LIVE, seat_count=2, seats_assigned=True
    )
    Seat.objects.create(table=table, position=0, player=ann)
    Seat.objects.create(table=table, position=1, player=bea)
    night.tables.create(table=table, number=1)
    scorecards.open_scorecards(table=table)
    for number, strokes in enumerate(even_holes(20, 30), start=1):
        driving.record_hole(table=table, number=number, strokes=dict(enumerate(strokes)))
    with django_capture_on_commit_callbacks(execute=True):
        table.save()
    assert not Rating.objects.exists()  # saving a table says nothing of its match
    table.status = Table.Status.FINISHED
    with django_capture_on_commit_callbacks(execute=True) as rated:
        table.save()
        match_finished.send(sender=Table, table=table)
    assert len(rated) == 1
    assert Rating.objects.get(league=league, player=ann).mu > 25
    with django_capture_on_commit_callbacks(execute=True) as again:
        match_finished.send(sender=Table, table=table)
    assert not again  # rated once


def test_a_live_night_table_played_to_its_end_rates_the_league(django_capture_on_commit_callbacks):
    """Through live play's own services: the move that ends the match tells the league."""
    from games import lobby
    from games import services as play
    from games.models import Table

    organiser, ann, bea = make_player(), make_player(), make_player()
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    night = make_night(make_season(league))
    attendance.set_night_players(night=night, players=[ann, bea], by=organiser)
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE)
    table = night_table.table
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        lobby.start_match(table=table, by=organiser)
        for player in (ann, bea):
            play.leave_match(table=table, player=player)
        assert not Rating.objects.exists()
        table = driving.play_out(table_id=table.pk)
    assert table.status == Table.Status.FINISHED
    assert {r.player for r in Rating.objects.filter(league=league)} == {ann, bea}
    # The last move is announced before the match is rated.
    names = [callback.__qualname__ for callback in callbacks]
    rated = names.index("rate_finished_live_table.<locals>.<lambda>")
    announced = [i for i, name in enumerate(names) if name == "table_changed.<locals>.<lambda>"]
    assert announced and announced[-1] < rated


def _finished_live_table(night, players, *totals):
    """A live table of `night` whose match `players` finished with `totals`."""
    from games import scorecards
    from games.models import Seat, Table

    table = Table.objects.create(
        variant="play-nine", kind=Table.Kind.LIVE, seat_count=len(players), seats_assigned=True
    )
    for position, player in enumerate(players):
        Seat.objects.create(table=table, position=position, player=player)
    night_table = night.tables.create(table=table, number=night.tables.count() + 1)
    scorecards.open_scorecards(table=table)
    for number, strokes in enumerate(even_holes(*totals), start=1):
        driving.record_hole(table=table, number=number, strokes=dict(enumerate(strokes)))
    table.status = Table.Status.FINISHED
    table.save()
    return night_table


def _ratings(league) -> tuple[list, list]:
    """Every rating and rating change of `league`, as comparable values."""
    ratings = sorted(
        (r.player_id, round(r.mu, 9), round(r.sigma, 9), r.matches)
        for r in Rating.objects.filter(league=league)
    )
    changes = sorted(
        (c.player_id, c.night_table_id, c.sequence, round(c.mu_before, 9), round(c.mu, 9))
        for c in RatingChange.objects.filter(league=league)
    )
    return ratings, changes


@pytest.mark.parametrize("on", [date(2026, 5, 1), date(2026, 3, 15)])
def test_a_finished_live_match_is_rated_as_rating_the_league_again_would(
    league_with_two_nights, django_capture_on_commit_callbacks, on
):
    """The newest match is rated on top of the ratings; one that finishes behind a match
    already rated (an earlier night's table played late) has the league rated again."""
    from games.models import Table, match_finished

    league, (ann, bea, cat) = league_with_two_nights
    rebuild_ratings(league=league)
    night_table = _finished_live_table(make_night(league.seasons.get(), on), [cat, ann], 25, 31)
    with django_capture_on_commit_callbacks(execute=True):
        match_finished.send(sender=Table, table=night_table.table)
    rated = _ratings(league)
    assert len(rated[0]) == 3 and len(rated[1]) == 7
    rebuild_ratings(league=league)
    assert rated == _ratings(league)


def test_rating_a_finished_live_match_costs_the_same_however_long_the_league(
    django_capture_on_commit_callbacks,
):
    """Nothing the move that ends a match waits for grows with the league's history."""
    from games.models import Table, match_finished

    ann, bea = make_player(), make_player()
    league = make_league(make_club(members=[ann, bea]))
    season = make_season(league)
    counted, counts = [], []
    for history in (1, 6):
        while len(counted) < history:
            night = make_night(season, date(2026, 2, 1 + len(counted)))
            played_table(night, [ann, bea], even_holes(30, 31 + len(counted)))
            counted.append(night)
        rebuild_ratings(league=league)
        night = make_night(season, date(2026, 6, history))
        night_table = _finished_live_table(night, [ann, bea], 28, 29)
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=True) as rated,
        ):
            match_finished.send(sender=Table, table=night_table.table)
        assert len(rated) == 1
        counts.append(len(queries))
    # The cards scored and their players' figures moved in the move's transaction (the
    # handicaps frozen from the league's mean and each player's latest cards), then the
    # match rated after it.
    assert counts[0] == counts[1] <= 31
    assert Rating.objects.get(league=league, player=ann).matches == 8


def _history(league) -> list[tuple]:
    return list(
        RatingChange.objects.filter(league=league)
        .order_by("sequence", "player_id")
        .values_list("sequence", "night_table_id", "player_id", "mu", "sigma")
    )


def _correct_first_card(night_table, organiser, on_commit) -> None:
    """Correct the table's first card, and run what its commit queues (the re-rating,
    a task run at once by the tests' immediate backend)."""
    from leagues.results.services import correct_score

    card = night_table.table.scorecards.get(position=0)
    with on_commit(execute=True):
        correct_score(
            scorecard=card,
            number=1,
            strokes=card.holes.get(number=1).strokes + 10,
            reason="Misread",
            by=organiser,
        )


def test_a_correction_rates_again_only_the_matches_its_players_reach(
    django_capture_on_commit_callbacks,
):
    """Ann's card corrected on the first night: her match, and the later matches that
    seat her or someone she has met since, are rated again; a match of people it cannot
    reach keeps its changes as they were. The ratings and their history are those a
    rebuild gives."""
    organiser = make_player()
    ann, bea, cat, dan, eve, fay = (
        make_player(n) for n in ("ann", "bea", "cat", "dan", "eve", "fay")
    )
    league = make_league(make_club(organiser=organiser, members=[ann, bea, cat, dan, eve, fay]))
    season = make_season(league)
    first = make_night(season, date(2026, 3, 1))
    corrected = played_table(first, [ann, bea], even_holes(30, 35))
    apart = played_table(first, [cat, dan], even_holes(31, 33))
    second = make_night(season, date(2026, 3, 8))
    reached = played_table(second, [ann, cat], even_holes(29, 36))
    untouched = played_table(second, [eve, fay], even_holes(32, 34))
    kept = set(
        RatingChange.objects.filter(night_table__in=[apart, untouched]).values_list("pk", flat=True)
    )
    moved = set(
        RatingChange.objects.filter(night_table__in=[corrected, reached]).values_list(
            "pk", flat=True
        )
    )
    _correct_first_card(corrected, organiser, django_capture_on_commit_callbacks)
    now = set(RatingChange.objects.filter(league=league).values_list("pk", flat=True))
    assert kept <= now and not moved & now
    ratings, history = _ratings(league), _history(league)
    rebuild_ratings(league=league)
    assert (_ratings(league), _history(league)) == (ratings, history)


def test_correcting_tonights_table_costs_the_same_however_many_tables_and_nights(
    django_capture_on_commit_callbacks,
):
    """A correction of tonight's first table rates that table alone: the night's other
    tables seat other people, and the nights before are history."""
    organiser = make_player()
    people = [make_player() for _ in range(12)]
    league = make_league(make_club(organiser=organiser, members=people))
    season = make_season(league)
    counts = []
    for nights, tables in ((1, 2), (4, 6)):
        for day in range(nights):
            night = make_night(season, date(2026, 1 + len(counts), 1 + day))
            seated = [
                played_table(night, people[2 * n : 2 * n + 2], even_holes(30, 31 + n))
                for n in range(tables)
            ]
        with CaptureQueriesContext(connection) as queries:
            _correct_first_card(seated[0], organiser, django_capture_on_commit_callbacks)
        counts.append(len(queries))
        ratings = _ratings(league)
        rebuild_ratings(league=league)
        assert _ratings(league) == ratings
    assert counts[0] == counts[1]


def test_a_change_of_the_rating_rules_rates_the_league_again_in_a_task(
    client, league_with_two_nights, task_workers
):
    """The change (an organiser's save) queues the rebuild and waits for none of it: the
    ratings stay as they were, and the league's page says they are being recomputed,
    until a worker runs it; then they are a rebuild's, and the page says no more."""
    league, (ann, bea, cat) = league_with_two_nights
    # Played on the house rule the league takes up: not rated until then.
    table = scorecards.open_paper_table(
        variant="play-nine", players=[ann, cat], house_rules=["no-skip"]
    )
    night = make_night(league.seasons.get(), date(2026, 5, 1))
    NightTable.objects.create(night=night, table=table, number=1)
    scorecards.record_paper_results(table=table, hole_scores=even_holes(20, 40))
    rebuild_ratings(league=league)
    before = _ratings(league)
    organiser = make_player()
    Membership.objects.create(club=league.club, player=organiser, role=Membership.Role.ORGANISER)
    client.force_login(organiser)
    page = reverse("leagues:league", args=[league.pk])
    assert "being recomputed" not in client.get(page).content.decode()

    league.house_rules = ["no-skip"]
    league.save()
    assert _ratings(league) == before
    queued = DBTaskResult.objects.get()
    assert (queued.task_path, queued.args_kwargs["args"]) == (REBUILD_TASK, [league.pk])
    assert rebuild_league_ratings.module_path == REBUILD_TASK
    assert "its ratings are being recomputed" in client.get(page).content.decode()

    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    after = _ratings(league)
    assert after != before and {pk for pk, *_ in after[0]} == {ann.pk, cat.pk}
    assert "being recomputed" not in client.get(page).content.decode()
    rebuild_ratings(league=league)
    assert _ratings(league) == after

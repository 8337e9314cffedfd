"""Corrections: a reason, an audit record with the old value, and standings and ratings after."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from games.models import ScorecardHole
from games.scorecards import PaperScoreError
from leagues.models import Rating, ScoreCorrection
from leagues.ratings.services import rebuild_ratings, rerate_from
from leagues.results.selectors import corrections_in
from leagues.results.services import correct_score, enter_night_results
from leagues.standings.selectors import season_standings
from tests.factories import (
    even_holes,
    make_league,
    make_night,
    make_season,
    open_table,
    played_table,
)

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def played(club_night):
    """Mia 30, Noah 35, Pia 40 at one table; ratings built."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    return cn


def test_a_correction_on_the_site_keeps_the_old_value_and_moves_the_standings(
    client, played, django_capture_on_commit_callbacks
):
    cn = played
    mia_card = cn.night_table.table.scorecards.get(player=cn.member)
    mia_before = Rating.objects.get(league=cn.league, player=cn.member).mu
    client.force_login(cn.organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the re-rating's task runs
        response = client.post(
            reverse("leagues:table_correct", args=[cn.night_table.pk]),
            {
                "scorecard": mia_card.pk,
                "number": 3,
                "strokes": 12,
                "reason": "Card misread: 12 not 1",
            },
        )
    assert response.status_code == 302

    correction = ScoreCorrection.objects.get()
    assert (correction.scorecard, correction.hole_number) == (mia_card, 3)
    assert (correction.old_strokes, correction.new_strokes) == (1, 12)
    assert correction.corrected_by == cn.organiser
    assert correction.corrected_at is not None
    assert correction.reason == "Card misread: 12 not 1"

    # Mia 41 is now last: Noah 35 wins, Pia 40 second.
    standings = [(r.place, r.player.name, r.points) for r in season_standings(cn.season)]
    assert standings == [(1, "Noah", 6), (2, "Pia", 4), (3, "Mia", 2)]
    assert Rating.objects.get(league=cn.league, player=cn.member).mu < mia_before
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "Card misread: 12 not 1" in html


def test_a_correction_records_its_league_whose_log_alone_lists_it(played):
    cn = played
    other = make_league(cn.club)
    other_table = open_table(make_night(make_season(other)), [cn.member, *cn.others])
    enter_night_results(
        night_table=other_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )

    def correct_pia(night_table):
        card = night_table.table.scorecards.get(player=cn.others[1])
        old = card.holes.get(number=1).strokes
        return correct_score(
            scorecard=card, number=1, strokes=old + 1, reason="Misread", by=cn.organiser
        ).changed

    here, there = correct_pia(cn.night_table), correct_pia(other_table)
    assert ScoreCorrection.objects.get(pk=here.pk).league == cn.league
    assert ScoreCorrection.objects.get(pk=there.pk).league == other
    assert list(corrections_in(cn.league)) == [here]
    assert list(corrections_in(other)) == [there]


def test_a_correction_needs_a_reason_and_changes_nothing_without_one(client, played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": card.pk, "number": 3, "strokes": 12, "reason": "   "},
    )
    assert response.status_code == 400
    assert card.holes.get(number=3).strokes == 1
    assert not ScoreCorrection.objects.exists()
    with pytest.raises(ValidationError):
        correct_score(scorecard=card, number=3, strokes=12, reason="", by=cn.organiser)


def test_a_correction_that_would_break_the_match_is_refused(client, played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": card.pk, "number": 3, "strokes": 500, "reason": "typo"},
    )
    assert response.status_code == 400
    assert "is not a Play Nine score" in response.content.decode()
    assert card.holes.get(number=3).strokes == 1
    assert not ScoreCorrection.objects.exists()


def test_only_organisers_of_the_club_may_correct(played):
    cn = played
    card = cn.night_table.table.scorecards.get(player=cn.member)
    with pytest.raises(PermissionDenied):
        correct_score(scorecard=card, number=3, strokes=2, reason="x", by=cn.member)
    assert not ScoreCorrection.objects.exists()


def test_ratings_after_a_correction_equal_a_fresh_rebuild(
    played, django_capture_on_commit_callbacks
):
    cn = played
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 31))
    card = cn.night_table.table.scorecards.get(player=cn.others[1])
    with django_capture_on_commit_callbacks(execute=True):
        correct_score(scorecard=card, number=1, strokes=0, reason="x", by=cn.organiser)
    after = set(Rating.objects.values_list("player", "mu", "sigma"))
    rebuild_ratings(league=cn.league)
    assert set(Rating.objects.values_list("player", "mu", "sigma")) == after


def _ratings(league) -> set:
    return set(Rating.objects.filter(league=league).values_list("player", "mu", "sigma"))


def test_a_late_correction_s_re_rating_is_queued_and_the_request_waits_for_none_of_it(
    client, played, task_workers
):
    """The request writes the corrected card's figures (the standings move at once) and
    queues the re-rating; the ratings stay as they were until a worker runs it, then
    equal a rebuild's."""
    cn = played
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 31))
    before = _ratings(cn.league)
    mia_card = cn.night_table.table.scorecards.get(player=cn.member)
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:table_correct", args=[cn.night_table.pk]),
        {"scorecard": mia_card.pk, "number": 3, "strokes": 12, "reason": "Card misread"},
    )
    assert response.status_code == 302
    assert [(r.place, r.player.name) for r in season_standings(cn.season)][0] == (1, "Noah")
    assert _ratings(cn.league) == before
    queued = DBTaskResult.objects.get()
    assert queued.task_path == rerate_from.module_path and queued.status == "READY"
    assert queued.args_kwargs["args"] == [cn.night_table.pk]
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    after = _ratings(cn.league)
    assert after != before
    rebuild_ratings(league=cn.league)
    assert _ratings(cn.league) == after


def test_two_corrections_close_together_rate_right_in_either_order(played, task_workers):
    """Two corrections at two points of the league's order queue two re-ratings: run in
    either order, the last leaves the ratings a rebuild gives."""
    cn = played
    second = played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 31))
    played_table(cn.night, [cn.others[0], cn.others[1]], even_holes(33, 32))
    correct_score(
        scorecard=cn.night_table.table.scorecards.get(player=cn.others[1]),
        number=1, strokes=0, reason="x", by=cn.organiser,
    )  # fmt: skip
    correct_score(
        scorecard=second.table.scorecards.get(player=cn.member),
        number=2, strokes=12, reason="y", by=cn.organiser,
    )  # fmt: skip
    queued = list(DBTaskResult.objects.order_by("enqueued_at"))
    assert [row.args_kwargs["args"] for row in queued] == [[cn.night_table.pk], [second.pk]]
    for row in reversed(queued):  # the later point first, then the earlier
        rerate_from.call(*row.args_kwargs["args"])
    after = _ratings(cn.league)
    rebuild_ratings(league=cn.league)
    assert _ratings(cn.league) == after
    for row in queued:  # and the other way round
        rerate_from.call(*row.args_kwargs["args"])
    assert _ratings(cn.league) == after


@pytest.fixture
def playoff(club_night):
    """A paper table: Mia and Noah level on 45 after nine holes, Mia wins the playoff 4-6."""
    cn = club_night
    cn.playoff_table = open_table(cn.night, [cn.member, cn.others[0]])
    holes = [[5, 5] for _ in range(9)]
    enter_night_results(night_table=cn.playoff_table, hole_scores=[*holes, [4, 6]], by=cn.organiser)
    return cn


def correct(client, cn, player, number, strokes, **extra):
    card = cn.playoff_table.table.scorecards.get(player=player)
    return client.post(
        reverse("leagues:table_correct", args=[cn.playoff_table.pk]),
        {"scorecard": card.pk, "number": number, "strokes": strokes, "reason": "Card misread",
         **extra},
    )  # fmt: skip


def cards_of(night_table):
    return [
        (card.total, card.place, {h.number: h.strokes for h in card.holes.all()}.get(10))
        for card in night_table.table.scorecards.order_by("position")
    ]


def test_a_correction_that_decides_the_match_asks_to_remove_the_playoff(client, playoff):
    cn = playoff
    client.force_login(cn.organiser)
    response = correct(client, cn, cn.others[0], 3, 1)
    html = response.content.decode()
    assert response.status_code == 400
    assert (
        "With this correction the match is decided after hole 9, so Playoff 1 is no longer "
        "needed: tick the box to remove it." in html
    )
    assert "Remove playoff holes this correction makes unnecessary" in html
    assert cards_of(cn.playoff_table) == [(45, 1, 4), (45, 2, 6)]
    assert not ScoreCorrection.objects.exists()


def test_the_removed_playoff_is_logged_and_the_match_decided_by_the_correction(
    client, playoff, django_capture_on_commit_callbacks
):
    cn = playoff
    mia, noah = cn.member, cn.others[0]
    client.force_login(cn.organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the re-rating's task runs
        response = correct(client, cn, noah, 3, 1, remove_playoffs="on")
    assert response.status_code == 302
    # Noah 41 now wins outright; the playoff's strokes are off both cards.
    assert cards_of(cn.playoff_table) == [(45, 2, None), (41, 1, None)]
    assert not ScorecardHole.objects.filter(
        scorecard__table=cn.playoff_table.table, number__gt=9
    ).exists()

    log = list(ScoreCorrection.objects.all())  # newest first
    assert [(c.scorecard.player, c.hole_number, c.old_strokes, c.new_strokes) for c in log] == [
        (noah, 3, 5, 1),
        (noah, 10, 6, None),
        (mia, 10, 4, None),
    ]
    assert all(c.corrected_by == cn.organiser and c.corrected_at for c in log)
    assert all(c.league == cn.league for c in log)
    assert log[0].reason == "Card misread"
    assert (
        log[1].reason
        == log[2].reason
        == ("No longer needed once Noah's hole 3 was corrected: Card misread")
    )

    standings = {r.player: (r.wins, r.points) for r in season_standings(cn.season)}
    assert standings[noah] == (1, 6) and standings[mia] == (0, 4)
    assert (
        Rating.objects.get(league=cn.league, player=noah).mu
        > Rating.objects.get(league=cn.league, player=mia).mu
    )
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Score corrected; Playoff 1 is no longer needed and was removed." in html
    assert html.count("<td>Playoff 1</td>") == 2
    assert html.count('<td class="num">removed</td>') == 2


def test_a_correction_that_keeps_the_tie_keeps_the_playoff(client, playoff):
    cn = playoff
    mia, noah = cn.member, cn.others[0]
    client.force_login(cn.organiser)
    # Both still on 45 after nine: only the playoff hole changes hands.
    response = correct(client, cn, noah, 10, 3, remove_playoffs="on")
    assert response.status_code == 302
    assert cards_of(cn.playoff_table) == [(45, 2, 4), (45, 1, 3)]
    assert [(c.hole_number, c.new_strokes) for c in ScoreCorrection.objects.all()] == [(10, 3)]
    # A correction elsewhere that leaves the tie alone is accepted without the box.
    response = correct(client, cn, mia, 3, 5)
    assert response.status_code == 302
    assert cards_of(cn.playoff_table) == [(45, 2, 4), (45, 1, 3)]
    assert {r.player: r.wins for r in season_standings(cn.season)}[noah] == 1


def test_a_bad_score_is_named_before_the_playoff(client, playoff):
    cn = playoff
    client.force_login(cn.organiser)
    response = correct(client, cn, cn.others[0], 3, 500, remove_playoffs="on")
    html = response.content.decode()
    assert response.status_code == 400
    assert "Hole 3: 500 is not a Play Nine score" in html
    assert "no longer needed" not in html
    assert cards_of(cn.playoff_table) == [(45, 1, 4), (45, 2, 6)]
    assert not ScoreCorrection.objects.exists()


def test_a_correction_that_brings_a_third_player_into_the_tie_is_refused(club_night):
    cn = club_night
    holes = even_holes(30, 30, 31, playoff=[[4, 6, None]])
    enter_night_results(night_table=cn.night_table, hole_scores=holes, by=cn.organiser)
    pia = cn.night_table.table.scorecards.get(player=cn.others[1])
    with pytest.raises(PaperScoreError, match="Playoff 1: enter strokes for Pia."):
        correct_score(
            scorecard=pia, number=2, strokes=0, reason="x", by=cn.organiser, remove_playoffs=True
        )
    assert pia.holes.get(number=2).strokes == 1
    assert (
        ScorecardHole.objects.filter(scorecard__table=cn.night_table.table, number=10).count() == 2
    )
    assert not ScoreCorrection.objects.exists()


def test_the_removal_box_is_offered_only_where_there_is_a_playoff(client, played, playoff):
    cn = playoff
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:table_correct", args=[cn.playoff_table.pk])).content
    assert b'name="remove_playoffs"' in html
    html = client.get(reverse("leagues:table_correct", args=[cn.night_table.pk])).content
    assert b'name="remove_playoffs"' not in html


def test_only_the_playoff_holes_after_the_new_decision_come_off(club_night):
    """Level on 30 after nine and after Playoff 1 (4-4); Noah won Playoff 2 3-5."""
    cn = club_night
    mia, noah = cn.member, cn.others[0]
    night_table = open_table(cn.night, [mia, noah])
    holes = even_holes(30, 30, playoff=[[4, 4], [5, 3]])
    enter_night_results(night_table=night_table, hole_scores=holes, by=cn.organiser)
    card = night_table.table.scorecards.get(player=mia)

    with pytest.raises(ValidationError) as refused:
        correct_score(scorecard=card, number=2, strokes=0, reason="x", by=cn.organiser)
    assert refused.value.message_dict["remove_playoffs"] == [
        "With this correction the match is decided after hole 9, so Playoff 1 and Playoff 2 "
        "are no longer needed: tick the box to remove them."
    ]
    with pytest.raises(ValidationError) as refused:
        correct_score(scorecard=card, number=10, strokes=2, reason="x", by=cn.organiser)
    assert refused.value.message_dict["remove_playoffs"] == [
        "With this correction the match is decided after playoff 1, so Playoff 2 is no longer "
        "needed: tick the box to remove it."
    ]
    assert not ScoreCorrection.objects.exists()

    correction = correct_score(
        scorecard=card, number=10, strokes=2, reason="x", by=cn.organiser, remove_playoffs=True
    )
    assert correction.removed_holes == ["Playoff 2"]
    assert [(c.hole_number, c.old_strokes) for c in correction.removed] == [(11, 5), (11, 3)]
    assert cards_of(night_table) == [(30, 1, 2), (30, 2, 4)]
    assert not ScorecardHole.objects.filter(scorecard__table=night_table.table, number=11).exists()

"""The scorecard service: paper matches checked by the engine's rules, corrections."""

from __future__ import annotations

import pytest

from games import scorecards
from games.models import ScorecardHole, Table
from games.scorecards import PaperScoreError, check_paper_scores
from tests import driving
from tests.factories import even_holes, make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = pytest.mark.both_databases


NAMES = ["Ann", "Bea", "Cat"]


def messages(error: PaperScoreError) -> str:
    return " ".join(p.message for p in error.problems)


def test_a_full_match_passes_the_check_and_reports_its_winner():
    status = check_paper_scores("play-nine", even_holes(30, 35, 40), NAMES)
    assert status.over
    assert status.winner == 0
    assert status.places == (1, 2, 3)


def test_fewer_than_nine_holes_is_refused():
    with pytest.raises(PaperScoreError) as error:
        check_paper_scores("play-nine", even_holes(30, 35, 40)[:8], NAMES)
    assert "A match has 9 holes; 8 were entered." in messages(error.value)


def test_a_missing_a_non_number_and_an_impossible_score_are_each_named():
    holes = even_holes(30, 35, 40)
    holes[1][0] = None
    holes[2][1] = "7a"
    holes[3][2] = 93
    with pytest.raises(PaperScoreError) as error:
        check_paper_scores("play-nine", holes, NAMES)
    problems = {(p.hole, p.position): p.message for p in error.value.problems}
    assert problems[(2, 0)] == "Hole 2: enter strokes for Ann."
    assert problems[(3, 1)] == "Hole 3: strokes for Bea must be a whole number."
    assert "93 is not a Play Nine score" in problems[(4, 2)]
    assert "-40 to 92" in problems[(4, 2)]


def test_a_bool_is_not_a_number_of_strokes():
    holes = even_holes(30, 35, 40)
    holes[4][0] = True
    with pytest.raises(PaperScoreError, match="must be a whole number"):
        check_paper_scores("play-nine", holes, NAMES)


def test_a_playoff_hole_without_a_tie_is_refused():
    holes = even_holes(30, 35, 40, playoff=[[3, 4, None]])
    with pytest.raises(PaperScoreError, match="decided after hole 9"):
        check_paper_scores("play-nine", holes, NAMES)


def test_a_tie_for_the_lowest_total_needs_a_playoff_hole():
    with pytest.raises(PaperScoreError, match="Ann and Bea are tied after hole 9"):
        check_paper_scores("play-nine", even_holes(30, 30, 40), NAMES)


def test_only_the_tied_players_play_the_playoff_hole():
    holes = even_holes(30, 30, 40, playoff=[[3, 4, 2]])
    with pytest.raises(PaperScoreError) as error:
        check_paper_scores("play-nine", holes, NAMES)
    assert error.value.problems[0].position == 2
    assert "only the tied players (Ann and Bea)" in error.value.problems[0].message


def test_a_playoff_hole_decides_a_tie_and_the_loser_is_second():
    status = check_paper_scores("play-nine", even_holes(30, 30, 40, playoff=[[5, 4, None]]), NAMES)
    assert status.winner == 1
    assert status.places == (2, 1, 3)


@pytest.mark.django_db
def test_record_paper_match_writes_seats_cards_holes_and_finishes_the_table():
    players = [make_player(), make_player(), make_player()]
    table = driving.record_paper_match(
        variant="play-nine", players=players, hole_scores=even_holes(30, 35, 40)
    )
    assert table.kind == Table.Kind.PAPER
    assert table.status == Table.Status.FINISHED
    assert table.finished_at is not None
    cards = list(table.scorecards.order_by("position"))
    assert [c.player for c in cards] == players
    assert [(c.total, c.place) for c in cards] == [(30, 1), (35, 2), (40, 3)]
    assert ScorecardHole.objects.filter(scorecard__table=table).count() == 27


@pytest.mark.django_db
def test_bad_scores_save_nothing_and_results_are_entered_only_once():
    players = [make_player(), make_player()]
    table = scorecards.open_paper_table(variant="play-nine", players=players)
    with pytest.raises(PaperScoreError):
        scorecards.record_paper_results(table=table, hole_scores=even_holes(30, 35)[:5])
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert not ScorecardHole.objects.filter(scorecard__table=table).exists()
    scorecards.record_paper_results(table=table, hole_scores=even_holes(30, 35))
    with pytest.raises(ValueError, match="correction"):
        scorecards.record_paper_results(table=table, hole_scores=even_holes(30, 35))


@pytest.mark.django_db
def test_correct_hole_returns_the_old_value_and_refreshes_totals_and_places():
    players = [make_player(), make_player()]
    table = driving.record_paper_match(
        variant="play-nine", players=players, hole_scores=even_holes(30, 35)
    )
    card = table.scorecards.get(position=0)
    assert scorecards.correct_hole(scorecard=card, number=2, strokes=11) == 1
    totals = dict(table.scorecards.values_list("position", "total"))
    places = dict(table.scorecards.values_list("position", "place"))
    assert totals == {0: 40, 1: 35}
    assert places == {0: 2, 1: 1}


@pytest.mark.django_db
def test_a_correction_that_breaks_the_rules_changes_nothing():
    players = [make_player(), make_player()]
    table = driving.record_paper_match(
        variant="play-nine", players=players, hole_scores=even_holes(30, 35)
    )
    card = table.scorecards.get(position=0)
    with pytest.raises(PaperScoreError):
        scorecards.correct_hole(scorecard=card, number=2, strokes=200)
    assert card.holes.get(number=2).strokes == 1
    assert table.scorecards.get(position=0).total == 30


@pytest.mark.django_db
def test_opening_the_cards_again_follows_the_seats_and_keeps_what_they_hold(
    django_assert_max_num_queries,
):
    """Every seat gets its card, named as the seat is; a card whose seat changed hands
    is named anew (its holes kept), one left alone is untouched; in a few queries
    whatever the seats (an event opens a dozen tables at once)."""
    ann, bea, cat, dan = (make_player(display_name=name) for name in ("Ann", "Bea", "Cat", "Dan"))
    with django_assert_max_num_queries(7):
        table = scorecards.open_paper_table(variant="play-nine", players=[ann, bea, cat, dan])
    cards = list(table.scorecards.order_by("position"))
    assert [(c.position, c.player, c.name) for c in cards] == [
        (0, ann, "Ann"),
        (1, bea, "Bea"),
        (2, cat, "Cat"),
        (3, dan, "Dan"),
    ]
    ScorecardHole.objects.create(scorecard=cards[1], number=1, strokes=4)
    eve = make_player(display_name="Eve")
    table.seats.filter(position=1).update(player=eve)
    table.seats.filter(position=3).delete()
    with django_assert_max_num_queries(3):
        opened = scorecards.open_scorecards(table=table)
    assert [(c.position, c.player, c.name) for c in opened] == [
        (0, ann, "Ann"),
        (1, eve, "Eve"),
        (2, cat, "Cat"),
    ]
    assert [c.pk for c in opened] == [c.pk for c in cards[:3]]
    assert ScorecardHole.objects.get(scorecard=cards[1]).strokes == 4
    assert table.scorecards.get(position=1).name == "Eve"

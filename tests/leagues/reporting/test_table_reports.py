"""A paper table reports itself: holes entered by one player, confirmed or disputed by
another, settled by the organiser, and written as the organiser's entry writes them."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from games.models import ScorecardHole, Table
from games.scorecards import PaperScoreError
from leagues.models import Rating, ReportedHole, ScoreCorrection, TableReport
from leagues.reporting import codes, selectors, services
from leagues.results.services import enter_night_results
from leagues.seating.services import seat_night
from tests.factories import even_holes, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def report(club_night):
    return club_night.night_table.report


def enter(report, by, number, strokes, *, version=None, reason=""):
    if version is None:
        hole = report.holes.filter(number=number).first()
        version = hole.version if hole else 0
    return services.enter_hole(
        report=report, number=number, strokes=strokes, version=version, by=by, reason=reason
    )


def confirm(report, by, number):
    hole = report.holes.get(number=number)
    return services.confirm_hole(report=report, number=number, version=hole.version, by=by)


def play_all(cn, report, holes):
    """Mia enters every hole, Noah confirms each."""
    for index, strokes in enumerate(holes):
        enter(report, cn.member, index + 1, strokes)
        confirm(report, cn.others[0], index + 1)


def table_of(cn) -> Table:
    return Table.objects.get(pk=cn.night_table.table.pk)


def test_a_report_gets_one_short_code_of_unmistakable_characters(club_night):
    first = club_night.night_table.report
    again = codes.give_code(night_table=club_night.night_table)
    assert first.pk == again.pk and TableReport.objects.count() == 1
    assert len(first.code) == selectors.CODE_LENGTH
    assert set(first.code) <= set(selectors.CODE_ALPHABET)
    assert not set("0O1IL5S8B2Z") & set(selectors.CODE_ALPHABET)
    assert selectors.report_by_code(selectors.shown_code(first.code).lower()) == first


def test_a_freshly_seated_nights_paper_tables_already_have_their_codes(club_night):
    """Seating gives each paper table its card's code; a live table has none."""
    cn = club_night
    players = [cn.member, *cn.others, make_player("ray"), make_player("sue")]
    cn.night.players.set(players)
    paper = seat_night(night=cn.night, by=cn.organiser, seats_per_table=3)
    assert len(paper) == 2
    assert {r.night_table_id for r in TableReport.objects.all()} == {nt.pk for nt in paper}
    assert len({nt.report.code for nt in paper}) == 2
    # Seated again with one live table and one on paper: the paper one alone has a code.
    live, on_paper = seat_night(
        night=cn.night, by=cn.organiser, seats_per_table=3, kind=Table.Kind.LIVE, paper_tables=1
    )
    assert list(TableReport.objects.values_list("night_table", flat=True)) == [on_paper.pk]
    assert not TableReport.objects.filter(night_table=live).exists()
    with pytest.raises(ValidationError, match="physical deck"):
        codes.give_code(night_table=live)


def test_an_entered_hole_waits_for_another_player_and_counts_nothing_yet(club_night, report):
    cn = club_night
    hole = enter(report, cn.member, 1, [3, 4, 5])
    assert hole.state == ReportedHole.State.ENTERED and hole.version == 1
    assert not ScorecardHole.objects.filter(scorecard__table=cn.night_table.table).exists()
    view = selectors.report_view(report)
    assert view.totals == [3, 4, 5] and view.next_number == 2


def test_the_player_who_entered_a_hole_cannot_confirm_it(club_night, report):
    cn = club_night
    enter(report, cn.member, 1, [3, 4, 5])
    with pytest.raises(ValidationError, match="Another player"):
        confirm(report, cn.member, 1)
    assert report.holes.get(number=1).state == ReportedHole.State.ENTERED


def test_every_hole_confirmed_writes_the_table_as_the_organisers_entry_does(club_night, report):
    cn = club_night
    play_all(cn, report, even_holes(30, 35, 40))
    table = table_of(cn)
    assert table.status == Table.Status.FINISHED
    assert list(table.scorecards.order_by("position").values_list("total", "place")) == [
        (30, 1),
        (35, 2),
        (40, 3),
    ]
    assert Rating.objects.filter(league=cn.league).count() == 3


def test_a_playoff_is_entered_for_the_tied_players_only(club_night, report):
    cn = club_night
    play_all(cn, report, even_holes(30, 30, 40))
    assert table_of(cn).status == Table.Status.PLAYING
    view = selectors.report_view(report)
    assert view.next_number == 10 and view.next_seats == [0, 1]
    with pytest.raises(PaperScoreError, match=r"only the tied players \(Mia and Noah\)"):
        enter(report, cn.member, 10, [3, 4, 5])
    enter(report, cn.member, 10, [3, 4, None])
    confirm(report, cn.others[1], 10)
    table = table_of(cn)
    assert table.status == Table.Status.FINISHED
    assert table.scorecards.get(position=0).place == 1


def test_a_playoff_after_a_decided_match_is_refused_as_the_form_refuses_it(club_night, report):
    cn = club_night
    for number, strokes in enumerate(even_holes(30, 35, 40), start=1):
        enter(report, cn.member, number, strokes)
    with pytest.raises(PaperScoreError, match="the match was decided after hole 9"):
        enter(report, cn.member, 10, [3, 4, None])


def test_a_change_that_makes_a_played_playoff_unneeded_is_sent_to_the_organiser(club_night, report):
    """The table tied and played a playoff; a change to hole 1 decides the match after
    hole 9. The report has no box to take the playoff off (the correction page has): it
    says so in its own words, and nothing changes."""
    cn = club_night
    play_all(cn, report, even_holes(30, 30, 40))
    enter(report, cn.member, 10, [3, 4, None])
    confirm(report, cn.others[1], 10)
    assert table_of(cn).status == Table.Status.FINISHED
    enter(report, cn.others[1], 1, [21, 22, 32], reason="Mia's first card was a 21")
    with pytest.raises(ValidationError) as refused:
        confirm(report, cn.others[0], 1)
    message = " ".join(refused.value.messages)
    assert "Hole 1: with this change the match is decided after hole 9" in message
    assert "Playoff 1 is no longer needed" in message and "ask an organiser" in message
    assert "tick the box" not in message
    cards = table_of(cn).scorecards.order_by("position")
    assert [(c.total, c.place) for c in cards] == [(30, 1), (30, 2), (40, 3)]
    assert ScorecardHole.objects.filter(scorecard__table=table_of(cn), number=10).count() == 2
    assert not ScoreCorrection.objects.exists()
    assert report.holes.get(number=1).state != ReportedHole.State.CONFIRMED


@pytest.mark.parametrize(
    ("strokes", "message"),
    [
        ([3, None, 5], "Hole 1: enter strokes for Noah."),
        ([3, "1O", 5], "Hole 1: strokes for Noah must be a whole number."),
        ([3, 300, 5], "Hole 1: 300 is not a Play Nine score"),
    ],
)
def test_bad_strokes_are_named_in_the_results_forms_words_and_change_nothing(
    club_night, report, strokes, message
):
    cn = club_night
    with pytest.raises(PaperScoreError) as error:
        enter(report, cn.member, 1, strokes)
    assert message in str(error.value)
    assert not report.holes.exists()


def test_a_disputed_hole_needs_a_reason_and_waits_for_the_organiser(club_night, report):
    cn = club_night
    hole = enter(report, cn.member, 1, [3, 4, 5])
    with pytest.raises(ValidationError):
        services.dispute_hole(report=report, number=1, version=1, by=cn.others[0], reason=" ")
    services.dispute_hole(
        report=report, number=1, version=hole.version, by=cn.others[0], reason="I took 6"
    )
    view = selectors.night_reports(cn.night)[0]
    assert [line.number for line in view.disputed] == [1]
    assert view.disputed[0].hole.dispute_reason == "I took 6"
    hole = report.holes.get(number=1)
    with pytest.raises(ValidationError):  # a disputed hole is not confirmed as it stands
        services.confirm_hole(report=report, number=1, version=hole.version, by=cn.others[1])
    settled = services.settle_hole(
        report=report, number=1, strokes=[3, 6, 5], version=hole.version, by=cn.organiser
    )
    assert settled.state == ReportedHole.State.CONFIRMED
    assert settled.confirmed_strokes == [3, 6, 5]


def test_only_an_organiser_settles(club_night, report):
    cn = club_night
    hole = enter(report, cn.member, 1, [3, 4, 5])
    with pytest.raises(PermissionDenied):
        services.settle_hole(
            report=report, number=1, strokes=[3, 4, 5], version=hole.version, by=cn.others[0]
        )
    assert report.holes.get(number=1).state == ReportedHole.State.ENTERED


def test_no_one_outside_the_table_enters_or_confirms(club_night, report):
    cn = club_night
    stranger = make_player("sam")
    with pytest.raises(PermissionDenied):
        enter(report, stranger, 1, [3, 4, 5])
    assert not report.holes.exists()
    enter(report, cn.member, 1, [3, 4, 5])
    with pytest.raises(PermissionDenied):
        confirm(report, stranger, 1)
    with pytest.raises(PermissionDenied):  # the organiser settles; confirming is the table's
        confirm(report, cn.organiser, 1)
    assert report.holes.get(number=1).state == ReportedHole.State.ENTERED


def test_a_write_on_an_old_version_is_refused_with_the_newer_hole(club_night, report):
    cn = club_night
    enter(report, cn.member, 1, [3, 4, 5], version=0)
    with pytest.raises(services.HoleConflict) as conflict:
        enter(report, cn.others[0], 1, [3, 9, 5], version=0)
    assert conflict.value.hole.strokes == [3, 4, 5]
    assert conflict.value.hole.entered_by == cn.member
    # Knowing the other figure, the player chooses to overwrite it.
    hole = enter(report, cn.others[0], 1, [3, 9, 5], version=conflict.value.hole.version)
    assert hole.strokes == [3, 9, 5] and hole.version == 2
    with pytest.raises(services.HoleConflict):  # a confirmation of what was seen before
        services.confirm_hole(report=report, number=1, version=1, by=cn.others[1])


def test_a_change_to_a_confirmed_hole_needs_a_reason_and_is_logged_once_confirmed(
    club_night, report
):
    cn = club_night
    enter(report, cn.member, 1, [3, 4, 5])
    confirm(report, cn.others[0], 1)
    with pytest.raises(ValidationError, match="say why"):
        enter(report, cn.member, 1, [3, 4, 6])
    enter(report, cn.member, 1, [3, 4, 6], reason="Pia's 6 was misread")
    assert not ScoreCorrection.objects.exists()  # not until another player confirms
    confirm(report, cn.others[1], 1)
    correction = ScoreCorrection.objects.get()
    assert (correction.hole_number, correction.old_strokes, correction.new_strokes) == (1, 5, 6)
    assert correction.reason == "Pia's 6 was misread"
    assert correction.corrected_by == cn.member
    assert correction.scorecard.position == 2
    assert correction.league == cn.league


def test_a_change_after_the_results_are_in_corrects_the_card_and_the_ratings(
    club_night, report, django_capture_on_commit_callbacks
):
    cn = club_night
    play_all(cn, report, even_holes(30, 35, 40))
    mu = Rating.objects.get(league=cn.league, player=cn.member).mu
    enter(report, cn.others[1], 2, [12, 1, 1], reason="Mia's card said 12")
    with django_capture_on_commit_callbacks(execute=True):  # the re-rating's task runs
        confirm(report, cn.others[0], 2)
    card = table_of(cn).scorecards.get(position=0)
    assert card.holes.get(number=2).strokes == 12 and card.total == 41 and card.place == 3
    correction = ScoreCorrection.objects.get()
    assert (correction.old_strokes, correction.new_strokes) == (1, 12)
    assert correction.league == cn.league
    assert Rating.objects.get(league=cn.league, player=cn.member).mu < mu


def test_results_the_organiser_entered_are_corrected_the_same_way(club_night, report):
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    enter(report, cn.member, 1, [22, 27, 32])  # as on the cards: nothing to explain
    with pytest.raises(ValidationError, match="say why"):
        enter(report, cn.member, 1, [22, 27, 33])
    enter(report, cn.member, 1, [22, 27, 33], reason="Pia's first hole")
    confirm(report, cn.others[0], 1)
    assert table_of(cn).scorecards.get(position=2).total == 41
    assert ScoreCorrection.objects.count() == 1


def test_a_closed_season_takes_no_report(club_night, report):
    from django.utils import timezone

    cn = club_night
    cn.season.closed_at = timezone.now()
    cn.season.save()
    with pytest.raises(ValidationError, match="closed"):
        enter(report, cn.member, 1, [3, 4, 5])
    assert not report.holes.exists()

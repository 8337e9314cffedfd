"""Two phones write the same hole of a paper table at the same moment, each on its own
connection to PostgreSQL: one write lands, the other is told of it and changes nothing,
so no stroke is ever lost."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from leagues.models import ReportedHole, ScoreCorrection
from leagues.reporting import services
from tests.races import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def slow_check(monkeypatch):
    """Each write dwells between reading the hole and writing it, as a busy server
    might: without the lock both writers would read the same version and both write."""
    check = services.check_hole

    def slowly(**kwargs):
        time.sleep(0.3)
        return check(**kwargs)

    monkeypatch.setattr(services, "check_hole", slowly)


def _needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


def test_two_first_entries_of_a_hole_at_once_leave_one_and_tell_the_other(club_night, slow_check):
    _needs_postgresql()
    cn = club_night
    report = cn.night_table.report
    mine, theirs = [3, 4, 5], [3, 9, 5]

    def enter(by, strokes):
        return lambda: services.enter_hole(
            report=report, number=1, strokes=strokes, version=0, by=by
        )

    results = at_once(enter(cn.member, mine), enter(cn.others[0], theirs))
    conflicts = [r for r in results if isinstance(r, services.HoleConflict)]
    written = [r for r in results if isinstance(r, ReportedHole)]
    assert len(conflicts) == 1 and len(written) == 1, results
    hole = ReportedHole.objects.get(report=report, number=1)
    assert hole.version == 1 and hole.strokes == written[0].strokes
    # The writer refused is shown the figure that landed.
    assert conflicts[0].hole.strokes == hole.strokes


def test_two_changes_of_the_same_version_at_once_lose_no_stroke(club_night, slow_check):
    _needs_postgresql()
    cn = club_night
    report = cn.night_table.report
    services.enter_hole(report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.member)
    figures = {cn.others[0].pk: [3, 6, 5], cn.others[1].pk: [3, 4, 8]}

    def change(by):
        return lambda: services.enter_hole(
            report=report, number=1, strokes=figures[by.pk], version=1, by=by
        )

    results = at_once(change(cn.others[0]), change(cn.others[1]))
    conflicts = [r for r in results if isinstance(r, services.HoleConflict)]
    assert len(conflicts) == 1, results
    hole = ReportedHole.objects.get(report=report, number=1)
    assert hole.version == 2 and hole.strokes == figures[hole.entered_by_id]
    # The other writer, told, overwrites on purpose: the version moves on once more.
    loser = next(p for p in figures if p != hole.entered_by_id)
    assert conflicts[0].hole.strokes == hole.strokes
    services.enter_hole(
        report=report, number=1, strokes=figures[loser], version=2, by=type(cn.member)(pk=loser)
    )
    assert ReportedHole.objects.get(report=report, number=1).strokes == figures[loser]


def test_a_confirmation_and_a_change_at_once_never_confirm_unseen_strokes(club_night, slow_check):
    _needs_postgresql()
    cn = club_night
    report = cn.night_table.report
    services.enter_hole(report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.member)
    services.confirm_hole(report=report, number=1, version=1, by=cn.others[0])
    services.enter_hole(
        report=report, number=1, strokes=[3, 4, 6], version=2, by=cn.member, reason="misread"
    )

    results = at_once(
        lambda: services.confirm_hole(report=report, number=1, version=3, by=cn.others[1]),
        lambda: services.enter_hole(
            report=report, number=1, strokes=[3, 4, 7], version=3, by=cn.member, reason="no, 7"
        ),
    )
    conflicts = [r for r in results if isinstance(r, services.HoleConflict)]
    assert len(conflicts) == 1, results
    hole = ReportedHole.objects.get(report=report, number=1)
    if hole.state == ReportedHole.State.CONFIRMED:
        # The confirmation landed first: what it confirmed is what counts, and is logged.
        assert hole.confirmed_strokes == [3, 4, 6]
        assert ScoreCorrection.objects.get().new_strokes == 6
    else:
        # The change landed first: nothing was confirmed that the confirmer had not seen.
        assert hole.strokes == [3, 4, 7] and hole.confirmed_strokes == [3, 4, 5]
        assert not ScoreCorrection.objects.exists()

"""An online round's opening and play-out run by two processes at the same moment: each
happens once, and the round's results and ratings are written once."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from games.models import Table
from leagues.models import CardResult, RatingChange
from leagues.seasons.services import create_night
from leagues.seating import online
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_player, make_season
from tests.races import at_once

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

OPENS = datetime(2027, 3, 1, 18, 0, tzinfo=UTC)
DUE = OPENS + timedelta(days=7)


@pytest.fixture
def round_night():
    olive = make_player("olive")
    people = [make_player(f"m{n}", display_name=f"M{n}") for n in range(4)]
    league = make_league(make_club(organiser=olive, members=people))
    season = make_season(league, start=date(2026, 1, 1), end=date(2027, 12, 31))
    night = create_night(
        season=season,
        night_date=None,
        by=olive,
        online=True,
        move_time=86400,
        opens_at=OPENS,
        due_at=DUE,
    )
    night.players.set(people)
    seat_night(night=night, by=olive, seats_per_table=2)
    return night


def test_two_openings_at_once_tee_off_once(round_night):
    results = at_once(*[lambda: online.open_round(round_night.pk, now=OPENS)] * 2)
    assert sorted(results, key=str) == [False, True], results
    tables = Table.objects.filter(night_table__night=round_night)
    assert set(tables.values_list("status", flat=True)) == {Table.Status.PLAYING}
    # Each table dealt its first hole once.
    assert all(table.holes.count() == 1 for table in tables)


def test_two_play_outs_at_once_finish_every_table_and_write_its_results_once(round_night):
    online.open_round(round_night.pk, now=OPENS)
    results = at_once(*[lambda: online.run_due_rounds(now=DUE)] * 2)
    assert sorted(results) == [(0, 0), (0, 1)], results
    tables = Table.objects.filter(night_table__night=round_night)
    assert set(tables.values_list("status", flat=True)) == {Table.Status.FINISHED}
    assert CardResult.objects.filter(night_table__night=round_night).count() == 4
    assert RatingChange.objects.filter(night_table__night=round_night).count() == 4
    round_night.refresh_from_db()
    assert round_night.played_out_at == DUE

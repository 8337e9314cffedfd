"""The day a league night is over by, said once (`LeagueNight.objects.with_last_day`), and
the calendar and the morning-after mail that read it, for each kind of night."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from leagues.calendar.notices import nights_with_results
from leagues.calendar.selectors import nights_to_come_and_past
from leagues.models import LeagueNight
from leagues.results.services import enter_night_results
from tests.factories import even_holes, make_night, open_table

# Run on PostgreSQL too: the day is worked out by the database, in the current time zone.
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

MARCH_1 = date(2026, 3, 1)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


@pytest.fixture
def nights(club_night) -> dict[str, LeagueNight]:
    """A night of each kind, each on 1 March: the online rounds open at 18:00 UTC."""
    season = club_night.season

    def round_(**fields) -> LeagueNight:
        return make_night(season, MARCH_1, online=True, move_time=3600, **fields)

    return {
        "plain": club_night.night,
        "plain, with a due time left from a round": make_night(season, MARCH_1, due_at=at(4, 20)),
        "round due on the 4th at 20:00 UTC": round_(opens_at=at(1, 18), due_at=at(4, 20)),
        "round due on the 4th at 23:30 UTC": round_(opens_at=at(1, 18), due_at=at(4, 23, 30)),
        "round with no due time yet": round_(opens_at=at(1, 18)),
    }


@pytest.mark.parametrize(
    "zone, due_at_20, due_at_23",
    [("UTC", 4, 4), ("Europe/Berlin", 4, 5), ("Pacific/Auckland", 5, 5), ("America/Lima", 4, 4)],
)
def test_a_night_is_over_by_its_date_and_a_round_by_its_due_day_in_the_current_time_zone(
    nights, zone, due_at_20, due_at_23
):
    with timezone.override(ZoneInfo(zone)):
        days = dict(LeagueNight.objects.with_last_day().values_list("pk", "last_day"))
        dues = LeagueNight.objects.filter(online=True, due_at__isnull=False)
        due_days = {night.pk: timezone.localdate(night.due_at) for night in dues}
    assert [days[night.pk].day for night in nights.values()] == [1, 1, due_at_20, due_at_23, 1]
    assert len(due_days) == 2 and all(days[pk] == day for pk, day in due_days.items())


def test_the_calendar_lists_each_night_to_come_through_its_last_day_and_played_after(nights):
    league = next(iter(nights.values())).season.league
    last_days = dict(LeagueNight.objects.with_last_day().values_list("pk", "last_day"))
    for name, night in nights.items():
        upcoming, past, _ = nights_to_come_and_past(league, last_days[night.pk])
        assert night in upcoming and night not in past, name
        upcoming, past, _ = nights_to_come_and_past(league, last_days[night.pk] + timedelta(1))
        assert night in past and night not in upcoming, name


def test_the_results_mail_goes_the_morning_after_each_night_s_last_day(club_night, nights):
    cn = club_night
    for night in nights.values():
        table = cn.night_table if night == cn.night else open_table(night, [cn.member, *cn.others])
        enter_night_results(night_table=table, hole_scores=even_holes(30, 35, 40), by=cn.organiser)
    last_days = dict(LeagueNight.objects.with_last_day().values_list("pk", "last_day"))
    for name, night in nights.items():
        last = last_days[night.pk]
        assert night not in nights_with_results(last), name
        assert night in nights_with_results(last + timedelta(days=1)), name
        assert night not in nights_with_results(last + timedelta(days=2)), name

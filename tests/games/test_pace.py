"""A turn-based table's clock (`games.pace`): deadlines, playing hours, breaks."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

from games import pace
from games.models import Table

PARIS = zoneinfo.ZoneInfo("Europe/Paris")


def table(**fields) -> Table:
    return Table(move_time=fields.pop("move_time", 86400), **fields)


def test_a_deadline_inside_the_playing_hours_stands():
    noon = datetime(2026, 6, 1, 12, tzinfo=PARIS)
    assert pace.into_playing_hours(noon, PARIS, (8, 22)) == noon


def test_a_deadline_in_the_night_moves_to_the_next_morning_in_the_players_zone():
    late = datetime(2026, 6, 1, 23, 30, tzinfo=PARIS)
    early = datetime(2026, 6, 2, 3, 0, tzinfo=PARIS)
    morning = datetime(2026, 6, 2, 8, 0, tzinfo=PARIS)
    assert pace.into_playing_hours(late, PARIS, (8, 22)) == morning
    assert pace.into_playing_hours(early, PARIS, (8, 22)) == morning
    # The end hour itself is outside: a deadline at 22:00 waits for the morning.
    at_end = datetime(2026, 6, 1, 22, 0, tzinfo=PARIS)
    assert pace.into_playing_hours(at_end, PARIS, (8, 22)) == morning


def test_playing_hours_may_run_past_midnight():
    one_am = datetime(2026, 6, 2, 1, 0, tzinfo=PARIS)
    noon = datetime(2026, 6, 2, 12, 0, tzinfo=PARIS)
    assert pace.into_playing_hours(one_am, PARIS, (18, 2)) == one_am
    assert pace.into_playing_hours(noon, PARIS, (18, 2)) == datetime(2026, 6, 2, 18, tzinfo=PARIS)


def test_a_seats_deadline_is_a_move_time_after_its_turn_began_in_its_own_zone():
    start = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)  # 22:00 in Paris, 13:00 in Los Angeles
    t = table(
        move_time=3600,
        playing_from=8,
        playing_until=22,
        clocks={"0": {"zone": "Europe/Paris"}, "1": {"zone": "America/Los_Angeles"}},
    )
    # 23:00 in Paris: the next morning there; 14:00 in Los Angeles: as it is.
    assert pace.seat_deadline(t, 0, start) == datetime(2026, 6, 2, 8, tzinfo=PARIS)
    assert pace.seat_deadline(t, 1, start) == start + timedelta(hours=1)


def test_an_unknown_zone_counts_as_the_sites(settings):
    settings.TIME_ZONE = "UTC"
    t = table(
        move_time=3600, playing_from=8, playing_until=22, clocks={"0": {"zone": "Mars/Olympus"}}
    )
    start = datetime(2026, 6, 1, 21, 30, tzinfo=UTC)
    assert pace.seat_deadline(t, 0, start) == datetime(2026, 6, 2, 8, tzinfo=UTC)
    assert not pace.valid_zone("Mars/Olympus")
    assert pace.valid_zone("Europe/Paris")


def test_a_break_starts_the_clock_at_the_players_return():
    start = datetime(2026, 6, 1, 12, tzinfo=UTC)
    back = start + timedelta(days=2)
    t = table(move_time=86400, clocks={"0": {"away_until": back.timestamp()}})
    assert pace.seat_deadline(t, 0, start) == back + timedelta(days=1)
    # A break over before the turn began changes nothing.
    assert pace.seat_deadline(t, 0, back + timedelta(hours=1)) == back + timedelta(days=1, hours=1)


def test_break_days_count_a_part_day_whole_and_within_the_tables_allowance():
    now = datetime(2026, 6, 1, 12, tzinfo=UTC)
    assert pace.break_days(now, now + timedelta(hours=1)) == 1
    assert pace.break_days(now, now + timedelta(days=2, hours=1)) == 3
    t = table(away_days=5, clocks={"0": {"away_days": 3}})
    assert pace.away_days_left(t, 0) == 2
    assert pace.away_days_left(t, 1) == 5

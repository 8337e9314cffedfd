"""A turn-based table's clock: when a move is due, and the breaks a player may take.

Pure functions over a table and the seats that wait: no database. `plays` asks
`turn_deadline` for every version of a turn-based table it derives, so a move, a deal
or a bot's move sets the next deadline in the same write; `pending` then has the
timer's bot move at it, as a live table's turn timer does.

The rules:
- a move is due `move_time` after the turn began (after the player's break, if they are
  away);
- with playing hours, a deadline never falls outside them in the player's time zone: one
  that would is moved to the next start of the playing hours, so nobody's move is
  played for them while they sleep;
- at a tee off, when several players wait at once, the latest of their deadlines holds
  for all of them;
- a break ("away until") counts whole days against the table's `away_days`, over the
  match.
"""

from __future__ import annotations

import math
import zoneinfo
from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta

from django.conf import settings

from games import engine
from games.engine import state_from_dict

from .models import Hole, Table

#: The longest break a table may allow a player over a match, in days.
MAX_AWAY_DAYS = 14


def zone_named(name: str | None) -> zoneinfo.ZoneInfo:
    """The time zone `name`, or the site's when it names none we know."""
    if name and valid_zone(name):
        return zoneinfo.ZoneInfo(name)
    return zoneinfo.ZoneInfo(settings.TIME_ZONE)


def valid_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone ("Europe/Paris")."""
    return isinstance(name, str) and len(name) <= 64 and name in _zones()


def zone_names() -> list[str]:
    """Every IANA time zone we know, in order: the choices of a player's profile."""
    return sorted(_zones())


def seat_zone(player, browser_zone: str) -> str:
    """The time zone a new seat of `player` keeps: the one chosen in their profile (the
    user model's `time_zone`), else the one their browser reports."""
    chosen = getattr(player, "time_zone", "")
    return chosen if chosen and valid_zone(chosen) else browser_zone


def _zones() -> frozenset[str]:
    global _ZONES
    if _ZONES is None:
        _ZONES = frozenset(zoneinfo.available_timezones())
    return _ZONES


_ZONES: frozenset[str] | None = None


def clock_of(table: Table, position: int) -> dict:
    """The clock of the seat at `position`: {"zone", "away_until" (a timestamp), "away_days"}."""
    return table.clocks.get(str(position), {})


def away_until(table: Table, position: int) -> datetime | None:
    """When the player at `position` is back from a break, if they took one."""
    stamp = clock_of(table, position).get("away_until")
    return datetime.fromtimestamp(stamp, tz=UTC) if stamp else None


def into_playing_hours(
    moment: datetime, zone: zoneinfo.ZoneInfo, hours: tuple[int, int]
) -> datetime:
    """`moment`, or the next start of the playing hours `hours` (first hour, hour they
    end; the end may pass midnight) in `zone` when `moment` falls outside them."""
    first, last = hours
    local = moment.astimezone(zone)
    hour = local.hour
    inside = first <= hour < last if first < last else (hour >= first or hour < last)
    if inside:
        return moment
    day = local.date()
    if first < last and hour >= last:
        day += timedelta(days=1)
    start = datetime.combine(day, time(first), tzinfo=zone)
    return start.astimezone(UTC)


def seat_deadline(table: Table, position: int, start: datetime) -> datetime:
    """When the move of the player at `position`, whose turn began at `start`, is due."""
    back = away_until(table, position)
    begins = max(start, back) if back is not None else start
    due = begins + timedelta(seconds=table.move_time)
    if table.playing_from is not None and table.playing_until is not None:
        zone = zone_named(clock_of(table, position).get("zone"))
        due = into_playing_hours(due, zone, (table.playing_from, table.playing_until))
    return due


def waiting_positions(hole: Hole | None, state: engine.HoleState | None) -> tuple[int, ...]:
    """The seats (positions) the hole waits on: every seat yet to tee off, or the one
    whose turn it is; none once the hole is over."""
    if hole is None or hole.finished_at is not None:
        return ()
    state = state or state_from_dict(hole.state)
    if state.phase == engine.OVER:
        return ()
    if state.phase == engine.TEE_OFF:
        return tuple(hole.seat_positions[s] for s, done in enumerate(state.teed_off) if not done)
    return (hole.seat_positions[state.turn],)


def people_waiting(
    table: Table, hole: Hole | None, state: engine.HoleState | None, bots: Iterable[int]
) -> tuple[int, ...]:
    """The seats the table waits on that a person plays (not a bot)."""
    if table.status != Table.Status.PLAYING:
        return ()
    bots = set(bots)
    return tuple(p for p in waiting_positions(hole, state) if p not in bots)


def turn_deadline(
    table: Table, hole: Hole | None, state: engine.HoleState | None, bots: Iterable[int]
) -> datetime | None:
    """The deadline of a turn-based table's version whose turn began at
    `table.turn_started_at`: the latest of its waiting players'; None for a live table
    or when no person is to move (a bot, the next deal, the match over)."""
    if not table.turn_based or table.turn_started_at is None:
        return None
    waiting = people_waiting(table, hole, state, bots)
    if not waiting:
        return None
    return max(seat_deadline(table, p, table.turn_started_at) for p in waiting)


def away_days_left(table: Table, position: int) -> int:
    """Days of break the player at `position` may still take in this match."""
    return max(0, table.away_days - clock_of(table, position).get("away_days", 0))


def break_days(now: datetime, until: datetime) -> int:
    """The whole days a break from `now` to `until` counts for (a part day counts whole)."""
    return max(1, math.ceil((until - now).total_seconds() / 86400))

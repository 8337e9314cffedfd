"""Tests' ways to move a table along and to read what it shows, through the app's
public doors: a table played out by its bots and timers, the driver's sweep done at
once, a frame rendered as a viewer's connection gets it, holes written on a card."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from games import autoplay, frames, scorecards, services, store
from games.engine.match import MatchStatus
from games.models import Table
from games.plays import pending
from games.selectors import current_hole


def play_out(*, table_id: int, limit: int = 100_000) -> Table:
    """Act for a table (bots, timers, deals) until it needs a person or ends, every
    wait treated as due now."""
    far = timezone.now() + timedelta(days=365)
    for _ in range(limit):
        table = Table.objects.get(pk=table_id)
        if pending(table, current_hole(table), table.seats.all()) is None:
            return table
        services.act_for_table(table_id=table_id, version=table.version, now=far)
    raise services.GameError("The table did not settle.")


def drive_due(
    now: datetime | None = None,
    keep_going: Callable[[], bool] = lambda: True,
    table_ids: Collection[int] | None = None,
) -> dict[int, float]:
    """The driver's sweep at `now`, on this thread: act at every table due, one after
    the other while `keep_going()`; the seconds until each table looked at falls due."""
    now = now or timezone.now()
    waits, due = autoplay.due_tables(now, table_ids)
    for table_id, version in due:
        if not keep_going():
            break
        with contextlib.suppress(services.GameError):  # another acted first
            services.act_for_table(table_id=table_id, version=version, now=now)
    return waits


def render_frame(table_id: int, user, alert: str = "", version: int | None = None) -> str:
    """Every live part of the table as `user` is sent it (`version`: the one just
    announced, if any), read from this process's memory or the database."""
    return "".join(frames._render(frames._read(table_id, version), user, alert).values())


async def live_frame(
    table_id: int, user, alert: str = "", version: int | None = None, news: dict | None = None
) -> str:
    """`render_frame` as a connection makes it, in the event loop (`frames.live_parts`)."""
    return "".join((await frames.live_parts(table_id, user, alert, version, news)).values())


def record_hole(*, table: Table, number: int, strokes: dict[int, int]) -> MatchStatus:
    """Write one hole's strokes (by seat position) on the table's cards, with totals and
    places, as the end of a live hole does."""
    before = scorecards.Grid.read(table)
    after = before.scored(number, strokes)
    with connection.cursor() as cursor:
        store.write_strokes(cursor, *after.changes(before, number))
    return after.status()


def record_paper_match(
    *,
    variant: str,
    players: Sequence,
    hole_scores: Sequence[Sequence[object]],
    host=None,
    deal_seed: int | None = None,
) -> Table:
    """A finished paper table in one step: seats, cards and validated holes."""
    with transaction.atomic():
        table = scorecards.open_paper_table(
            variant=variant, players=players, host=host, deal_seed=deal_seed
        )
        scorecards.record_paper_results(table=table, hole_scores=hole_scores)
    return table

"""Turn-based deadlines kept by the server: each overdue move played once, in order.

A turn-based table's deadline is a column (`Table.turn_deadline`), set by the write of
the version that began the turn (`plays`). Two ways play what falls due, and either
may run beside the other on any number of processes:

- the driver of every server process (`autoplay`) reads the tables due within its
  horizon and acts at each as it falls due, through `moves.act`;
- `play_overdue` (the `play_deadlines` command, for a deployment that wants it from
  cron, or after a machine was down) takes each overdue table under a row lock that
  other sweeps skip (`select_for_update(skip_locked=True)` on PostgreSQL), so that
  several sweeps share the work rather than race for it.

`sweep` (what the command runs) then tells the rooms that keep deadlines of their own
over tables (`keep_other_deadlines`, the signal `models.deadlines_swept`: an event's
rounds), which games knows nothing of; every task worker does so too, now and then
(`db_worker`), since a deployment runs those whether or not it runs this command.

Either way the move is written by `services.act_for_table` on condition of the version
read (`store.write`): a table acted on by someone else meanwhile refuses the second
write, so no move is played twice. A table overdue by an hour gets one move, and its
next player a whole move time from then: deadlines are never played ahead.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import connection, transaction
from django.utils import timezone

from . import services
from .models import Table, deadlines_swept

logger = logging.getLogger(__name__)


def overdue_tables(now: datetime, limit: int) -> list[int]:
    """The turn-based tables in play whose deadline has passed by `now`, oldest first."""
    return list(
        Table.objects.filter(status=Table.Status.PLAYING, turn_deadline__lte=now)
        .order_by("turn_deadline", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def play_overdue(*, now: datetime | None = None, limit: int = 500) -> int:
    """Play the move of every table whose deadline passed by `now` (the timer's bot, as a
    live table's turn timer does), each table once; returns the moves played.

    A table another sweep holds is skipped: that sweep plays it.
    """
    played = 0
    for table_id in overdue_tables(now or timezone.now(), limit):
        if play_deadline(table_id, now=now):
            played += 1
    return played


def sweep(*, now: datetime | None = None) -> int:
    """Play every overdue move (`play_overdue`, until none is left), then keep the
    deadlines other rooms keep (`keep_other_deadlines`); returns the moves played."""
    total = 0
    while played := play_overdue(now=now):
        total += played
    keep_other_deadlines(now=now)
    return total


def keep_other_deadlines(*, now: datetime | None = None) -> None:
    """Send `deadlines_swept` with `now`: the rooms that keep deadlines of their own over
    tables keep those passed. A receiver that fails is logged, and the others go on."""
    for receiver, error in deadlines_swept.send_robust(sender=Table, now=now or timezone.now()):
        if isinstance(error, Exception):
            logger.error("Deadlines kept by %s failed", receiver, exc_info=error)


def play_deadline(table_id: int, *, now: datetime | None = None) -> bool:
    """Play table `table_id`'s overdue move under its row lock; False when another sweep
    holds the table, its deadline moved on, or another process acted first."""
    now = now or timezone.now()
    skip = {"skip_locked": True} if connection.features.has_select_for_update_skip_locked else {}
    with transaction.atomic():
        row = (
            Table.objects.select_for_update(**skip)
            .filter(pk=table_id, status=Table.Status.PLAYING, turn_deadline__lte=now)
            .values_list("version", flat=True)
            .first()
        )
        if row is None:
            return False
        try:
            services.act_for_table(table_id=table_id, version=row, now=now)
        except services.GameError:
            return False
    return True

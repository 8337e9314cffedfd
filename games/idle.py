"""The idle-table sweep: live matches nobody has moved at for FAIRWAY_IDLE_HOURS end.

The driver runs it now and then (`autoplay.Driver.sweep_idle`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from . import announce
from .lobby import locked_table, touch
from .models import Table


def abandon_idle_tables(*, now: datetime | None = None) -> list[int]:
    """End the live matches at which nothing has happened for FAIRWAY_IDLE_HOURS.

    A match in play waits on a person only (bots, timers and deals are the driver's), so
    a table left that long was left by its players: it becomes abandoned, leaves the
    lists of tables in play and frees its host's place. A league night's table is the
    organiser's to finish and is left alone. Returns the tables abandoned.
    """
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.FAIRWAY_IDLE_HOURS)
    idle = Table.objects.filter(
        status=Table.Status.PLAYING,
        kind=Table.Kind.LIVE,
        move_time=0,  # a turn-based table waits days by design: its deadlines move it
        seats_assigned=False,
        turn_started_at__lt=cutoff,
    )
    abandoned = []
    for table_id in idle.values_list("pk", flat=True):
        with transaction.atomic():
            locked = locked_table(table_id)
            # A move may have come in since the query: the lock decides.
            if locked.status != Table.Status.PLAYING or locked.turn_started_at >= cutoff:
                continue
            locked.status = Table.Status.ABANDONED
            locked.finished_at = now
            touch(locked, now)
            locked.save(update_fields=["status", "finished_at", "version", "turn_started_at"])
            announce.table_changed(locked, wake=False)
        abandoned.append(table_id)
    return abandoned

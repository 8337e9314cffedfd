"""A turn-based event's round deadlines: at a round's deadline, every table of it not
finished is played out to its end by the turn timer's bot, the round closes and the next
is seated.

The deadlines sweep (`games.deadlines.sweep`, the `play_deadlines` command) tells
leagues that it ran (`games.models.deadlines_swept`, heard in `leagues.signals`);
`close_rounds_due` then closes every round whose deadline has passed. Each round is
closed under its event's row lock (`services.hold_event`), as an organiser closes one:
two sweeps at once go one after the other, and the second finds the round closed and
the next one seated. A table's last move played here ends its match as a player's
would (`match_finished`, its cards scored), in the same transaction.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.models import Table

from ..models import Event, EventRound
from . import selectors, services

logger = logging.getLogger(__name__)


def rounds_due(now: datetime) -> list[int]:
    """The rounds in play whose deadline passed by `now`, the oldest deadline first."""
    return list(
        EventRound.objects.filter(
            closed_at=None, deadline__lte=now, event__status=Event.Status.PLAYING
        )
        .order_by("deadline", "pk")
        .values_list("pk", flat=True)
    )


def close_rounds_due(*, now: datetime | None = None) -> int:
    """Close every round whose deadline passed by `now` (its tables played out first);
    how many this call closed. A round that fails is logged and left for the next sweep."""
    now = now or timezone.now()
    closed = 0
    for round_id in rounds_due(now):
        try:
            closed += close_round_due(round_id, now=now)
        except Exception:
            logger.exception("Round %s could not be closed at its deadline.", round_id)
    return closed


def close_round_due(round_id: int, *, now: datetime | None = None) -> bool:
    """Under its event's lock: play out the unfinished tables of round `round_id`, close
    it and seat what follows; False when it is not due or was closed meanwhile."""
    now = now or timezone.now()
    event_round = EventRound.objects.select_related("event").filter(pk=round_id).first()
    if event_round is None:
        return False
    with transaction.atomic():
        event = services.hold_event(event_round.event)
        current = selectors.current_round(event)
        if (
            event.status != Event.Status.PLAYING
            or current is None
            or current.pk != round_id
            or current.closed_at is not None
            or current.deadline is None
            or current.deadline > now
        ):
            return False
        for event_table in selectors.unfinished(selectors.round_tables(current)):
            if event_table.table.kind == Table.Kind.LIVE:
                game_services.play_to_end(event_table.table_id)
        services.close_held_round(event, current)
    return True

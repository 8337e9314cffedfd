"""An online round: a league night played at turn-based live tables between its opening
and its due time, each player moving when they like within the round's time per move.

- It is seated as any night (`services.seat_night`): its tables are live, turn-based at
  the round's time per move (`tables.open_table`'s `pace`), with the league's stand-in
  bot for a seat its player leaves.
- It opens (every table tees off) at its opening: at once when seated after it, else
  by `open_round` at its time, from the task queued for that time or from a sweep
  (`run_due_rounds`, `manage.py run_online_rounds`).
- At its due time every unfinished table is played out: each player's seat goes to the
  league's stand-in bot, as when a member leaves a live table mid-match (the league's
  stand-in rule says whether that result counts for them), and the bots play on to the
  end through `games.services.act_for_table`, the turn timer's and the driver's own
  path. The match's end scores and rates the table as any live night table's.

Each step happens once: it runs under the night's row lock (skipped by another run
holding it, on PostgreSQL) and marks the night (`opened_at`, `played_out_at`) in the same
transaction, so a second run, at the same moment or later, finds it done.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django_tasks import task

from games import lobby, pace
from games import services as game_services
from games.engine.match import HOLES
from games.models import Hole, Seat, Table
from games.tasks import enqueue_on_commit

from ..models import LeagueNight
from ..news import send_night_changed

logger = logging.getLogger(__name__)


def _locked(night_id: int, **due) -> LeagueNight | None:
    """The online round `night_id`'s row, locked, if it matches `due`; None when it does
    not, or another run holds it."""
    skip = {"skip_locked": True} if connection.features.has_select_for_update_skip_locked else {}
    return (
        LeagueNight.objects.select_for_update(**skip)
        .filter(pk=night_id, online=True, **due)
        .first()
    )


def _tee_off(night: LeagueNight) -> None:
    for night_table in night.tables.select_related("table"):
        table = night_table.table
        if table.kind == Table.Kind.LIVE and table.status == Table.Status.OPEN:
            lobby.start_match(table=table, by=None)


def open_round(night_id: int, *, now: datetime | None = None) -> bool:
    """Tee off every table of the online round `night_id` once its opening has come and
    it is seated; False when it is not due, not seated, or open already."""
    now = now or timezone.now()
    with transaction.atomic():
        night = _locked(night_id, opened_at__isnull=True, opens_at__lte=now)
        if night is None or not night.tables.exists():
            return False
        _tee_off(night)
        night.opened_at = now
        night.save(update_fields=["opened_at"])
    send_night_changed(night.pk)
    return True


def play_out(table: Table) -> None:
    """Hand every player's seat at `table` to its stand-in bot and let the bots play the
    match to its end (`games.services.play_to_end`)."""
    for seat in table.seats.filter(player__isnull=False, bot_level=""):
        game_services.leave_match(table=table, player=seat.player)
    game_services.play_to_end(table.pk)


def play_out_round(night_id: int, *, now: datetime | None = None) -> bool:
    """Play out every unfinished table of the online round `night_id` once it is due (a
    table that never teed off tees off first); False when it is not due, not seated, or
    played out already."""
    now = now or timezone.now()
    with transaction.atomic():
        night = _locked(night_id, played_out_at__isnull=True, due_at__lte=now)
        if night is None or not night.tables.exists():
            return False
        _tee_off(night)
        for night_table in night.tables.select_related("table"):
            if night_table.table.status == Table.Status.PLAYING:
                play_out(night_table.table)
        night.opened_at = night.opened_at or now
        night.played_out_at = now
        night.save(update_fields=["opened_at", "played_out_at"])
    send_night_changed(night.pk)
    return True


def run_due_rounds(*, now: datetime | None = None) -> tuple[int, int]:
    """Open the online rounds whose opening has come and play out those due: (opened,
    played out). Any number of runs may go at once: each round's step happens once."""
    now = now or timezone.now()
    rounds = LeagueNight.objects.filter(online=True)
    to_open = rounds.filter(opened_at__isnull=True, opens_at__lte=now, due_at__gt=now)
    due = rounds.filter(played_out_at__isnull=True, due_at__lte=now)
    opened = sum(open_round(pk, now=now) for pk in to_open.values_list("pk", flat=True))
    played = sum(play_out_round(pk, now=now) for pk in due.values_list("pk", flat=True))
    return opened, played


@task()
def open_round_task(night_id: int) -> bool:
    """The task queued for a round's opening."""
    return open_round(night_id)


@task()
def play_out_round_task(night_id: int) -> bool:
    """The task queued for a round's due time."""
    return play_out_round(night_id)


def queue_steps(night: LeagueNight) -> None:
    """Queue the round's opening and play-out for their times, once the caller's writes
    commit (a round moved later queues them again; a task that runs early finds nothing
    due). A backend that runs tasks only at once leaves them to the sweep."""
    if not night.online:
        return
    for step, when in ((open_round_task, night.opens_at), (play_out_round_task, night.due_at)):
        if when is not None and step.get_backend().supports_defer:
            enqueue_on_commit(step.using(run_after=when), night.pk)


# --- the round as its night's page shows it ------------------------------------------------


@dataclass(frozen=True)
class TableProgress:
    """One table of an online round: how far it is, who is to move, by when."""

    number: int
    table: Table
    holes_played: int
    to_move: list[str]
    deadline: datetime | None
    mine: bool


def progress(night: LeagueNight, viewer) -> list[TableProgress]:
    """Each table of the online round `night`: its holes played, whom it waits on and
    until when (nothing of the cards), and whether `viewer` sits at it. A few queries,
    whatever the number of tables."""
    night_tables = list(
        night.tables.select_related("table")
        .prefetch_related(Prefetch("table__seats", Seat.objects.select_related("player")))
        .order_by("number")
    )
    holes: dict[int, list[Hole]] = {}
    for hole in Hole.objects.filter(table__in=[nt.table_id for nt in night_tables]).order_by(
        "number"
    ):
        holes.setdefault(hole.table_id, []).append(hole)
    shown = []
    for night_table in night_tables:
        table = night_table.table
        seats = list(table.seats.all())
        played = holes.get(table.pk, [])
        bots = [seat.position for seat in seats if seat.bot_level]
        waiting = set(pace.people_waiting(table, played[-1] if played else None, None, bots))
        shown.append(
            TableProgress(
                number=night_table.number,
                table=table,
                holes_played=min(sum(h.finished_at is not None for h in played), HOLES),
                to_move=[seat.name for seat in seats if seat.position in waiting],
                deadline=table.turn_deadline if waiting else None,
                mine=any(seat.player_id == viewer.pk for seat in seats if seat.player_id),
            )
        )
    return shown

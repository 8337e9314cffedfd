"""The play path: the one way a table changes in play.

A change in play (a move, a bot's, the timer's, a deal, the end of a hole or of the
match, a seat handed to a bot or taken back) is derived from the table as it stands
(`plays`) and written on condition that the table is still at the version it was
derived from (on PostgreSQL with the one statement of `store.write_statement`); then
it is announced to the table's group. That statement is sent from one of two places, and
`moves` alone chooses which: from a move thread (`_change`, which reads the table when
the caller holds no copy of it, and retries on the table as it stands), or, for a
move in the middle of a hole on the version the caller's process holds, from the
event loop (`loop_step`, `loop_writes`, `written`). Either way the step, its rows
(`rows`) and its announcement (`_announce`) are the same. A refusal raises
`GameError` with a sentence a player can read, and changes nothing.

A table before and after its match changes in `lobby`; idle matches end in `idle`.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.utils import timezone

from games.engine import state_to_dict

from . import announce, metrics, plays, selectors, store
from .models import Hole, Table, hole_finished, match_finished
from .plays import TIMER_BOT_LEVEL, GameError, StaleVersion, pending

__all__ = ["GameError", "StaleVersion", "TIMER_BOT_LEVEL"]

STALE = "The table had moved on: here it is as it stands now."


class KeptCopy(Protocol):
    """The table at the version a player moves on, as the caller's process holds it."""

    in_play: plays.TableInPlay

    def ahead(self, step: plays.Step) -> None:
        """`step` is being written: render its frames ahead (called from the thread
        that writes it)."""


@dataclass(frozen=True)
class MoveResult:
    """What an applied move did: the table's new version and whether a hole or match ended."""

    table_id: int
    version: int
    hole_over: bool = False
    match_over: bool = False
    #: The news of the move or deal, as announced (see `announce.table_changed`); None
    #: when other processes read the table instead (the match ended, a seat changed hands).
    news: dict | None = None


# --- play: every change in play takes one way -------------------------------------------


def apply_move(
    *, table_id: int, player, action: dict, version: int, kept: KeptCopy | None = None
) -> MoveResult:
    """Apply `player`'s action if `version` is the table's current one; else refuse.

    `kept`: the table at `version` as the caller's process holds it (see `_change`).
    """
    if player is None or player.pk is None:
        raise GameError("You are watching: only players at the table can move.")

    def step(in_play: plays.TableInPlay) -> plays.Step:
        position = in_play.position_of(player.pk)
        if position is None:
            raise GameError("You are watching: only players at the table can move.")
        return plays.play(in_play, position, action, at=timezone.now())

    return _change(table_id, version, step, kept=kept)


def loop_step(kept: KeptCopy, *, player, action: dict, version: int) -> plays.Step | None:
    """`player`'s move derived on the table `kept` by the caller's process, if it may be
    written from the event loop (`moves.play`): a move in the middle of a hole on the
    version kept. None for anything else (a refusal too: the table as it stands decides
    on a move thread)."""
    in_play = kept.in_play
    if in_play.table.turn_based:
        return None  # its deadline and turns told are written and sent from a move thread
    position = in_play.position_of(player.pk)
    if position is None or in_play.table.version != version:
        return None
    with contextlib.suppress(GameError):
        step = plays.play(in_play, position, action, at=timezone.now())
        if step.moves and not (
            step.hole_over or step.match_over or step.dealt or step.seats_changed
        ):
            return step
    return None


def written(step: plays.Step) -> MoveResult:
    """Announce `step`, committed already by a write from the event loop."""
    return _announce(step, written=True)


def next_hole(*, table_id: int, version: int, by=None, kept: KeptCopy | None = None) -> MoveResult:
    """Deal the next hole after a finished one (a player's "Next hole", or the driver)."""

    def step(in_play: plays.TableInPlay) -> plays.Step:
        if by is not None and in_play.position_of(by.pk) is None:
            raise GameError("You are watching: only players at the table can deal.")
        return plays.deal(in_play, timezone.now())

    return _change(table_id, version, step, kept=kept)


def act_for_table(*, table_id: int, version: int, now: datetime | None = None) -> MoveResult:
    """Do what the table waits for if it is due by `now`: a bot's move, a timer move or
    the next deal. The caller passes the version it read, so two processes never act
    twice."""
    now = now or timezone.now()

    def step(in_play: plays.TableInPlay) -> plays.Step:
        seats = list(in_play.seats.values())
        waiting = pending(in_play.table, in_play.hole, seats, in_play.state)
        if waiting is None or waiting.due > now:
            raise GameError("Nothing is due at this table.")
        if waiting.kind == "deal":
            return plays.deal(in_play, timezone.now())
        return plays.bot_turn(in_play, waiting.positions, timezone.now())

    return _change(table_id, version, step, stale="Someone else acted first.")


#: Steps `play_to_end` takes at most: a match of nine holes and its playoffs takes a few
#: hundred.
MOST_STEPS = 20_000


def play_to_end(table_id: int) -> Table:
    """Play table `table_id`'s match to its end as its deadlines would, every wait taken
    as over: the bots and the turn timer's bot move for each seat in turn, the next
    holes are dealt. A move someone else wrote meanwhile is followed, not played twice.
    For a round's deadline (an online round's, an event round's)."""
    beyond = timezone.now() + timedelta(days=3650)
    for _ in range(MOST_STEPS):
        table = Table.objects.get(pk=table_id)
        if pending(table, selectors.current_hole(table), table.seats.all()) is None:
            return table
        try:
            act_for_table(table_id=table_id, version=table.version, now=beyond)
        except GameError:
            continue  # moved on meanwhile: read it as it stands
    raise GameError(f"Table {table_id} was not played out.")


def _change(
    table_id: int,
    version: int | None,
    derive: Callable[[plays.TableInPlay], plays.Step | None],
    *,
    kept: KeptCopy | None = None,
    stale: str = STALE,
) -> MoveResult | None:
    """A change in play written from a move thread (`moves` chooses): read the table,
    check the caller's version (None: the caller asks of the table as it stands),
    derive the next version (`plays`; None: nothing to do), write it on condition that
    the table is still at the version read (`store.write`), then announce it.

    `kept`: the table at `version` as the caller's process holds it, which saves the
    read, and which renders the caller's process's frames of the step ahead while it
    is written (`KeptCopy.ahead`). Should the kept copy refuse the change or the write
    find the table moved on, the table as it stands decides.
    """
    in_play = kept.in_play if kept is not None else None
    fresh = False
    while True:
        if in_play is None:
            in_play, fresh = selectors.in_play(table_id), True
            if in_play is None:
                raise GameError("There is no such table.")
        if version is not None and in_play.table.version != version:
            raise StaleVersion(stale)
        try:
            step = derive(in_play)
        except GameError:
            if fresh:
                raise
            in_play = None
            continue
        if step is None:
            return None
        if kept is not None and not fresh:
            kept.ahead(step)
        hole_id = store.write(rows(step))
        if hole_id is not None:
            break
        if fresh and version is not None:
            raise StaleVersion(stale)
        in_play = None  # moved on meanwhile: the table as it stands decides
    if step.dealt:
        step.after.hole.pk = step.news["deal"]["hole"] = hole_id
    return _announce(step)


def _announce(step: plays.Step, *, written: bool = False) -> MoveResult:
    """Announce `step` once written (`written`: committed already, see
    `announce.table_changed`), and set off what its hole's or match's end sets off."""
    after = step.after
    wake = step.hole_over or step.dealt or after.table.turn_timer > 0 or after.table.turn_based
    wake = wake or any(seat.bot_level for seat in after.seats.values())
    announce.table_changed(after.table, wake=wake, news=step.news, written=written)
    if step.moves:
        metrics.moves.inc(len(step.moves))
    if step.dealt:
        metrics.deals.inc()
    if after.table.turn_based:
        passed = plays.turn_passed_to(step.before, after)
        seats = [(p, after.seats[p].player_id) for p in passed if after.seats[p].player_id]
        announce.turns_passed(after.table, seats)
    # Announced first: what the hole's or the match's end sets off (reviews, a league's
    # ratings) comes after the players have the move.
    if step.hole_over:
        hole_finished.send(sender=Hole, hole=after.hole, seats=after.seats, table=after.table)
    if step.match_over:
        match_finished.send(sender=Table, table=after.table)
    return MoveResult(
        after.table.pk,
        after.table.version,
        hole_over=step.hole_over,
        match_over=step.match_over,
        news=step.news,
    )


def rows(step: plays.Step) -> store.Change:
    """The rows that write `step`, from a move thread or the event loop."""
    before, after = step.before, step.after
    table_fields = ["version", "turn_started_at"]
    if after.table.turn_based:
        table_fields.append("turn_deadline")
    if step.match_over:
        table_fields += ["status", "finished_at"]
    bots = step.seats_changed
    if not step.moves and not step.dealt:  # a seat changing hands
        return store.Change(before.table.version, after.table, table_fields, None, [], bots=bots)
    hole = copy.copy(after.hole)
    hole.state = state_to_dict(after.state)
    if step.dealt:
        return store.Change(before.table.version, after.table, table_fields, hole, None)
    hole_fields = ["state", "version"]
    strokes, results = (), ()
    if step.hole_over:
        hole_fields += ["scores", "finished_at"]
        strokes, results = after.grid.changes(before.grid, hole.number)
    return store.Change(
        before.table.version,
        after.table,
        table_fields,
        hole,
        hole_fields,
        moves=step.moves,
        strokes=strokes,
        results=results,
        bots=bots,
    )


def leave_match(*, table: Table, player) -> None:
    """Hand `player`'s seat to a bot for the rest of the match; acting again takes it back.

    The bot is the table's stand-in level if it has one, else the timer's.
    """

    def step(in_play: plays.TableInPlay) -> plays.Step | None:
        if in_play.table.status != Table.Status.PLAYING:
            raise GameError("The match is not in play.")
        position = in_play.position_of(player.pk)
        if position is None:
            raise GameError("You have no seat at this table.")
        if in_play.seats[position].bot_level:
            return None
        level = in_play.table.stand_in_level or TIMER_BOT_LEVEL
        return plays.hand_over(in_play, position, level, timezone.now())

    _change(table.pk, None, step)
    table.refresh_from_db()


def return_to_match(*, table: Table, player) -> None:
    """Take back a seat a bot was keeping for `player`."""

    def step(in_play: plays.TableInPlay) -> plays.Step | None:
        position = in_play.position_of(player.pk)
        if position is None:
            raise GameError("You have no seat at this table.")
        if not in_play.seats[position].bot_level:
            return None
        if in_play.table.status != Table.Status.PLAYING:
            return None
        return plays.hand_over(in_play, position, "", timezone.now())

    _change(table.pk, None, step)
    table.refresh_from_db()

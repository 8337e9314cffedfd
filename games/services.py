"""The one door through which a game changes.

Every write to a table goes through these functions, and moves its version on. A
table before or after its match changes with its row locked, in one transaction; a
change in play (a move, a bot's, the timer's, a deal, the end of a hole or of the
match, a seat handed to a bot or taken back) takes one way, `_change`: read, check
the caller's version, derive (`plays`), write on condition of the version
(`store.write`), announce. The new version is announced to the table's
group after the commit. A refusal raises `GameError` with a sentence a player can
read, and changes nothing.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from channels.db import DatabaseSyncToAsync, database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connections, transaction
from django.utils import timezone

from games import engine
from games.engine import state_to_dict
from games.engine.bots import BOT_LEVELS
from games.engine.match import choose_first_dealer

from . import announce, loop_writes, plays, selectors, store
from .models import Hole, Scorecard, Seat, Table, hole_finished, match_finished
from .plays import TIMER_BOT_LEVEL, GameError, StaleVersion, pending
from .scorecards import correct_hole, open_scorecards

__all__ = ["GameError", "StaleVersion", "TIMER_BOT_LEVEL"]

logger = logging.getLogger(__name__)

SEATS_ASSIGNED = "The organiser assigns the seats at this table."
STALE = "The table had moved on: here it is as it stands now."


class Holding(Protocol):
    """The table at the version a player moves on, as the caller's process holds it."""

    snapshot: plays.Snapshot

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


def _touch(table: Table, now: datetime | None = None) -> None:
    table.version += 1
    table.turn_started_at = now or timezone.now()


# --- before the match -----------------------------------------------------------------------


def create_table(
    *,
    host,
    variant: str,
    seat_count: int,
    bots: dict[int, str] | None = None,
    players: Sequence = (),
    is_public: bool = True,
    turn_timer: int = 0,
    deal_seed: int | None = None,
    seats_assigned: bool = False,
    stand_in_level: str = "",
    house_rules: Sequence[str] = (),
) -> Table:
    """Open a table: `players` fill free seats from 0 in order; `bots` maps position -> level.

    `house_rules` are keys of the game's house rules, which the whole match plays by.

    With `seats_assigned` the seating is final: players neither join nor leave the table.
    `stand_in_level` is the bot that plays a seat its player leaves (empty: the usual one).
    """
    if not isinstance(variant, str) or variant not in engine.VARIANTS:
        raise GameError("Choose one of the games on offer.")
    try:
        rules = engine.with_house_rules(variant, house_rules)
    except ValueError as error:
        raise GameError(str(error)) from None
    if not rules.min_players <= seat_count <= rules.max_players:
        raise GameError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    bots = dict(bots or {})
    for position, level in bots.items():
        if not 0 <= position < seat_count:
            raise GameError(f"There is no seat {position + 1} at a {seat_count}-seat table.")
        if level not in BOT_LEVELS:
            raise GameError(f"Bots play at one of these levels: {', '.join(BOT_LEVELS)}.")
    if stand_in_level and stand_in_level not in BOT_LEVELS:
        raise GameError(f"Bots play at one of these levels: {', '.join(BOT_LEVELS)}.")
    free = [p for p in range(seat_count) if p not in bots]
    players = list(players)
    if len(players) > len(free):
        raise GameError("There are more players than free seats.")
    if len({getattr(p, "pk", p) for p in players}) != len(players):
        raise GameError("A player takes one seat only.")
    if turn_timer not in Table.Timer.values:
        raise GameError("The turn timer is off, 30 s, 60 s or 2 minutes.")
    with transaction.atomic():
        if not seats_assigned:
            _check_hosting(host)
        fields = {"deal_seed": deal_seed} if deal_seed is not None else {}
        table = Table.objects.create(
            variant=variant,
            house_rules=list(rules.house_rule_keys),
            host=host,
            seat_count=seat_count,
            is_public=is_public,
            turn_timer=turn_timer,
            seats_assigned=seats_assigned,
            stand_in_level=stand_in_level,
            **fields,
        )
        seated = dict(zip(free, players, strict=False))
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=position,
                player=seated.get(position),
                bot_level=bots.get(position, ""),
            )
            for position in range(seat_count)
        )
        announce.table_changed(table)
    return table


def _check_hosting(host) -> None:
    """Refuse a new table to a host who already has FAIRWAY_MAX_HOSTED_TABLES open or in
    play. A league's tables (seats assigned by the organiser) do not count."""
    if host is None:
        return
    limit = settings.FAIRWAY_MAX_HOSTED_TABLES
    # The host's row lock makes one host's requests count one after another.
    list(get_user_model().objects.select_for_update().filter(pk=host.pk).values_list("pk"))
    hosted = Table.objects.filter(
        host=host,
        kind=Table.Kind.LIVE,
        seats_assigned=False,
        status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    )
    if hosted.count() >= limit:
        raise GameError(
            f"You already have {limit} table{'' if limit == 1 else 's'} open or in play. "
            "Finish one, or leave it, before you open another."
        )


def _locked(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError("There is no such table.") from None


def correct_scorecard(*, scorecard: Scorecard, number: int, strokes: int) -> int:
    """`scorecards.correct_hole` under the table's lock; the old strokes back.

    A table in play moves to a new version without news, so that its viewers read the
    corrected card at once rather than add the next hole to the card they hold.
    """
    with transaction.atomic():
        table = _locked(scorecard.table_id)
        old = correct_hole(scorecard=scorecard, number=number, strokes=strokes)
        if table.status == Table.Status.PLAYING:
            table.version += 1
            table.save(update_fields=["version"])
            announce.table_changed(table, wake=False)
    return old


def join_table(*, table: Table, player, position: int | None = None) -> Seat:
    """Sit `player` at a free seat (the first free one unless `position` is given)."""
    with transaction.atomic():
        locked = _locked(table.pk)
        if locked.seats_assigned:
            raise GameError(SEATS_ASSIGNED)
        if locked.status != Table.Status.OPEN:
            raise GameError("This table has already started.")
        seats = list(locked.seats.select_for_update().order_by("position"))
        if any(seat.player_id == player.pk for seat in seats):
            raise GameError("You already have a seat at this table.")
        if position is not None and not 0 <= position < locked.seat_count:
            raise GameError("There is no such seat at this table.")
        free = [s for s in seats if s.player_id is None and not s.bot_level]
        if position is not None:
            free = [s for s in free if s.position == position]
        if not free:
            raise GameError("That seat is taken." if position is not None else "The table is full.")
        seat = free[0]
        seat.player = player
        seat.save(update_fields=["player"])
        _touch(locked)
        locked.save(update_fields=["version", "turn_started_at"])
        announce.table_changed(locked)
    table.refresh_from_db()
    return seat


def leave_table(*, table: Table, player) -> None:
    """Give up `player`'s seat before the match starts.

    A host who leaves hands the table to the next person seated after them, going round
    the seats, who may then start the match; with no one left the table closes (and
    stops counting against the host's limit).
    """
    with transaction.atomic():
        locked = _locked(table.pk)
        if locked.seats_assigned:
            raise GameError(SEATS_ASSIGNED)
        if locked.status != Table.Status.OPEN:
            raise GameError("The match has started: seats are fixed until it ends.")
        seats = list(locked.seats.select_for_update().order_by("position"))
        left = next((s for s in seats if s.player_id == player.pk), None)
        if left is None:
            raise GameError("You have no seat at this table.")
        left.player = None
        left.save(update_fields=["player"])
        _touch(locked)
        fields = ["version", "turn_started_at"]
        if locked.host_id == player.pk:
            # Round the table from the host's seat: the first person still sitting.
            here = seats.index(left)
            after = seats[here + 1 :] + seats[:here]
            heir = next((s.player_id for s in after if s.player_id and not s.bot_level), None)
            if heir is None:
                locked.status = Table.Status.ABANDONED
                fields.append("status")
            else:
                locked.host_id = heir
                fields.append("host")
        locked.save(update_fields=fields)
        announce.table_changed(locked)
    table.refresh_from_db()


def start_match(*, table: Table, by) -> Table:
    """The host starts the match once every seat is taken (bots count): deal hole 1."""
    with transaction.atomic():
        locked = _locked(table.pk)
        if by is not None and locked.host_id != by.pk:
            raise GameError("Only the host can start the match.")
        if locked.status != Table.Status.OPEN:
            raise GameError("This match has already started.")
        seats = list(locked.seats.all())
        if any(s.player_id is None and not s.bot_level for s in seats):
            raise GameError("Wait until every seat is taken.")
        now = timezone.now()
        dealer, _rounds = choose_first_dealer(locked.rules, locked.seat_count, locked.deal_seed)
        locked.first_dealer = dealer
        locked.status = Table.Status.PLAYING
        locked.started_at = now
        open_scorecards(table=locked)
        hole = plays.new_hole(locked, 1, list(range(locked.seat_count)), now)
        state = plays.hole_state(locked, hole)
        hole.state, hole.version = state_to_dict(state), state.version
        hole.save()
        _touch(locked, now)
        locked.save()
        announce.table_changed(locked)
    table.refresh_from_db()
    return table


def rematch(*, table: Table, by) -> Table:
    """A new match at a new table with the same seats, variant and settings."""
    if table.status != Table.Status.FINISHED:
        raise GameError("A rematch comes after the match is over.")
    seats = list(table.seats.order_by("position"))
    if not any(s.player_id == by.pk for s in seats):
        raise GameError("Only the players of this match can ask for a rematch.")
    with transaction.atomic():
        # Under the old table's lock a request made at the same time waits, then finds
        # the first one's table; the database holds one rematch a table besides.
        existing = _locked(table.pk).rematches.first()
        if existing is not None:
            return existing
        _check_hosting(by)
        new = Table.objects.create(
            variant=table.variant,
            house_rules=table.house_rules,
            host=by,
            seat_count=table.seat_count,
            is_public=table.is_public,
            turn_timer=table.turn_timer,
            rematch_of=table,
        )
        Seat.objects.bulk_create(
            # A player who left the last match mid-way sits down again in person.
            Seat(
                table=new,
                position=s.position,
                player=s.player,
                bot_level="" if s.player_id else s.bot_level,
            )
            for s in seats
        )
        new = start_match(table=new, by=None)
        # The old table's page links to the new one.
        old = _locked(table.pk)
        _touch(old)
        old.save(update_fields=["version", "turn_started_at"])
        announce.table_changed(old)
    return new


# --- play: every change in play takes one way -------------------------------------------


def apply_move(
    *, table_id: int, player, action: dict, version: int, held: Holding | None = None
) -> MoveResult:
    """Apply `player`'s action if `version` is the table's current one; else refuse.

    `held`: the table at `version` as the caller's process holds it (see `_change`).
    """
    if player is None or player.pk is None:
        raise GameError("You are watching: only players at the table can move.")

    def step(snapshot: plays.Snapshot) -> plays.Step:
        position = snapshot.position_of(player.pk)
        if position is None:
            raise GameError("You are watching: only players at the table can move.")
        return plays.play(snapshot, position, action, at=timezone.now())

    return _change(table_id, version, step, held=held)


async def apply_move_on_loop(
    *, table_id: int, player, action: dict, version: int, held: Holding | None = None
) -> MoveResult:
    """`apply_move` for the event loop: a move in the middle of a hole on the version this
    process holds is derived, rendered ahead and written here (`loop_writes`); any
    other goes the one way, on a move thread."""
    if held is not None and player is not None and loop_writes.enabled():
        snapshot = held.snapshot
        position = snapshot.position_of(player.pk)
        step = None
        if position is not None and snapshot.table.version == version:
            with contextlib.suppress(GameError):  # the table as it stands decides
                step = plays.play(snapshot, position, action, at=timezone.now())
        if (
            step is not None
            and step.moves
            and not (step.hole_over or step.match_over or step.dealt or step.seats_changed)
        ):
            held.ahead(step)
            with contextlib.suppress(loop_writes.Unavailable):  # then on a move thread
                if await loop_writes.write(_rows(step)) is not None:
                    return _announce(step, written=True)
                held = None  # moved on meanwhile: the table as it stands decides
    return await move_call(apply_move)(
        table_id=table_id, player=player, action=action, version=version, held=held
    )


def next_hole(*, table_id: int, version: int, by=None, held: Holding | None = None) -> MoveResult:
    """Deal the next hole after a finished one (a player's "Next hole", or the driver)."""

    def step(snapshot: plays.Snapshot) -> plays.Step:
        if by is not None and snapshot.position_of(by.pk) is None:
            raise GameError("You are watching: only players at the table can deal.")
        return plays.deal(snapshot, timezone.now())

    return _change(table_id, version, step, held=held)


def act_for_table(*, table_id: int, version: int, now: datetime | None = None) -> MoveResult:
    """Do what the table waits for if it is due by `now`: a bot's move, a timer move or
    the next deal. The caller passes the version it read, so two processes never act
    twice."""
    now = now or timezone.now()

    def step(snapshot: plays.Snapshot) -> plays.Step:
        seats = list(snapshot.seats.values())
        waiting = pending(snapshot.table, snapshot.hole, seats, snapshot.state)
        if waiting is None or waiting.due > now:
            raise GameError("Nothing is due at this table.")
        if waiting.kind == "deal":
            return plays.deal(snapshot, timezone.now())
        return plays.bot_turn(snapshot, waiting.positions, timezone.now())

    return _change(table_id, version, step, stale="Someone else acted first.")


def _change(
    table_id: int,
    version: int | None,
    derive: Callable[[plays.Snapshot], plays.Step | None],
    *,
    held: Holding | None = None,
    stale: str = STALE,
) -> MoveResult | None:
    """The one way a table changes in play: read it, check the caller's version (None:
    the caller asks of the table as it stands), derive the next version (`plays`; None:
    nothing to do), write it on condition that the table is still at the version read
    (`store.write`), then announce it.

    `held`: the table at `version` as the caller's process holds it, which saves the
    read, and which renders the caller's process's frames of the step ahead while it
    is written (`Holding.ahead`). Should the held copy refuse the change or the write
    find the table moved on, the table as it stands decides.
    """
    snapshot = held.snapshot if held is not None else None
    fresh = False
    while True:
        if snapshot is None:
            snapshot, fresh = selectors.snapshot(table_id), True
            if snapshot is None:
                raise GameError("There is no such table.")
        if version is not None and snapshot.table.version != version:
            raise StaleVersion(stale)
        try:
            step = derive(snapshot)
        except GameError:
            if fresh:
                raise
            snapshot = None
            continue
        if step is None:
            return None
        if held is not None and not fresh:
            held.ahead(step)
        hole_id = store.write(_rows(step))
        if hole_id is not None:
            break
        if fresh and version is not None:
            raise StaleVersion(stale)
        snapshot = None  # moved on meanwhile: the table as it stands decides
    if step.dealt:
        step.after.hole.pk = step.news["deal"]["hole"] = hole_id
    return _announce(step)


def _announce(step: plays.Step, *, written: bool = False) -> MoveResult:
    """Announce `step` once written (`written`: committed already, see
    `announce.table_changed`), and set off what its hole's or match's end sets off."""
    after = step.after
    wake = step.hole_over or step.dealt or after.table.turn_timer > 0
    wake = wake or any(seat.bot_level for seat in after.seats.values())
    announce.table_changed(after.table, wake=wake, news=step.news, written=written)
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


def _rows(step: plays.Step) -> store.Change:
    """The rows that write `step`."""
    before, after = step.before, step.after
    table_fields = ["version", "turn_started_at"]
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


_move_threads: ThreadPoolExecutor | None = None


@functools.cache
def move_call(func: Callable) -> Callable:
    """`func` (a service that changes a table) as a coroutine for a consumer or the driver:
    on PostgreSQL on a few threads of its own, each with its own connection, so that a
    move waits neither for other tables' moves nor for the reads on the one database
    thread (the version keeps two moves of a table from both landing); on SQLite, one
    writer at a time, on the database thread."""
    global _move_threads
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    if _move_threads is None:
        _move_threads = ThreadPoolExecutor(
            max_workers=settings.FAIRWAY_MOVE_THREADS, thread_name_prefix="moves"
        )
    return DatabaseSyncToAsync(func, thread_sensitive=False, executor=_move_threads)


def leave_match(*, table: Table, player) -> None:
    """Hand `player`'s seat to a bot for the rest of the match; acting again takes it back.

    The bot is the table's stand-in level if it has one, else the timer's.
    """

    def step(snapshot: plays.Snapshot) -> plays.Step | None:
        if snapshot.table.status != Table.Status.PLAYING:
            raise GameError("The match is not in play.")
        position = snapshot.position_of(player.pk)
        if position is None:
            raise GameError("You have no seat at this table.")
        if snapshot.seats[position].bot_level:
            return None
        level = snapshot.table.stand_in_level or TIMER_BOT_LEVEL
        return plays.hand_over(snapshot, position, level, timezone.now())

    _change(table.pk, None, step)
    table.refresh_from_db()


def return_to_match(*, table: Table, player) -> None:
    """Take back a seat a bot was keeping for `player`."""

    def step(snapshot: plays.Snapshot) -> plays.Step | None:
        position = snapshot.position_of(player.pk)
        if position is None:
            raise GameError("You have no seat at this table.")
        if not snapshot.seats[position].bot_level:
            return None
        if snapshot.table.status != Table.Status.PLAYING:
            return None
        return plays.hand_over(snapshot, position, "", timezone.now())

    _change(table.pk, None, step)
    table.refresh_from_db()


def quick_start(*, player) -> Table:
    """A two-seat Play Nine table against a greedy bot, already dealt: a practice game,
    so it is not listed for spectators."""
    table = create_table(
        host=player,
        variant="play-nine",
        seat_count=2,
        bots={1: "greedy"},
        players=[player],
        is_public=False,
    )
    return start_match(table=table, by=player)


def open_to_watchers(*, table: Table, by) -> None:
    """The host lists a private table of their own among the tables being played, for
    anyone to watch (a quick game, say). A league night's tables stay private."""
    with transaction.atomic():
        locked = _locked(table.pk)
        if by is None or locked.host_id != by.pk:
            raise GameError("Only the host can open the table to watchers.")
        if locked.seats_assigned:
            raise GameError("A league night's tables are for its people only.")
        if locked.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            raise GameError("The match is over.")
        if locked.is_public:
            raise GameError("Anyone can watch this table already.")
        locked.is_public = True
        # A new version without touching the turn's clock: a timer runs on as it was.
        locked.version += 1
        locked.save(update_fields=["is_public", "version"])
        announce.table_changed(locked, wake=False)
    table.refresh_from_db()


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
        seats_assigned=False,
        turn_started_at__lt=cutoff,
    )
    abandoned = []
    for table_id in idle.values_list("pk", flat=True):
        with transaction.atomic():
            locked = _locked(table_id)
            # A move may have come in since the query: the lock decides.
            if locked.status != Table.Status.PLAYING or locked.turn_started_at >= cutoff:
                continue
            locked.status = Table.Status.ABANDONED
            locked.finished_at = now
            _touch(locked, now)
            locked.save(update_fields=["status", "finished_at", "version", "turn_started_at"])
            announce.table_changed(locked, wake=False)
        abandoned.append(table_id)
    return abandoned

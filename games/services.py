"""The one door through which a game changes.

Every write to a table goes through these functions: each runs in one transaction
with the table's row locked, checks the version the caller saw, asks the engine,
appends to the move log and only after the commit announces the new version to the
table's group on the channel layer. A refusal raises `GameError` with a sentence a
player can read, and changes nothing.
"""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from games import engine
from games.engine import describe_action, describe_turn, state_from_dict, state_to_dict
from games.engine.bots import BOT_LEVELS, choose_action
from games.engine.match import (
    HOLES,
    choose_first_dealer,
    dealer_for_hole,
    playoff_dealer,
    playoff_players,
)

from . import announce, store
from .models import Hole, Move, Scorecard, Seat, Table
from .scorecards import CardStrokes, correct_hole, open_scorecards, score_hole
from .selectors import TableData, pending

logger = logging.getLogger(__name__)

TIMER_BOT_LEVEL = "greedy"
SEATS_ASSIGNED = "The organiser assigns the seats at this table."


class Holding(Protocol):
    """The table at the version a player moves on, as the caller's process holds it,
    and what that process does with a move's news while the move is written (renders
    its viewers' frames ahead)."""

    data: TableData

    def foresee(self, version: int, news: dict) -> None: ...


class GameError(ValueError):
    """A refused request; `str(error)` is a sentence for the player."""


class StaleVersion(GameError):
    """The caller acted on an old picture of the table: nothing was applied."""


@dataclass(frozen=True)
class MoveResult:
    """What an applied move did: the table's new version and whether a hole or match ended."""

    table_id: int
    version: int
    hole_over: bool = False
    match_over: bool = False
    #: The news of the move or deal, as announced (see `_announce`); None when other
    #: processes read the table instead (the match ended, a seat changed hands).
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
) -> Table:
    """Open a table: `players` fill free seats from 0 in order; `bots` maps position -> level.

    With `seats_assigned` the seating is final: players neither join nor leave the table.
    """
    rules = engine.VARIANTS.get(variant)
    if rules is None:
        raise GameError("Choose one of the games on offer.")
    if not rules.min_players <= seat_count <= rules.max_players:
        raise GameError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    bots = dict(bots or {})
    for position, level in bots.items():
        if not 0 <= position < seat_count:
            raise GameError(f"There is no seat {position + 1} at a {seat_count}-seat table.")
        if level not in BOT_LEVELS:
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
            host=host,
            seat_count=seat_count,
            is_public=is_public,
            turn_timer=turn_timer,
            seats_assigned=seats_assigned,
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
    """Give up `player`'s seat before the match starts."""
    with transaction.atomic():
        locked = _locked(table.pk)
        if locked.seats_assigned:
            raise GameError(SEATS_ASSIGNED)
        if locked.status != Table.Status.OPEN:
            raise GameError("The match has started: seats are fixed until it ends.")
        updated = locked.seats.filter(player=player).update(player=None)
        if not updated:
            raise GameError("You have no seat at this table.")
        _touch(locked)
        fields = ["version", "turn_started_at"]
        if locked.host_id == player.pk and not locked.seats.filter(player__isnull=False).exists():
            # Its host left it empty of people: the table closes (and stops counting
            # against the host's limit).
            locked.status = Table.Status.ABANDONED
            fields.append("status")
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
        dealer, _rounds = choose_first_dealer(locked.variant, locked.seat_count, locked.deal_seed)
        locked.first_dealer = dealer
        locked.status = Table.Status.PLAYING
        locked.started_at = now
        open_scorecards(table=locked)
        _deal(locked, 1, list(range(locked.seat_count)))
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
    existing = table.rematches.first()
    if existing is not None:
        return existing
    with transaction.atomic():
        _check_hosting(by)
        new = Table.objects.create(
            variant=table.variant,
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


# --- the match --------------------------------------------------------------------------------


def _deal(table: Table, number: int, positions: list[int]) -> Hole:
    """Deal hole `number` to the seats at `positions`, the dealer moved left each hole."""
    hole = _new_hole(table, number, positions)
    hole.save()
    return hole


def _new_hole(table: Table, number: int, positions: list[int]) -> Hole:
    """Hole `number` dealt to the seats at `positions`, not saved yet (see `_deal`)."""
    dealer_position = dealer_for_hole(table.first_dealer or 0, number - 1, table.seat_count)
    # A playoff may deal fewer seats; the engine says who deals among them.
    dealer = playoff_dealer(dealer_position, positions, table.seat_count)
    seed = table.hole_seed(number)
    state = engine.new_hole(table.variant, len(positions), seed=seed, dealer=dealer)
    return Hole(
        table=table,
        number=number,
        dealer=positions[dealer],
        seed=seed,
        seat_positions=positions,
        state=state_to_dict(state),
        version=state.version,
    )


def _make_move(
    table: Table,
    hole: Hole,
    state: engine.HoleState,
    position: int,
    action: dict,
    *,
    by_bot: bool,
) -> tuple[engine.HoleState, Move]:
    """The hole's state after the action of the seat at `position`, and its log entry."""
    if position not in hole.seat_positions:
        raise GameError("You sit out this playoff hole.")
    seat = hole.seat_positions.index(position)
    try:
        after = engine.apply_action(state, seat, action)
    except engine.IllegalAction as error:
        raise GameError(str(error)) from None
    # A move that uses a drawn card tells the whole turn, so the log reads a line a turn.
    summary = describe_turn(state, seat, action, after) or describe_action(
        state, seat, action, after
    )
    if by_bot:
        person = table.seat_rows[position]
        if person.player_name is not None and not person.bot_level:
            summary += " (played by the timer)"
        elif person.player_name is not None:
            summary += f" (bot for {person.player_name})"
    move = Move(
        hole=hole,
        seq=after.version,
        seat=position,
        action=action,
        by_bot=by_bot,
        summary=summary[:200],
    )
    return after, move


def _move_news(hole: Hole, move: Move, now: datetime) -> dict:
    """The news of a plain move, for processes that hold the version before (`frames`)."""
    return {
        "move": {
            "hole": hole.pk,
            "seat": move.seat,
            "action": move.action,
            "summary": move.summary,
            "at": now.timestamp(),
        }
    }


def _play(
    table: Table,
    hole: Hole,
    position: int,
    action: dict,
    *,
    by_bot: bool,
    wake: bool = True,
    seats_changed: bool = False,
    commit: bool = False,
    foresee: Callable[[int, dict], None] | None = None,
) -> MoveResult:
    """Apply one action of the seat at `position` to `hole` (the table row is locked).

    `wake`: whether the table may wait on the server afterwards even mid-hole (it has a
    bot or a turn timer); a move `by_bot` needs the seats read (`table.seat_rows`).
    `seats_changed`: a seat changed hands in this transaction.
    `commit`: the caller began the transaction with a plain BEGIN (`apply_move`), so the
    COMMIT goes with the writes; a move that ends the match raises `_NeedsAtomic` first.
    `foresee`: told the news before the writes go (see `frames.Holding`).
    """
    after, move = _make_move(
        table, hole, state_from_dict(hole.state), position, action, by_bot=by_bot
    )
    now = timezone.now()
    hole.state = state_to_dict(after)
    hole.version = after.version
    hole_fields = ["state", "version"]
    table_fields = ["version", "turn_started_at"]
    hole_over = after.phase == engine.OVER
    match_over = False
    scoring = None
    if hole_over:
        hole.scores = list(after.scores)
        hole.finished_at = now
        hole_fields += ["scores", "finished_at"]
        strokes = dict(zip(hole.seat_positions, after.scores, strict=True))
        scoring = score_hole(
            table=table, number=hole.number, strokes=strokes, cards=getattr(table, "cards", None)
        )
        if scoring.status.over:
            if commit:
                raise _NeedsAtomic
            match_over = True
            table.status = Table.Status.FINISHED
            table.finished_at = now
            table_fields += ["status", "finished_at"]
    _touch(table, now)
    news = None if match_over or seats_changed else _move_news(hole, move, now)
    if foresee is not None and news is not None:
        foresee(table.version, news)
    with connection.cursor() as cursor, store.pipeline():
        store.insert(cursor, move)
        store.update(cursor, hole, hole_fields)
        if scoring is not None:
            scoring.write(cursor)
        if not match_over:
            store.update(cursor, table, table_fields)
        if commit:
            cursor.execute("COMMIT")
    if match_over:
        # Saved by the ORM so that its listeners (league ratings) hear the match end.
        table.save(update_fields=table_fields)
    announce.table_changed(table, wake=wake or hole_over, news=news)
    return MoveResult(
        table.pk, table.version, hole_over=hole_over, match_over=match_over, news=news
    )


def _lock_for_move(
    table_id: int,
    player_id: int | None,
    *,
    begin: bool = False,
    cards: bool = False,
    seat_rows: bool = False,
) -> tuple[Table | None, Hole | None]:
    """`store.lock_for_move`, its cards read as `CardStrokes` (`table.cards`)."""
    table, hole = store.lock_for_move(
        table_id, player_id, begin=begin, cards=cards, seat_rows=seat_rows
    )
    if table is not None and cards:
        table.cards = CardStrokes.from_rows(table.card_rows)
    return table, hole


class _MayEndMatch(Exception):
    """The move ends the ninth hole or a playoff's, as the caller's process holds the
    table, and so may end the match (see `_apply_held`)."""


class _NeedsAtomic(Exception):
    """The move does more than a transaction begun with a plain BEGIN takes on (see
    `apply_move`): roll back, and apply it again inside Django's transaction."""


def apply_move(
    *, table_id: int, player, action: dict, version: int, held: Holding | None = None
) -> MoveResult:
    """Apply `player`'s action if `version` is the table's current one; else refuse.

    On PostgreSQL a move costs two round trips to the database: BEGIN goes with the
    locking read, COMMIT with the writes (a hole's end takes one read of the scorecards
    between, unless the held copy below foresaw it and they came with the locking read).
    Django's transaction would cost two more, as the driver waits on BEGIN and on COMMIT
    alone, so the transaction is begun and ended with plain statements while Django
    stays in autocommit. Nothing inside may then use Django's `atomic`: the end of a
    match (its listeners save through the ORM) and a seat taken back from its bot roll
    back and go through Django's transaction instead, as every move does elsewhere.

    `held`: the table at `version` as the caller's process holds it (`frames`). A plain
    move made on it, or one ending a hole before the ninth, costs one round trip: one
    statement that writes it only if the table is still at that version
    (`_apply_held`), while the process renders its viewers' frames of the move ahead;
    else the move goes as above.
    """
    if player is None or player.pk is None:
        raise GameError("You are watching: only players at the table can move.")
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        cards = False
        if held is not None:
            try:
                result = _apply_held(table_id, player.pk, action, version, held)
            except _MayEndMatch:
                cards = True
            else:
                if result is not None:
                    return result
        try:
            return _apply(table_id, player.pk, action, version, commit=True, held=held, cards=cards)
        except _NeedsAtomic:
            store.roll_back()
        except BaseException:
            store.roll_back()
            raise
    with transaction.atomic():
        return _apply(table_id, player.pk, action, version)


def _apply(
    table_id: int,
    player_id: int,
    action: dict,
    version: int,
    *,
    commit: bool = False,
    held: Holding | None = None,
    cards: bool = False,
) -> MoveResult:
    """`apply_move` inside a transaction, begun with a plain BEGIN if `commit`; a move's
    frames are rendered ahead from `held` while it is written. `cards`: the move is
    expected to end the hole, so the scorecards are read with the lock."""
    table, hole = _lock_for_move(table_id, player_id, begin=commit, cards=cards)
    if table is None:
        raise GameError("There is no such table.")
    if table.my_position is None:
        raise GameError("You are watching: only players at the table can move.")
    if table.status != Table.Status.PLAYING or hole is None:
        raise GameError("The match is not in play.")
    if version != table.version:
        raise StaleVersion("The table had moved on: here it is as it stands now.")
    if hole.finished_at is not None:
        raise GameError("The hole is over: the next one is being dealt.")
    taken_back = bool(table.my_bot_level)
    if taken_back:
        if commit:
            raise _NeedsAtomic
        # A player who left the match takes the seat back by acting.
        Seat.objects.filter(table=table, position=table.my_position).update(bot_level="")
    return _play(
        table,
        hole,
        table.my_position,
        action,
        by_bot=False,
        wake=bool(table.turn_timer or table.has_bots),
        seats_changed=taken_back,
        commit=commit,
        foresee=held.foresee if held is not None else None,
    )


def _apply_held(
    table_id: int, player_id: int, action: dict, version: int, held: Holding
) -> MoveResult | None:
    """`apply_move` on the caller's copy of the table at `version`, in one statement, or
    None (nothing written) when the copy is not the table as it stands or the move does
    more than a plain move: a refusal, a seat taken back; `_MayEndMatch` (nothing written)
    when it ends the ninth hole or a playoff's, which may end the match.

    The statement updates the table's row only while it is at `version`, its hole at the
    held state's version and the player's seat the player's own; the hole and the log
    are written only if it did. Every writer of a table updates or locks its row first
    and moves its version on, so a move racing this one either finds the version gone
    and writes nothing, or is refused by it; and a table at `version` has the held hole
    and state, which the engine made from the same moves.

    A move that ends a hole before the ninth also writes the hole's strokes on the
    scorecards and their totals, summed from the strokes stored (as `score_hole` does,
    and no match is over before the ninth hole), in the same statement.
    """
    table, hole, seats = held.data.table, held.data.hole, held.data.seats
    if (
        table.pk != table_id
        or table.version != version
        or table.status != Table.Status.PLAYING
        or hole is None
        or hole.finished_at is not None
    ):
        return None
    seat = next((s for s in seats if s.player_id == player_id), None)
    if seat is None or seat.bot_level:
        return None
    try:
        after, move = _make_move(table, hole, held.data.state, seat.position, action, by_bot=False)
    except GameError:
        return None  # The full path says why, from the table as it stands.
    ends = after.phase == engine.OVER
    if ends and hole.number >= HOLES:
        raise _MayEndMatch
    table = copy.copy(table)
    _touch(table)
    move.created_at = now = table.turn_started_at
    state = Hole._meta.get_field("state").get_db_prep_save(state_to_dict(after), connection)
    values = [
        *(table.version, now, table.pk, version, Table.Status.PLAYING),
        *(hole.pk, hole.version, table.pk, seat.position, player_id),
        *(state, after.version),
    ]
    if ends:
        scores = Hole._meta.get_field("scores").get_db_prep_save(list(after.scores), connection)
        values += [scores, now]
    values.append(hole.pk)
    if ends:
        strokes = (list(hole.seat_positions), list(after.scores))
        values += [hole.number, *strokes, table.pk, hole.number, HOLES, *strokes, table.pk]
    values += [
        f.get_db_prep_save(getattr(move, f.attname), connection) for f in store.insert_fields(Move)
    ]
    news = _move_news(hole, move, now)
    held.foresee(table.version, news)
    with store.bound_cursor() as cursor:
        cursor.execute(store.held_move_sql(ends), values)
        if cursor.fetchone() is None:
            return None
    wake = bool(ends or table.turn_timer or any(s.bot_level for s in seats))
    announce.table_changed(table, wake=wake, news=news)
    return MoveResult(table.pk, table.version, hole_over=ends, news=news)


def leave_match(*, table: Table, player) -> None:
    """Hand `player`'s seat to a bot for the rest of the match; acting again takes it back."""
    with transaction.atomic():
        locked = _locked(table.pk)
        if locked.status != Table.Status.PLAYING:
            raise GameError("The match is not in play.")
        seat = locked.seats.select_for_update().filter(player=player).first()
        if seat is None:
            raise GameError("You have no seat at this table.")
        if not seat.bot_level:
            seat.bot_level = TIMER_BOT_LEVEL
            seat.save(update_fields=["bot_level"])
            _touch(locked)
            locked.save(update_fields=["version", "turn_started_at"])
            announce.table_changed(locked)
    table.refresh_from_db()


def return_to_match(*, table: Table, player) -> None:
    """Take back a seat a bot was keeping for `player`."""
    with transaction.atomic():
        locked = _locked(table.pk)
        seat = locked.seats.select_for_update().filter(player=player).first()
        if seat is None:
            raise GameError("You have no seat at this table.")
        if seat.bot_level and locked.status == Table.Status.PLAYING:
            seat.bot_level = ""
            seat.save(update_fields=["bot_level"])
            _touch(locked)
            locked.save(update_fields=["version", "turn_started_at"])
            announce.table_changed(locked)
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


def next_hole(*, table_id: int, version: int, by=None, held: Holding | None = None) -> MoveResult:
    """Deal the next hole after a finished one (a player's "Next hole", or the driver).

    On PostgreSQL in two round trips, as a move (see `apply_move`); the deal's frames
    are rendered ahead from `held` while it is written. A regulation hole dealt on the
    version the caller's process holds costs one round trip (`_deal_held`).
    """
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        if held is not None and by is not None:
            result = _deal_held(table_id, by.pk, version, held)
            if result is not None:
                return result
        try:
            return _next_hole(table_id, version, by, commit=True, held=held)
        except BaseException:
            store.roll_back()
            raise
    with transaction.atomic():
        return _next_hole(table_id, version, by, held=held)


def _next_hole(
    table_id: int, version: int, by, *, commit: bool = False, held: Holding | None = None
) -> MoveResult:
    table, hole = _lock_for_move(table_id, getattr(by, "pk", None), begin=commit, cards=True)
    if table is None:
        raise GameError("There is no such table.")
    if by is not None and table.my_position is None:
        raise GameError("You are watching: only players at the table can deal.")
    if version != table.version:
        raise StaleVersion("The table had moved on: here it is as it stands now.")
    if table.status != Table.Status.PLAYING or hole is None or hole.finished_at is None:
        raise GameError("There is no hole to deal now.")
    status = table.cards.status()
    positions = list(range(table.seat_count))
    if status.next_hole_is_playoff:
        positions = sorted(playoff_players(table.variant, status.contenders, table.seat_count))
    dealt = _new_hole(table, hole.number + 1, positions)
    _touch(table)
    deal = None
    if dealt.deck is None:
        deal = {
            "hole": None,  # known once written
            "number": dealt.number,
            "dealer": dealt.dealer,
            "seed": dealt.seed,
            "positions": dealt.seat_positions,
            "at": table.turn_started_at.timestamp(),
        }
        if held is not None:
            held.foresee(table.version, {"deal": deal})
    with connection.cursor() as hole_cursor, connection.cursor() as cursor:
        with store.pipeline():
            store.insert(hole_cursor, dealt, returning=True)
            store.update(cursor, table, ["version", "turn_started_at"])
            if commit:
                cursor.execute("COMMIT")
        dealt.pk = hole_cursor.fetchone()[0]
    dealt._state.adding = False
    news = None if deal is None else {"deal": {**deal, "hole": dealt.pk}}
    announce.table_changed(table, news=news)
    return MoveResult(table.pk, table.version, news=news)


def _deal_held(table_id: int, player_id: int, version: int, held: Holding) -> MoveResult | None:
    """`next_hole` asked for by a player on the caller's copy of the table at `version`,
    in one statement, or None (nothing written): the copy is not the table as it
    stands, the player has no seat, or the hole to deal may be a playoff's.

    Before the ninth hole every seat plays the next one, whatever the scorecards say,
    so the copy's hole is all the deal needs. The statement updates the table's row only
    while it is at `version` with that hole finished and the player seated, and inserts
    the new hole only if it did (see `_apply_held`).
    """
    table, hole = held.data.table, held.data.hole
    if (
        table.pk != table_id
        or table.version != version
        or table.status != Table.Status.PLAYING
        or hole is None
        or hole.finished_at is None
        or hole.number >= HOLES
        or not any(seat.player_id == player_id for seat in held.data.seats)
    ):
        return None
    table = copy.copy(table)
    dealt = _new_hole(table, hole.number + 1, list(range(table.seat_count)))
    if dealt.deck is not None:
        return None
    _touch(table)
    deal = {
        "number": dealt.number,
        "dealer": dealt.dealer,
        "seed": dealt.seed,
        "positions": dealt.seat_positions,
        "at": table.turn_started_at.timestamp(),
    }
    held.foresee(table.version, {"deal": {"hole": None, **deal}})
    values = [
        *(table.version, table.turn_started_at, table.pk, version, Table.Status.PLAYING),
        *(hole.pk, table.pk, player_id),
        *(
            f.get_db_prep_save(f.pre_save(dealt, True), connection)
            for f in store.insert_fields(Hole)
        ),
    ]
    with store.bound_cursor() as cursor:
        cursor.execute(store.held_deal_sql(), values)
        row = cursor.fetchone()
    if row is None:
        return None
    news = {"deal": {"hole": row[0], **deal}}
    announce.table_changed(table, news=news)
    return MoveResult(table.pk, table.version, news=news)


# --- bots and the turn timer ------------------------------------------------------------------


def act_for_table(*, table_id: int, version: int, now: datetime | None = None) -> MoveResult:
    """Do what the table waits for if it is due: a bot's move, a timer move or the next deal.

    The caller passes the version it read, so two processes never act twice. On
    PostgreSQL a bot's move costs two round trips, as a player's (see `apply_move`).
    """
    now = now or timezone.now()
    if connection.vendor == "postgresql" and not connection.in_atomic_block:
        try:
            result = _act(table_id, version, now, commit=True)
        except _NeedsAtomic:
            store.roll_back()
            result = _act_atomic(table_id, version, now)
        except BaseException:
            store.roll_back()
            raise
        if result is None:  # rolled back by _act: the next deal is a transaction of its own
            store.roll_back()
    else:
        result = _act_atomic(table_id, version, now)
    return result or next_hole(table_id=table_id, version=version)


def _act_atomic(table_id: int, version: int, now: datetime) -> MoveResult | None:
    with transaction.atomic():
        return _act(table_id, version, now)


def _act(table_id: int, version: int, now: datetime, *, commit: bool = False) -> MoveResult | None:
    """`act_for_table` inside a transaction; None when what is due is the next deal."""
    table, hole = _lock_for_move(table_id, None, begin=commit, seat_rows=True)
    if table is None or version != table.version:
        raise StaleVersion("Someone else acted first.")
    waiting = pending(table, hole, list(table.seat_rows.values()))
    if waiting is None or waiting.due > now:
        raise GameError("Nothing is due at this table.")
    if waiting.kind == "deal":
        return None
    if commit and len(waiting.positions) > 1:
        raise _NeedsAtomic  # the timer moves for several seats: one COMMIT would not do
    result = None
    for position in waiting.positions:
        state = state_from_dict(hole.state)
        seat = hole.seat_positions.index(position)
        level = table.seat_rows[position].bot_level or TIMER_BOT_LEVEL
        rng = random.Random(f"{table.deal_seed}:{hole.number}:{state.version}:{seat}")
        action = choose_action(state, seat, level, rng)
        result = _play(table, hole, position, action, by_bot=True, commit=commit)
        if result.hole_over:
            break
    return result

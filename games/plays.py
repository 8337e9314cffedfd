"""What a change in play does to a table: the one derivation of its next version.

`play` (a seat's action), `deal` (the next hole) and `bot_turn` (what the server
plays for a bot or the turn timer) take a table as it stands (`TableInPlay`) and return
the next version (`Step`): the engine's new state, the move log's lines, the hole's
strokes on the scorecards, the match's end, and the news that lets another process
make the same version from its own copy. They touch no database and announce
nothing: `services` reads the table, derives the step here, writes it (`store.write`)
and announces it; every other process follows the news with the same functions
(`frames`).
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.utils import timezone

from games import engine
from games.engine import describe_action, describe_turn, state_from_dict
from games.engine.bots import choose_action
from games.engine.match import dealer_for_hole, playoff_dealer, playoff_players

from . import pace
from .models import Hole, Move, Seat, Table
from .scorecards import Grid
from .store import SeatRow

#: The bot that plays a timed-out turn, or a seat whose player stepped away.
TIMER_BOT_LEVEL = "greedy"


class GameError(ValueError):
    """A refused request; `str(error)` is a sentence for the player."""


class StaleVersion(GameError):
    """The caller acted on an old picture of the table: nothing was applied."""


@dataclasses.dataclass(frozen=True)
class TableInPlay:
    """One version of a table in play: all a change is derived from."""

    table: Table
    hole: Hole | None
    state: engine.HoleState | None
    grid: Grid
    seats: Mapping[int, SeatRow]  # by position

    def position_of(self, player_id: int) -> int | None:
        """Where the player sits, or None."""
        return next((s.position for s in self.seats.values() if s.player_id == player_id), None)


@dataclasses.dataclass(frozen=True)
class Step:
    """A change from `before` to the table's next version, `after`, not yet written."""

    before: TableInPlay
    after: TableInPlay
    moves: tuple[Move, ...] = ()
    #: `after.hole` is a new hole (its id is known once written).
    dealt: bool = False
    #: Seats whose bot changes, as (position, the new bot level: "" for none).
    seats_changed: tuple[tuple[int, str], ...] = ()
    #: What other processes make the version from (None: they read it instead).
    news: dict | None = None

    @property
    def hole_over(self) -> bool:
        """A move of this step ended the hole."""
        return bool(self.moves) and self.after.hole.finished_at is not None

    @property
    def match_over(self) -> bool:
        return self.after.table.status == Table.Status.FINISHED


def at_time(timestamp: float) -> datetime:
    """The moment a news item was stamped with."""
    return datetime.fromtimestamp(timestamp, tz=UTC)


def _next_table(table: Table, at: datetime) -> Table:
    table = copy.copy(table)
    table.version += 1
    table.turn_started_at = at
    return table


def people_to_move(in_play: TableInPlay) -> tuple[int, ...]:
    """The seats of people (not bots) that the version waits on."""
    bots = [s.position for s in in_play.seats.values() if s.bot_level]
    return pace.people_waiting(in_play.table, in_play.hole, in_play.state, bots)


def _turn(in_play: TableInPlay) -> tuple | None:
    """Which turn a version is at: its hole, and the tee off or whose turn in play."""
    hole, state = in_play.hole, in_play.state
    if hole is None or state is None:
        return None
    return (hole.number, "tee off" if state.phase == engine.TEE_OFF else state.turn)


def turn_passed_to(before: TableInPlay, after: TableInPlay) -> tuple[int, ...]:
    """The people `after` waits on whose turn begins with it: all of them when a new
    turn begins (a deal, the tee off over, the next seat's turn), else those who were
    not waited on before (a seat taken back from a bot)."""
    waiting = people_to_move(after)
    if not waiting or _turn(before) != _turn(after):
        return waiting
    was = set(people_to_move(before))
    return tuple(p for p in waiting if p not in was)


def _timed(before: TableInPlay, after: TableInPlay) -> TableInPlay:
    """`after` with its turn-based table's deadline set (`pace.turn_deadline`) from the
    two versions alone, so that a process following the news makes the same one. The
    deadline stands while no one new is to move (a turn's draw, a seat's tee off while
    others still tee off); a turn passing to someone sets the next."""
    table = after.table
    if table.turn_based:
        kept = before.table.turn_deadline is not None and people_to_move(after)
        if not (kept and not turn_passed_to(before, after)):
            bots = [s.position for s in after.seats.values() if s.bot_level]
            table.turn_deadline = pace.turn_deadline(table, after.hole, after.state, bots)
    return after


def new_hole(table: Table, number: int, positions: list[int], at: datetime) -> Hole:
    """Hole `number` dealt to the seats at `positions`, the dealer moved left each hole
    (a playoff may deal fewer seats; the engine says who deals among them). The state
    is the engine's (`engine.new_hole` from the hole's seed); the row keeps only the
    seed until written."""
    dealer_position = dealer_for_hole(table.first_dealer or 0, number - 1, table.seat_count)
    dealer = playoff_dealer(dealer_position, positions, table.seat_count)
    return Hole(
        table_id=table.pk,
        number=number,
        dealer=positions[dealer],
        seed=table.hole_seed(number),
        seat_positions=positions,
        state=None,
        version=0,
        started_at=at,
    )


def hole_state(table: Table, hole: Hole) -> engine.HoleState:
    """The state a hole is dealt with."""
    dealer = hole.seat_positions.index(hole.dealer)
    return engine.new_hole(table.rules, len(hole.seat_positions), seed=hole.seed, dealer=dealer)


def play(
    before: TableInPlay, position: int, action: dict, *, at: datetime, by_bot: bool = False
) -> Step:
    """The seat at `position` takes `action` at `at`; a player acting in a seat a bot
    keeps for them takes it back."""
    table, hole = before.table, before.hole
    if table.status != Table.Status.PLAYING or hole is None:
        raise GameError("The match is not in play.")
    if hole.finished_at is not None:
        raise GameError("The hole is over: the next one is being dealt.")
    if position not in hole.seat_positions:
        raise GameError("You sit out this playoff hole.")
    seat = hole.seat_positions.index(position)
    try:
        state = engine.apply_action(before.state, seat, action)
    except engine.IllegalAction as error:
        raise GameError(str(error)) from None
    # A move that uses a drawn card tells the whole turn, so the log reads a line a turn.
    summary = describe_turn(before.state, seat, action, state) or describe_action(
        before.state, seat, action, state
    )
    person = before.seats[position]
    if by_bot and person.player_name is not None:
        by = f"bot for {person.player_name}" if person.bot_level else "played by the timer"
        summary += f" ({by})"
    move = Move(
        hole_id=hole.pk,
        seq=state.version,
        seat=position,
        action=action,
        by_bot=by_bot,
        summary=summary[:200],
        created_at=at,
    )
    table = _next_table(table, at)
    hole = copy.copy(hole)
    hole.state, hole.version = None, state.version
    grid = before.grid
    if state.phase == engine.OVER:
        hole.scores, hole.finished_at = list(state.scores), at
        grid = grid.scored(hole.number, dict(zip(hole.seat_positions, state.scores, strict=True)))
        if grid.status().over:
            table.status, table.finished_at = Table.Status.FINISHED, at
    seats, changed = before.seats, ()
    if not by_bot and person.bot_level:
        seats = {**seats, position: dataclasses.replace(person, bot_level="")}
        changed = ((position, ""),)
    after = _timed(before, TableInPlay(table, hole, state, grid, seats))
    news = None
    if table.status == Table.Status.PLAYING and not changed:
        news = {
            "move": {
                "hole": hole.pk,
                "seat": position,
                "action": action,
                "by_bot": by_bot,
                "at": at.timestamp(),
            }
        }
    return Step(before, after, (move,), seats_changed=changed, news=news)


def hand_over(before: TableInPlay, position: int, level: str, at: datetime) -> Step:
    """The seat at `position` is played from now on by a bot at `level` (its player
    stepped away), or by its player again (`level` ""). Other processes read it."""
    if before.table.status != Table.Status.PLAYING:
        raise GameError("The match is not in play.")
    seat = before.seats[position]
    seats = {**before.seats, position: dataclasses.replace(seat, bot_level=level)}
    table = _next_table(before.table, at)
    after = _timed(before, TableInPlay(table, before.hole, before.state, before.grid, seats))
    return Step(before, after, seats_changed=((position, level),))


def then(first: Step, second: Step) -> Step:
    """Two steps written as one change (the timer moving for several seats)."""
    news = None
    if first.news is not None and second.news is not None:
        news = {"moves": [*first.news.get("moves", [first.news["move"]]), second.news["move"]]}
    return Step(
        first.before,
        second.after,
        first.moves + second.moves,
        seats_changed=first.seats_changed + second.seats_changed,
        news=news,
    )


def deal(before: TableInPlay, at: datetime) -> Step:
    """The next hole after a finished one: every seat's, or a playoff's contenders'."""
    table, hole = before.table, before.hole
    if table.status != Table.Status.PLAYING or hole is None or hole.finished_at is None:
        raise GameError("There is no hole to deal now.")
    status = before.grid.status()
    positions = list(range(table.seat_count))
    if status.next_hole_is_playoff:
        positions = sorted(playoff_players(table.rules, status.contenders, table.seat_count))
    table = _next_table(table, at)
    dealt = new_hole(table, hole.number + 1, positions, at)
    state = hole_state(table, dealt)
    dealt.version = state.version
    after = _timed(before, TableInPlay(table, dealt, state, before.grid, before.seats))
    # The hole's id goes in once the hole is written (`services`).
    news = {"deal": {"hole": None, "number": dealt.number, "at": at.timestamp()}}
    return Step(before, after, dealt=True, news=news)


def bot_turn(before: TableInPlay, positions: tuple[int, ...], at: datetime) -> Step:
    """The server plays for the seats at `positions`: each one's bot, or the timer's."""
    step = None
    for position in positions:
        current = before if step is None else step.after
        seat = current.hole.seat_positions.index(position)
        level = current.seats[position].bot_level or TIMER_BOT_LEVEL
        rng = random.Random(
            f"{current.table.deal_seed}:{current.hole.number}:{current.state.version}:{seat}"
        )
        action = choose_action(current.state, seat, level, rng)
        made = play(current, position, action, at=at, by_bot=True)
        step = made if step is None else then(step, made)
        if step.hole_over:
            break
    return step


def follow(before: TableInPlay, news: dict) -> Step | None:
    """The step that made the version announced with `news` from `before`, the version
    just before it, or None when the news is not about this version."""
    hole = before.hole
    if "deal" in news:
        deal_news = news["deal"]
        if hole is None or deal_news["number"] != hole.number + 1:
            return None
        step = deal(before, at_time(deal_news["at"]))
        step.after.hole.pk = deal_news["hole"]
        return step
    step = None
    for move in news.get("moves", [news.get("move")]):
        current = before if step is None else step.after
        if current.hole is None or current.hole.pk != move["hole"]:
            return None
        made = play(
            current, move["seat"], move["action"], at=at_time(move["at"]), by_bot=move["by_bot"]
        )
        step = made if step is None else then(step, made)
    return step


# --- what a table waits for ----------------------------------------------------------


def bot_delay() -> float:
    """Seconds a bot waits before acting, so people can follow (read at call time)."""
    return float(getattr(settings, "FAIRWAY_BOT_DELAY", 0.8))


def hole_pause() -> float:
    """Seconds the end of a hole stays on screen before the next hole is dealt."""
    return float(getattr(settings, "FAIRWAY_HOLE_PAUSE", 4.0))


@dataclasses.dataclass(frozen=True)
class Pending:
    """What a table waits for: a bot, the turn timer, or the next deal; and from when."""

    kind: str  # "bot", "timer" or "deal"
    positions: tuple[int, ...]
    due: datetime


def pending(
    table: Table,
    hole: Hole | None,
    seats: Iterable[Seat | SeatRow],
    state: engine.HoleState | None = None,
) -> Pending | None:
    """What the table waits for that the server does itself, or None (people to act),
    at its latest `hole` (None before the match starts) with its `seats`; `state`: the
    hole's, if already made.
    """
    if table.status != Table.Status.PLAYING or hole is None:
        return None
    since = table.turn_started_at or timezone.now()
    if hole.finished_at is not None:
        return Pending("deal", (), since + timedelta(seconds=hole_pause()))
    state = state or state_from_dict(hole.state)
    if state.phase == engine.TEE_OFF:
        waiting = [hole.seat_positions[s] for s, done in enumerate(state.teed_off) if not done]
    else:
        waiting = [hole.seat_positions[state.turn]]
    bots = {s.position for s in seats if s.bot_level}
    bot_turns = tuple(p for p in waiting if p in bots)
    if bot_turns:
        return Pending("bot", bot_turns[:1], since + timedelta(seconds=bot_delay()))
    if table.turn_based:
        if table.turn_deadline is None:
            return None
        return Pending("timer", tuple(waiting), table.turn_deadline)
    if table.turn_timer:
        return Pending("timer", tuple(waiting), since + timedelta(seconds=table.turn_timer))
    return None

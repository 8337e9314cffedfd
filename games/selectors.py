"""Reads for play: a table as every viewer of one version shares it, the lobby's lists,
who may watch, and what a table waits for. The view of one viewer is `presenters`'.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, F, JSONField, Max, OuterRef, Prefetch, Q, Subquery
from django.utils.crypto import constant_time_compare

from games import engine
from games.engine import state_from_dict

from . import deal_visibility, pace, plays, store
from .models import ChatMessage, Hole, Move, Scorecard, Seat, Table, runs_table
from .scorecards import Grid
from .store import SeatRow

LOG_LENGTH = 6


def viewer_seat(table: Table, user, seats: list[Seat] | None = None) -> Seat | None:
    """The seat `user` holds at `table` (among `seats`, if read), or None for a spectator."""
    if user is None or not user.is_authenticated:
        return None
    seats = table.seats.all() if seats is None else seats
    return next((s for s in seats if s.player_id == user.pk), None)


def may_watch(table: Table, user, invited: bool = False) -> bool:
    """Public tables are open to every signed-in player; private ones to invitees, players
    and the host, who may run a table (a league night's, say) without a seat at it.
    No one sees a table that deals what they have yet to play at their own
    (`deal_visibility`)."""
    if not deal_visibility.may_see_table(table, user):
        return False
    if table.is_public or invited:
        return True
    if user is not None and user.is_authenticated and table.host_id == user.pk:
        return True
    return viewer_seat(table, user) is not None


def may_chat(table: Table, user) -> bool:
    """Whether `user` may write in the table's chat: its players and its host (a league
    night's organiser, who may run the table without a seat). Watchers read only."""
    if user is None or not user.is_authenticated:
        return False
    return table.host_id == user.pk or table.seats.filter(player=user).exists()


def may_moderate(table: Table, user) -> bool:
    """Whether `user` may hide the table's chat lines from everyone: its host, the site's
    superusers, and whoever else runs the table (`runs_table`: a league night's organisers).
    Staff alone is not enough: every club organiser is staff, to reach the admin."""
    if user is None or not user.is_authenticated:
        return False
    if table.host_id == user.pk or user.is_superuser:
        return True
    return any(answer is True for _, answer in runs_table.send(Table, table=table, user=user))


#: How many of a table's latest chat lines are shown.
CHAT_LINES = 30


def chat_stamp(table_id: int) -> str:
    """What the table's chat shows, in a few characters: whether it is on, its latest
    line and how many lines are hidden. A client that may have missed the chat's news
    sends the stamp it was given and is sent the chat again if it no longer holds."""
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(
            last=Max("chat_messages__pk"),
            hidden=Count("chat_messages", filter=Q(chat_messages__hidden=True)),
        )
        .values_list("chat_on", "last", "hidden")
        .first()
    )
    return "" if row is None else f"{int(row[0])}-{row[1] or 0}-{row[2]}"


@dataclass(frozen=True)
class ChatLine:
    """A chat line as every viewer sees it."""

    pk: int
    author_id: int
    author: str
    text: str


def chat_lines(table_id: int) -> list[ChatLine]:
    """The table's latest chat lines that no one hid, oldest first."""
    rows = (
        ChatMessage.objects.filter(table_id=table_id, hidden=False)
        .select_related("author")
        .order_by("-created_at", "-pk")[:CHAT_LINES]
    )
    return [ChatLine(m.pk, m.author_id, m.author.name, m.text) for m in reversed(rows)]


@dataclass(frozen=True)
class TableData:
    """What every viewer of one version of a table shares: read once, rendered per seat."""

    table: Table
    seats: list[Seat]
    hole: Hole | None
    state: Any
    scorecard: Grid
    rematch: Table | None
    results: list[Any] | None
    #: The newest moves of the match, as `recent_moves` reads them.
    recent: list[tuple[int, int, str, str]] = field(default_factory=list)

    @functools.cached_property
    def in_play(self) -> plays.TableInPlay:
        """This version as a change in play is derived from."""
        seats = {
            s.position: SeatRow(
                s.position,
                s.bot_level,
                (s.player.display_name or s.player.username) if s.player_id else None,
                s.player_id,
            )
            for s in self.seats
        }
        return plays.TableInPlay(self.table, self.hole, self.state, self.scorecard, seats)

    @functools.cached_property
    def shared(self) -> dict:
        """What the presenters work out once for every viewer of this version (names, the
        courses that are not the viewer's): its own, never lent on to the next version."""
        return {}

    @functools.cached_property
    def log(self) -> list[str]:
        """The move log's lines, newest first."""
        return log_lines(self.recent, self.seats)


def in_play(table_id: int) -> plays.TableInPlay | None:
    """The table as a change in play is derived from, in one round trip, or None."""
    rows = store.read_table(table_id)
    if rows is None:
        return None
    state = state_from_dict(rows.hole.state) if rows.hole is not None else None
    return plays.TableInPlay(rows.table, rows.hole, state, Grid.from_rows(rows.cards), rows.seats)


def table_data(table_id: int, previous: TableData | None = None) -> TableData:
    """Load the table, its seats, current hole, scorecard and log for every viewer.

    `previous`, a recent read of the same table, lends its scorecard while the same hole
    is in play and the cards' totals are as it shows them: only the hole's end or a
    correction changes the card. (Seats do change: a bot may keep the seat of a player
    who steps away.)
    """
    seats_with_players = Prefetch("seats", queryset=Seat.objects.select_related("player"))
    table = Table.objects.prefetch_related(seats_with_players).get(pk=table_id)
    seats = list(table.seats.all())
    hole = table.holes.order_by("-number").first()
    if previous is not None and not (
        hole is not None
        and previous.hole is not None
        and hole.number == previous.hole.number
        and hole.finished_at is None
        and table.status == Table.Status.PLAYING
        and _totals_unchanged(table, previous.scorecard)
    ):
        previous = None
    finished = table.status == Table.Status.FINISHED
    recent = recent_moves(table) if hole is not None else []
    return TableData(
        table=table,
        seats=seats,
        hole=hole,
        state=state_from_dict(hole.state) if hole is not None else None,
        scorecard=previous.scorecard if previous is not None else scorecard_rows(table),
        recent=recent,
        # Only a finished match has a rematch.
        rematch=table.rematches.order_by("-created_at").first() if finished else None,
        results=_results(table, seats) if finished and hole is not None else None,
    )


def still_shows(data: TableData) -> bool:
    """Whether the database still has `data`'s seats with their names and bots, the
    table's settings that frames show, and its cards' totals (a correction changes the
    total of the card it corrects): what a table's version does not count."""
    table = data.table
    shown_settings = (table.status, table.turn_timer, table.is_public, table.host_id)
    shown = [
        (
            s.position,
            s.player_id,
            s.bot_level,
            *((s.player.display_name, s.player.username) if s.player_id else (None, None)),
            *shown_settings,
        )
        for s in sorted(data.seats, key=lambda s: s.position)
    ]
    seats, totals = store.shown_rows(table.pk)
    return [tuple(row) for row in seats] == shown and totals == _totals(data.scorecard)


def _totals(scorecard: Grid) -> set[tuple[int, int]]:
    """Each card's (position, total) as `scorecard` shows them."""
    return {(card.position, card.total) for card in scorecard.cards}


def _totals_unchanged(table: Table, scorecard: Grid) -> bool:
    """Whether `table`'s cards still have the totals `scorecard` shows (a correction
    changes the total of the card it corrects)."""
    return _totals(scorecard) == set(table.scorecards.values_list("position", "total"))


def recent_moves(table: Table) -> list[tuple[int, int, str, str]]:
    """The match's newest moves as (hole id, seat, summary, action type), newest first:
    enough of them for `log_lines`."""
    # Only the columns used: loading the holes would decode their snapshots.
    moves = (
        Move.objects.filter(hole__table=table)
        .order_by("-hole__number", "-seq")
        .values_list("hole_id", "seat", "summary", "action")[: LOG_LENGTH * 2]
    )
    return [(hole, seat, summary, action.get("type")) for hole, seat, summary, action in moves]


def log_lines(recent: list[tuple[int, int, str, str]], seats: list[Seat]) -> list[str]:
    """The move log as sentences, newest first, from `recent_moves`.

    A draw and the move that uses the card are one turn; the latter's summary tells
    both, so a draw shows on its own only while its card is still in hand.
    """
    names = {s.position: s.name for s in seats}
    lines = []
    newer_hole = None
    for hole_id, seat, summary, kind in recent:
        if not (newer_hole == hole_id and kind == "draw"):
            lines.append(f"{names.get(seat, 'Someone')} {summary}")
        newer_hole = hole_id
    return lines[:LOG_LENGTH]


def scorecard_rows(table: Table) -> Grid:
    """The table's scorecards, as the scorecard panel prints them."""
    return Grid.read(table)


def _results(table: Table, seats: list[Seat]) -> list[Any]:
    return list(table.scorecards.order_by("place", "position"))


def open_tables():
    """Public tables waiting for players, newest first, with their seat counts."""
    return (
        Table.objects.filter(status=Table.Status.OPEN, is_public=True, kind=Table.Kind.LIVE)
        .select_related("host")
        .annotate(
            taken=Count("seats", filter=Q(seats__player__isnull=False) | ~Q(seats__bot_level=""))
        )
        .order_by("-created_at")[:50]
    )


def my_tables(user):
    """The tables `user` sits at that are waiting or in play."""
    return (
        Table.objects.filter(
            seats__player=user, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
        )
        .select_related("host")
        .distinct()
        .order_by("-created_at")
    )


#: The most turn-based tables "Your games" lists (a player's hosting is bounded besides).
YOUR_GAMES_LIMIT = 100


@dataclass(frozen=True)
class YourGame:
    """A turn-based table of a player's, as "Your games" lists it."""

    table: Table
    #: The names of those the table waits on (empty: waiting for players, or the deal).
    to_move: list[str]
    your_turn: bool
    #: When the move waited for is played by the timer's bot.
    deadline: datetime | None
    #: When the player is back from a break, if they are away.
    away_until: datetime | None


def your_games(user, *, limit: int = YOUR_GAMES_LIMIT) -> list[YourGame]:
    """`user`'s turn-based tables open or in play, those waiting for `user` first, each
    group by its deadline. Two queries whatever the history (finished tables are left
    out: they are the lobby's recent matches), at most `limit` tables."""
    latest = Hole.objects.filter(table=OuterRef("pk")).order_by("-number")
    tables = list(
        Table.objects.filter(
            seats__player=user,
            move_time__gt=0,
            status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .annotate(
            hole_state=Subquery(latest.values("state")[:1], output_field=JSONField()),
            hole_positions=Subquery(latest.values("seat_positions")[:1], output_field=JSONField()),
            hole_over=Subquery(latest.values("finished_at")[:1]),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .order_by(F("turn_deadline").asc(nulls_last=True), "-created_at")[:limit]
    )
    games = []
    for table in tables:
        seats = {seat.position: seat for seat in table.seats.all()}
        waiting: tuple[int, ...] = ()
        if table.status == Table.Status.PLAYING and table.hole_state is not None:
            hole = Hole(
                seat_positions=table.hole_positions,
                state=table.hole_state,
                finished_at=table.hole_over,
            )
            bots = [p for p, seat in seats.items() if seat.bot_level]
            waiting = pace.people_waiting(table, hole, None, bots)
        mine = next(p for p, seat in seats.items() if seat.player_id == user.pk)
        games.append(
            YourGame(
                table=table,
                to_move=[seats[p].name for p in waiting],
                your_turn=mine in waiting,
                deadline=table.turn_deadline if waiting else None,
                away_until=pace.away_until(table, mine),
            )
        )
    games.sort(key=lambda game: not game.your_turn)  # stable: deadlines stay in order
    return games


def turns_waiting(user) -> int:
    """How many of `user`'s turn-based tables wait on their move: the count in every
    page's title. One query: the tables someone must move at (a deadline set, the partial
    index `table_turn_deadline`) met with `user`'s seats; a finished match has no
    deadline, so the count costs no more as the player's history grows."""
    latest = Hole.objects.filter(table=OuterRef("table")).order_by("-number")
    rows = (
        Seat.objects.filter(
            player=user, table__turn_deadline__isnull=False, table__status=Table.Status.PLAYING
        )
        .annotate(
            hole_state=Subquery(latest.values("state")[:1], output_field=JSONField()),
            hole_positions=Subquery(latest.values("seat_positions")[:1], output_field=JSONField()),
            hole_over=Subquery(latest.values("finished_at")[:1]),
        )
        .values_list("position", "hole_state", "hole_positions", "hole_over")
        .order_by()
    )
    return sum(
        position
        in pace.waiting_positions(Hole(seat_positions=seats, state=state, finished_at=over), None)
        for position, state, seats, over in rows
        if state is not None
    )


def recent_matches(user, limit: int = 10):
    """`user`'s finished matches, newest first: their card (total and place) with its table,
    and how many cards the table had."""
    return (
        Scorecard.objects.filter(player=user, table__status=Table.Status.FINISHED)
        .select_related("table")
        .annotate(of=Count("table__scorecards"))
        .order_by("-table__finished_at", "-table_id")[:limit]
    )


def watchable_tables():
    """Public tables in play, for spectators."""
    return (
        Table.objects.filter(status=Table.Status.PLAYING, is_public=True)
        .select_related("host")
        .order_by("-started_at")[:20]
    )


def replay_states(hole: Hole) -> list[tuple[Any, Move | None]]:
    """Every state of a finished hole from its deal, with the move that led to it."""
    state = hole_start(hole)
    states: list[tuple[Any, Move | None]] = [(state, None)]
    for move in hole.moves.order_by("seq"):
        seat = hole.seat_positions.index(move.seat)
        state = engine.apply_action(state, seat, move.action)
        states.append((state, move))
    return states


def signed_in(player_id: int, session_hash: str | None) -> bool:
    """Whether a session that signed in with `session_hash` is still signed in: Django
    signs out every session made before a password change (the hash changes)."""
    player = get_user_model().objects.filter(pk=player_id, is_active=True).first()
    return (
        player is not None
        and session_hash is not None
        and constant_time_compare(session_hash, player.get_session_auth_hash())
    )


def table_version(table_id: int) -> int | None:
    """The table's current version (None when there is no such table)."""
    return Table.objects.filter(pk=table_id).values_list("version", flat=True).first()


def made_since(table_id: int, player, kind: str, since: datetime) -> bool:
    """Whether `player` has made a move of `kind` at the table since `since`: after the
    database was lost in the middle of a move, whether the move was applied."""
    position = (
        Seat.objects.filter(table_id=table_id, player=player).values_list("position", flat=True)
    ).first()
    # A move's seat is its table position (not the engine's seat in the hole).
    moves = Move.objects.filter(
        hole__table_id=table_id, created_at__gte=since, by_bot=False, seat=position
    )
    return any(move.action.get("type") == kind for move in moves)


# --- a table's latest hole ----------------------------------------------------------


def current_hole(table: Table) -> Hole | None:
    """The table's latest hole, or None before the match starts."""
    return table.holes.order_by("-number").first()


def may_see_review(table: Table, user, position: int) -> bool:
    """A player sees their own seat's review at once, anyone who may watch sees every
    seat's once the match is over: until then a review would tell the others how a
    player judges their cards."""
    if table.status == Table.Status.FINISHED:
        return True
    seat = viewer_seat(table, user)
    return seat is not None and seat.position == position


def hole_start(hole: Hole) -> Any:
    """A hole's state as dealt."""
    return engine.new_hole(
        hole.table.rules,
        len(hole.seat_positions),
        seed=hole.seed,
        deck=hole.deck,
        dealer=hole.seat_positions.index(hole.dealer),
    )

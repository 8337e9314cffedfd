"""Every raw SQL statement of play: the hot path's reads and writes.

A move is a handful of single-row reads and writes. The ORM's query building costs
more CPU than the statements themselves, so these helpers write one row with one
plain statement and read rows into model instances without a queryset, converting
values exactly as the ORM would (the fields' own `get_db_prep_save` and converters).
They send no model signals: callers use them only where nothing listens.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import Error, connection
from psycopg.pq import TransactionStatus

from config import seams

from .models import Hole, Move, Scorecard, ScorecardHole, Seat, Table


@contextlib.contextmanager
def pipeline():
    """Send the statements executed inside together and wait once for all their results
    (PostgreSQL's pipeline mode), instead of a round trip each: results are read after
    the block, and errors are raised, as Django's, when it ends. Elsewhere, a no-op."""
    if connection.vendor != "postgresql":
        yield
        return
    connection.ensure_connection()
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def bound_cursor():
    """A cursor of Django's connection that sends parameters apart from the statement
    and so may prepare it (PostgreSQL only), for the statements every move sends: the
    connection's own cursors quote each value into the text, in Python, and the server
    plans every statement anew."""
    connection.ensure_connection()
    connection.validate_thread_sharing()
    cursor = seams.server_binding_cursor(connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


def roll_back() -> None:
    """End with ROLLBACK a transaction begun with a plain BEGIN, if one is open: after an
    error, or to start again inside Django's transaction. PostgreSQL only."""
    raw = connection.connection
    if raw is None or raw.info.transaction_status not in {
        TransactionStatus.INTRANS,
        TransactionStatus.INERROR,
    }:
        return  # A broken connection is closed and replaced by Django, not rolled back.
    with contextlib.suppress(Error), connection.cursor() as cursor:
        cursor.execute("ROLLBACK")


def discard_broken_connections() -> None:
    """After a connection turned out broken (PostgreSQL restarted), test every idle one
    of the worker's pool and replace those that fail, instead of failing once more with
    each. A check on every checkout would cost each move a round trip; this costs one
    per idle connection, after a failure only."""
    if connection.vendor != "postgresql":
        return
    connection.close()  # Django replaces a broken connection on its next use.
    pool = connection.pool
    if pool is not None:
        pool.check()


def insert(cursor, obj, *, returning: bool = False) -> None:
    """INSERT `obj` as one row. Its primary key stays unset; with `returning`, the
    statement returns it for the caller to fetch from `cursor` (after the pipeline)."""
    meta = obj._meta
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({}){}".format(
        quote(meta.db_table),
        ", ".join(quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        f" RETURNING {quote(meta.pk.column)}" if returning else "",
    )
    values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    cursor.execute(sql, values)


def update(cursor, obj, names: Sequence[str]) -> None:
    """UPDATE the fields `names` of `obj`'s row, as `obj.save(update_fields=names)`."""
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        quote(meta.db_table),
        ", ".join(f"{quote(f.column)} = %s" for f in fields),
        quote(meta.pk.column),
    )
    values = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    cursor.execute(sql, [*values, obj.pk])


def columns(model, alias: str) -> tuple[str, list]:
    """The select list of `model`'s fields under the table alias `alias`, and a reader
    for `instance`."""
    return _columns(model, alias, connection.vendor)


@functools.cache
def _columns(model, alias: str, vendor: str) -> tuple[str, list]:
    # Converters depend on the backend only, not on one thread's connection.
    quote = connection.ops.quote_name
    names, reader = [], []
    for field in model._meta.concrete_fields:
        names.append(f"{alias}.{quote(field.column)}")
        col = field.get_col(alias)
        converters = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        reader.append((col, converters))
    return ", ".join(names), reader


def instance(model, values: Sequence, reader: list):
    """A `model` instance from a row read with the select list of `columns`."""
    values = list(values)
    for i, (col, converters) in enumerate(reader):
        for convert in converters:
            values[i] = convert(values[i], col, connection)
    return model.from_db(connection.alias, None, values)


# --- a move's reads and writes ------------------------------------------------------


@dataclass(frozen=True)
class SeatRow:
    """A seat as the hot path reads it: enough for `pending` and a bot's log line."""

    position: int
    bot_level: str
    player_name: str | None  # None: no player sits there


def lock_for_move(
    table_id: int,
    player_id: int | None,
    *,
    begin: bool = False,
    cards: bool = False,
    seat_rows: bool = False,
) -> tuple[Table | None, Hole | None]:
    """Lock the table's row and read it with the latest hole and where the player sits.

    The hot path of live play, so plain statements instead of querysets, sent together
    (with a plain BEGIN first if `begin`): the table comes with `my_position` and
    `my_bot_level` (None when the player has no seat) and `has_bots`; with `cards`, its
    scorecards' rows (`table.card_rows`, as `strokes_sql` reads them); with `seat_rows`, its seats
    (`table.seat_rows`, by position). Every writer of a table locks its row first, so
    what is read after the lock is current.
    """
    seats, tables, holes = Seat._meta.db_table, Table._meta.db_table, Hole._meta.db_table
    table_columns, table_reader = columns(Table, "t")
    table_sql = (
        f"SELECT {table_columns}, s.position, s.bot_level,"
        f" EXISTS (SELECT 1 FROM {seats} b WHERE b.table_id = t.id AND b.bot_level <> '')"
        f" FROM {tables} t"
        f" LEFT JOIN {seats} s ON s.table_id = t.id AND s.player_id = %s WHERE t.id = %s"
    )
    if connection.features.has_select_for_update_of:
        table_sql += " FOR UPDATE OF t"
    elif connection.features.has_select_for_update:
        table_sql += " FOR UPDATE"
    hole_columns, hole_reader = columns(Hole, "h")
    hole_sql = (
        f"SELECT {hole_columns} FROM {holes} h WHERE h.table_id = %s ORDER BY h.number DESC LIMIT 1"
    )
    people = get_user_model()._meta.db_table
    seats_sql = (
        f"SELECT s.position, s.bot_level, p.display_name, p.username FROM {seats} s"
        f" LEFT JOIN {people} p ON p.id = s.player_id WHERE s.table_id = %s"
    )
    # All in one round trip: what follows the lock is read after it is granted all the
    # same, as statements run in order, each seeing what was committed before it started.
    with (
        connection.cursor() as table_cursor,
        connection.cursor() as hole_cursor,
        connection.cursor() as cards_cursor,
        connection.cursor() as seats_cursor,
    ):
        with pipeline():
            if begin:
                table_cursor.execute("BEGIN")
            table_cursor.execute(table_sql, [player_id, table_id])
            hole_cursor.execute(hole_sql, [table_id])
            if cards:
                cards_cursor.execute(strokes_sql(), [table_id])
            if seat_rows:
                seats_cursor.execute(seats_sql, [table_id])
        row = table_cursor.fetchone()
        if row is None:
            return None, None
        count = len(table_reader)
        table = instance(Table, row[:count], table_reader)
        table.my_position, table.my_bot_level, table.has_bots = row[count:]
        if cards:
            table.card_rows = cards_cursor.fetchall()
        if seat_rows:
            table.seat_rows = {
                position: SeatRow(position, level, (display or username) if username else None)
                for position, level, display, username in seats_cursor.fetchall()
            }
        row = hole_cursor.fetchone()
    return table, (instance(Hole, row, hole_reader) if row else None)


def insert_fields(model) -> list:
    """The columns a row of `model` is inserted with (all but its key)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


@functools.cache
def held_move_sql(ends: bool = False) -> str:
    """The statement of `services._apply_held` (for a move that `ends` a regulation hole: with
    its scoring), its parameters in the order that builds them."""
    q = connection.ops.quote_name
    tables, holes, seats, moves, cards, strokes = (
        q(m._meta.db_table) for m in (Table, Hole, Seat, Move, Scorecard, ScorecardHole)
    )
    fields = insert_fields(Move)
    sql = (
        f"WITH t AS (UPDATE {tables} SET version = %s, turn_started_at = %s"
        " WHERE id = %s AND version = %s AND status = %s"
        f" AND EXISTS (SELECT 1 FROM {holes} WHERE id = %s AND version = %s"
        " AND finished_at IS NULL)"
        f" AND EXISTS (SELECT 1 FROM {seats} WHERE table_id = %s AND position = %s"
        " AND player_id = %s AND bot_level = '') RETURNING id),"
        f" h AS (UPDATE {holes} SET state = %s, version = %s"
    )
    if ends:
        sql += ", scores = %s, finished_at = %s"
    sql += " WHERE id = %s AND EXISTS (SELECT 1 FROM t) RETURNING id)"
    if ends:
        # Each seat's strokes by position; every statement of a WITH sees the rows as
        # they were before it, so a card's total is its other holes' plus this one.
        played = "unnest(%s::integer[], %s::integer[]) AS v(position, strokes)"
        sql += (
            f", s AS (INSERT INTO {strokes} (scorecard_id, number, strokes)"
            f" SELECT c.id, %s, v.strokes FROM {cards} c JOIN {played}"
            " ON v.position = c.position WHERE c.table_id = %s AND EXISTS (SELECT 1 FROM t)"
            " ON CONFLICT (scorecard_id, number) DO UPDATE SET strokes = excluded.strokes),"
            f" r AS (UPDATE {cards} c SET place = NULL, total = v.strokes + (SELECT"
            f" COALESCE(SUM(o.strokes), 0) FROM {strokes} o WHERE o.scorecard_id = c.id"
            " AND o.number <> %s AND o.number <= %s)"
            f" FROM {played}"
            " WHERE c.position = v.position AND c.table_id = %s AND EXISTS (SELECT 1 FROM t))"
        )
    return sql + (
        f" INSERT INTO {moves} ({', '.join(q(f.column) for f in fields)})"
        f" SELECT {', '.join(['%s'] * len(fields))} FROM h RETURNING id"
    )


@functools.cache
def held_deal_sql() -> str:
    """The statement of `services._deal_held`, its parameters in the order that builds them."""
    q = connection.ops.quote_name
    tables, holes, seats = (q(m._meta.db_table) for m in (Table, Hole, Seat))
    fields = insert_fields(Hole)
    return (
        f"WITH t AS (UPDATE {tables} SET version = %s, turn_started_at = %s"
        " WHERE id = %s AND version = %s AND status = %s"
        f" AND EXISTS (SELECT 1 FROM {holes} WHERE id = %s AND finished_at IS NOT NULL)"
        f" AND EXISTS (SELECT 1 FROM {seats} WHERE table_id = %s AND player_id = %s)"
        " RETURNING id)"
        f" INSERT INTO {holes} ({', '.join(q(f.column) for f in fields)})"
        f" SELECT {', '.join(['%s'] * len(fields))} FROM t RETURNING id"
    )


def strokes_sql() -> str:
    """A statement reading the cards of table %s with their strokes, one row per card
    and hole (a card without holes has one row), for `scorecards.CardStrokes`."""
    cards, holes = Scorecard._meta.db_table, ScorecardHole._meta.db_table
    return (
        f"SELECT c.id, c.position, c.total, c.place, h.number, h.strokes FROM {cards} c"
        f" LEFT JOIN {holes} h ON h.scorecard_id = c.id WHERE c.table_id = %s"
    )


def write_strokes(
    cursor, holes: Sequence[tuple[int, int, int]], results: Sequence[tuple[int, int, int | None]]
) -> None:
    """Insert or overwrite (scorecard id, hole number, strokes) rows and set the (card id,
    total, place) of cards: plain statements, so that they can go with the rest of a
    move's writes (`pipeline`)."""
    table, cards = ScorecardHole._meta.db_table, Scorecard._meta.db_table
    cursor.execute(
        f"INSERT INTO {table} (scorecard_id, number, strokes) VALUES "
        + ", ".join(["(%s, %s, %s)"] * len(holes))
        + " ON CONFLICT (scorecard_id, number) DO UPDATE SET strokes = excluded.strokes",
        [value for row in holes for value in row],
    )
    for card_id, total, place in results:
        cursor.execute(
            f"UPDATE {cards} SET total = %s, place = %s WHERE id = %s", [total, place, card_id]
        )


# --- the tables that wait on the server ----------------------------------------------


def waiting_tables(table_ids: Collection[int] | None) -> list[tuple[Table, Hole]]:
    """The playing tables (of `table_ids`, or all) that may wait on the server, with
    their latest holes and bot seats (`table.bot_seats`): those with a bot, a turn timer
    or a finished hole. People-only tables mid-hole wait on people, and are most tables.

    Plain statements, sent together: the driver reads these every time it looks.
    """
    tables, holes, seats = Table._meta.db_table, Hole._meta.db_table, Seat._meta.db_table
    table_columns, table_reader = columns(Table, "t")
    hole_columns, hole_reader = columns(Hole, "h")
    among, params = "", [Table.Status.PLAYING]
    if table_ids is not None:
        if not table_ids:
            return []
        among = f" AND t.id IN ({', '.join(['%s'] * len(table_ids))})"
        params += list(table_ids)
    has_bots = f"EXISTS (SELECT 1 FROM {seats} b WHERE b.table_id = t.id AND b.bot_level <> '')"
    tables_sql = (
        f"SELECT {table_columns}, {hole_columns} FROM {tables} t JOIN {holes} h ON h.id = ("
        f"SELECT l.id FROM {holes} l WHERE l.table_id = t.id ORDER BY l.number DESC LIMIT 1)"
        f" WHERE t.status = %s{among}"
        f" AND (t.turn_timer > 0 OR h.finished_at IS NOT NULL OR {has_bots})"
    )
    bots_sql = (
        f"SELECT s.table_id, s.position, s.bot_level FROM {seats} s JOIN {tables} t"
        f" ON t.id = s.table_id WHERE t.status = %s{among} AND s.bot_level <> ''"
    )
    with connection.cursor() as tables_cursor, connection.cursor() as bots_cursor:
        with pipeline():
            tables_cursor.execute(tables_sql, params)
            bots_cursor.execute(bots_sql, params)
        found = tables_cursor.fetchall()
        bots: dict[int, list[SeatRow]] = {}
        for table_id, position, level in bots_cursor.fetchall():
            bots.setdefault(table_id, []).append(SeatRow(position, level, None))
    count = len(table_reader)
    waiting = []
    for row in found:
        table = instance(Table, row[:count], table_reader)
        table.bot_seats = bots.get(table.pk, [])
        waiting.append((table, instance(Hole, row[count:], hole_reader)))
    return waiting

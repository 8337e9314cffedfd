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
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.utils import timezone

from . import seams
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
    return seams.bound_cursor(connection)


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
    fields = insert_fields(type(obj))
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({}){}".format(
        quote(meta.db_table),
        ", ".join(quote(f.column) for f in fields),
        ", ".join(["%s"] * len(fields)),
        f" RETURNING {quote(meta.pk.column)}" if returning else "",
    )
    cursor.execute(sql, _values(obj, fields))


def update(cursor, obj, names: Sequence[str], *, version: int | None = None) -> None:
    """UPDATE the fields `names` of `obj`'s row, as `obj.save(update_fields=names)`;
    with `version`, only while the row is at that version."""
    meta = obj._meta
    fields = [meta.get_field(name) for name in names]
    quote = connection.ops.quote_name
    sql = "UPDATE {} SET {} WHERE {} = %s".format(
        quote(meta.db_table),
        ", ".join(f"{quote(f.column)} = %s" for f in fields),
        quote(meta.pk.column),
    )
    params = [*(f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields), obj.pk]
    if version is not None:
        sql += " AND version = %s"
        params.append(version)
    cursor.execute(sql, params)


def insert_fields(model) -> list:
    """The columns a row of `model` is inserted with (all but its key)."""
    return [f for f in model._meta.concrete_fields if not f.primary_key]


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


# --- a change in play: its one read and its one write ----------------------------------


@dataclass(frozen=True)
class SeatRow:
    """A seat as play reads it: enough for `pending`, a bot's log line and who moves."""

    position: int
    bot_level: str
    player_name: str | None  # None: no player sits there
    player_id: int | None = None


@dataclass(frozen=True)
class TableRows:
    """A table in play as `read_table` reads it."""

    table: Table
    hole: Hole | None
    seats: dict[int, SeatRow]  # by position
    #: The table's cards, each with one (hole number, strokes) or (None, None) per row.
    cards: list[tuple[Scorecard, int | None, int | None]]


def read_table(table_id: int) -> TableRows | None:
    """The table with its latest hole, seats and scorecards, or None if there is none.

    The reads of a change in play, sent together (one round trip on PostgreSQL); no
    lock: the write (`write`) applies only while the table is at the version read.
    """
    seats, tables, holes = Seat._meta.db_table, Table._meta.db_table, Hole._meta.db_table
    cards, strokes = Scorecard._meta.db_table, ScorecardHole._meta.db_table
    table_columns, table_reader = columns(Table, "t")
    hole_columns, hole_reader = columns(Hole, "h")
    card_columns, card_reader = columns(Scorecard, "c")
    people = get_user_model()._meta.db_table
    statements = (
        f"SELECT {table_columns} FROM {tables} t WHERE t.id = %s",
        f"SELECT {hole_columns} FROM {holes} h WHERE h.table_id = %s"
        " ORDER BY h.number DESC LIMIT 1",
        f"SELECT s.position, s.bot_level, p.display_name, p.username, s.player_id FROM {seats} s"
        f" LEFT JOIN {people} p ON p.id = s.player_id WHERE s.table_id = %s",
        f"SELECT {card_columns}, h.number, h.strokes FROM {cards} c"
        f" LEFT JOIN {strokes} h ON h.scorecard_id = c.id WHERE c.table_id = %s",
    )
    with contextlib.ExitStack() as stack:
        cursors = [stack.enter_context(connection.cursor()) for _ in statements]
        with pipeline():
            for cursor, sql in zip(cursors, statements, strict=True):
                cursor.execute(sql, [table_id])
        table_row, hole_row = cursors[0].fetchone(), cursors[1].fetchone()
        seat_rows, card_rows = cursors[2].fetchall(), cursors[3].fetchall()
    if table_row is None:
        return None
    count = len(card_reader)
    read_cards: dict[int, Scorecard] = {}
    card_holes = []
    for row in card_rows:
        card = read_cards.get(row[0])
        if card is None:
            card = read_cards[row[0]] = instance(Scorecard, row[:count], card_reader)
        card_holes.append((card, *row[count:]))
    return TableRows(
        table=instance(Table, table_row, table_reader),
        hole=instance(Hole, hole_row, hole_reader) if hole_row else None,
        seats={
            position: SeatRow(position, level, (display or name) if name else None, player_id)
            for position, level, display, name, player_id in seat_rows
        },
        cards=card_holes,
    )


@dataclass(frozen=True)
class Change:
    """The rows one change in play writes, if the table is still at `version`."""

    version: int
    table: Table
    table_fields: list[str]
    hole: Hole | None
    #: None: the hole is new, inserted whole; empty: it does not change.
    hole_fields: list[str] | None
    moves: Sequence[Move] = ()
    #: (scorecard id, hole number, strokes) rows to insert or overwrite.
    strokes: Sequence[tuple[int, int, int]] = ()
    #: (scorecard id, total, place) of the cards whose results change.
    results: Sequence[tuple[int, int, int | None]] = ()
    #: (seat position, bot level: "" for none) of the seats whose bot changes.
    bots: Sequence[tuple[int, str]] = ()


def write(change: Change) -> int | None:
    """Write `change` in one transaction if its table is still at `change.version`: the
    id of the hole written (the table's if none is) back; else nothing written, None.

    The table's row is updated first, on condition of its version, and every other row
    only if it was: every writer of a table moves its version on, so a change racing
    this one either finds the version gone or is refused by it. On PostgreSQL it is one
    statement (`_write_statement`), a round trip; elsewhere the same rows one statement
    at a time (`_write_rows`) in a transaction.
    """
    if connection.vendor == "postgresql":
        return _write_statement(change)
    return _write_rows(change)


class _Stale(Exception):
    pass


def _write_rows(change: Change) -> int | None:
    """`write`, one statement a row, in Django's transaction."""
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            update(cursor, change.table, change.table_fields, version=change.version)
            if cursor.rowcount != 1:
                raise _Stale
            if change.hole_fields is None:
                insert(cursor, change.hole, returning=True)
                written = cursor.fetchone()[0]
            elif change.hole_fields:
                update(cursor, change.hole, change.hole_fields)
                written = change.hole.pk
            else:
                written = change.table.pk
            for move in change.moves:
                move.hole_id = written
                insert(cursor, move)
            if change.strokes:
                write_strokes(cursor, change.strokes, change.results)
            for position, level in change.bots:
                cursor.execute(
                    f"UPDATE {Seat._meta.db_table} SET bot_level = %s"
                    " WHERE table_id = %s AND position = %s",
                    [level, change.table.pk, position],
                )
    except _Stale:
        return None
    return written


def _values(obj, fields) -> list:
    """The values of `obj`'s `fields` as the database takes them; a field left unset
    gets what the ORM would give it on saving (`auto_now_add`)."""
    db = connections[DEFAULT_DB_ALIAS]  # once: each use of the proxy looks it up again
    values = []
    for field in fields:
        value = getattr(obj, field.attname)
        if value is None:
            value = field.pre_save(obj, obj.pk is None)
        values.append(field.get_db_prep_save(value, db))
    return values


def _write_statement(change: Change) -> int | None:
    """`write` as one statement (PostgreSQL, `write_statement`)."""
    sql, values = write_statement(change)
    with bound_cursor() as cursor:
        cursor.execute(sql, values)
        row = cursor.fetchone()
    return row[0] if row else None


def write_statement(change: Change) -> tuple[str, list]:
    """The statement that writes `change` (PostgreSQL), and its parameters: each row's
    write is a step of one WITH, the table's first, the others on condition that it was
    written. It returns the id of the hole written, or no row when the table moved on."""
    table, hole = change.table, change.hole
    table_fields = [Table._meta.get_field(name) for name in change.table_fields]
    values = [*_values(table, table_fields), table.pk, change.version]
    if change.hole_fields is None:
        hole_fields = insert_fields(Hole)
        values += _values(hole, hole_fields)
    elif change.hole_fields:
        hole_fields = [Hole._meta.get_field(name) for name in change.hole_fields]
        values += [*_values(hole, hole_fields), hole.pk]
    else:
        hole_fields = []
    for move in change.moves:
        move.hole_id = hole.pk  # a new hole's moves: none yet
        values += _values(move, insert_fields(Move))
    if change.strokes:
        ids, numbers, strokes = zip(*change.strokes, strict=True)
        values += [list(ids), list(numbers), list(strokes)]
    if change.results:
        ids, totals, places = zip(*change.results, strict=True)
        values += [list(ids), list(totals), list(places)]
    if change.bots:
        positions, levels = zip(*change.bots, strict=True)
        values += [list(levels), list(positions), table.pk]
    sql = _statement(
        tuple(f.column for f in table_fields),
        tuple(f.column for f in hole_fields) if change.hole_fields is not None else None,
        len(change.moves),
        bool(change.strokes),
        bool(change.results),
        bool(change.bots),
    )
    return sql, values


@functools.cache
def _statement(
    table_columns: tuple[str, ...],
    hole_columns: tuple[str, ...] | None,
    moves: int,
    strokes: bool,
    results: bool,
    bots: bool,
) -> str:
    """The statement of `_write_statement` for a change of this shape, its parameters
    in the order that function lists them."""
    q = connection.ops.quote_name
    tables, holes, seats, move_table, cards, card_holes = (
        q(m._meta.db_table) for m in (Table, Hole, Seat, Move, Scorecard, ScorecardHole)
    )
    sets = ", ".join(f"{q(column)} = %s" for column in table_columns)
    steps = [f"t AS (UPDATE {tables} SET {sets} WHERE id = %s AND version = %s RETURNING id)"]
    if hole_columns is None:
        fields = insert_fields(Hole)
        steps.append(
            f"h AS (INSERT INTO {holes} ({', '.join(q(f.column) for f in fields)})"
            f" SELECT {', '.join(['%s'] * len(fields))} FROM t RETURNING id)"
        )
    elif hole_columns:
        sets = ", ".join(f"{q(column)} = %s" for column in hole_columns)
        steps.append(
            f"h AS (UPDATE {holes} SET {sets} WHERE id = %s AND EXISTS (SELECT 1 FROM t)"
            " RETURNING id)"
        )
    else:
        steps.append("h AS (SELECT id FROM t)")
    fields = insert_fields(Move)
    for i in range(moves):
        steps.append(
            f"m{i} AS (INSERT INTO {move_table} ({', '.join(q(f.column) for f in fields)})"
            f" SELECT {', '.join(['%s'] * len(fields))} FROM h)"
        )
    if strokes:
        steps.append(
            f"s AS (INSERT INTO {card_holes} (scorecard_id, number, strokes)"
            " SELECT v.* FROM unnest(%s::integer[], %s::integer[], %s::integer[]) AS v"
            " WHERE EXISTS (SELECT 1 FROM t)"
            " ON CONFLICT (scorecard_id, number) DO UPDATE SET strokes = excluded.strokes)"
        )
    if results:
        steps.append(
            f"r AS (UPDATE {cards} c SET total = v.total, place = v.place"
            " FROM unnest(%s::integer[], %s::integer[], %s::integer[]) AS v(id, total, place)"
            " WHERE c.id = v.id AND EXISTS (SELECT 1 FROM t))"
        )
    if bots:
        steps.append(
            f"b AS (UPDATE {seats} s SET bot_level = v.level"
            " FROM unnest(%s::varchar[], %s::integer[]) AS v(level, position)"
            " WHERE s.table_id = %s AND s.position = v.position AND EXISTS (SELECT 1 FROM t))"
        )
    return f"WITH {', '.join(steps)} SELECT id FROM h"


def write_strokes(
    cursor, holes: Sequence[tuple[int, int, int]], results: Sequence[tuple[int, int, int | None]]
) -> None:
    """Insert or overwrite (scorecard id, hole number, strokes) rows and set the (card id,
    total, place) of cards."""
    table, cards = ScorecardHole._meta.db_table, Scorecard._meta.db_table
    if holes:
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


def waiting_tables(
    table_ids: Collection[int] | None, due_by: datetime | None = None
) -> list[tuple[Table, Hole]]:
    """The playing tables (of `table_ids`, or all) that may wait on the server, with
    their latest holes and bot seats (`table.bot_seats`): those with a bot, a turn timer
    or a finished hole, and the turn-based ones whose deadline falls by `due_by` (the
    others' deadlines are hours away). People-only tables mid-hole wait on people, and
    are most tables.

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
        f" AND (t.turn_timer > 0 OR h.finished_at IS NOT NULL OR {has_bots}"
        " OR t.turn_deadline <= %s)"
    )
    bots_sql = (
        f"SELECT s.table_id, s.position, s.bot_level FROM {seats} s JOIN {tables} t"
        f" ON t.id = s.table_id WHERE t.status = %s{among} AND s.bot_level <> ''"
    )
    with connection.cursor() as tables_cursor, connection.cursor() as bots_cursor:
        with pipeline():
            by = connection.ops.adapt_datetimefield_value(due_by or timezone.now())
            tables_cursor.execute(tables_sql, [*params, by])
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


def shown_rows(table_id: int) -> tuple[list[tuple], set[tuple[int, int]]]:
    """What a table's frames show that its version does not count, as it stands: each
    seat's (position, player id, bot level, display name, username, and the table's
    status, turn timer, publicity and host id), in seat order; and its cards'
    (position, total). Two plain statements, sent together: every table held is checked
    again every half minute or so."""
    tables, seats, cards = Table._meta.db_table, Seat._meta.db_table, Scorecard._meta.db_table
    players = get_user_model()._meta.db_table
    seats_sql = (
        "SELECT s.position, s.player_id, s.bot_level, p.display_name, p.username,"
        " t.status, t.turn_timer, t.is_public, t.host_id"
        f" FROM {seats} s JOIN {tables} t ON t.id = s.table_id"
        f" LEFT JOIN {players} p ON p.id = s.player_id WHERE s.table_id = %s ORDER BY s.position"
    )
    cards_sql = f"SELECT position, total FROM {cards} WHERE table_id = %s"
    with connection.cursor() as seats_cursor, connection.cursor() as cards_cursor:
        with pipeline():
            seats_cursor.execute(seats_sql, [table_id])
            cards_cursor.execute(cards_sql, [table_id])
        return seats_cursor.fetchall(), set(cards_cursor.fetchall())

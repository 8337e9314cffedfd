"""Plain statements for the hot path of live play.

A move is a handful of single-row reads and writes. The ORM's query building costs
more CPU than the statements themselves, so these helpers write one row with one
plain statement and read rows into model instances without a queryset, converting
values exactly as the ORM would (the fields' own `get_db_prep_save` and converters).
They send no model signals: callers use them only where nothing listens.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

from django.db import Error, connection


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
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    connection.validate_thread_sharing()
    cursor = ServerBindingCursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


def roll_back() -> None:
    """End with ROLLBACK a transaction begun with a plain BEGIN, if one is open: after an
    error, or to start again inside Django's transaction. PostgreSQL only."""
    from psycopg.pq import TransactionStatus

    raw = connection.connection
    if raw is None or raw.info.transaction_status not in {
        TransactionStatus.INTRANS,
        TransactionStatus.INERROR,
    }:
        return  # A broken connection is closed and replaced by Django, not rolled back.
    with contextlib.suppress(Error), connection.cursor() as cursor:
        cursor.execute("ROLLBACK")


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

"""The hot path's plain statements read and write rows exactly as the ORM does."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import lobby, store
from games.models import Hole, Move, Table
from tests.factories import make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def hole() -> Hole:
    ana, ben = make_player("ana"), make_player("ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=table, by=ana)
    return table.holes.get()


def read(model, alias: str, pk: int):
    select, reader = store.columns(model, alias)
    db_table = connection.ops.quote_name(model._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {select} FROM {db_table} {alias} WHERE {alias}.id = %s", [pk])
        return store.instance(model, cursor.fetchone(), reader)


def values(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_row_read_plainly_is_the_row_the_orm_reads(hole):
    hole.scores, hole.finished_at = [3, -5], timezone.now()
    hole.save()
    plain = read(Hole, "h", hole.pk)
    assert values(plain) == values(Hole.objects.get(pk=hole.pk))
    assert isinstance(plain.state, dict) and plain.finished_at.tzinfo is not None
    assert not plain._state.adding
    table = read(Table, "t", hole.table_id)
    assert values(table) == values(Table.objects.get(pk=hole.table_id))


def test_plain_writes_store_what_save_would(hole):
    state = {**hole.state, "marker": [1, None, {"a": "é"}]}
    hole.state, hole.version, hole.finished_at = state, 41, timezone.now()
    with transaction.atomic(), connection.cursor() as cursor, store.pipeline():
        store.update(cursor, hole, ["state", "version", "finished_at"])
        store.insert(
            cursor, Move(hole=hole, seq=41, seat=1, action={"type": "flip", "positions": [2]})
        )
    stored = Hole.objects.get(pk=hole.pk)
    assert (stored.state, stored.version, stored.finished_at) == (state, 41, hole.finished_at)
    move = Move.objects.get(hole=hole, seq=41)
    assert (move.seat, move.action, move.by_bot, move.summary) == (
        1,
        {"type": "flip", "positions": [2]},
        False,
        "",
    )
    assert move.created_at is not None


def test_a_failing_pipeline_raises_django_s_error_and_writes_nothing(hole):
    with connection.cursor() as cursor, store.pipeline():
        store.insert(cursor, Move(hole=hole, seq=1, seat=0, action={"type": "tee_off"}))
    hole.version = 99
    with (
        pytest.raises(IntegrityError),
        transaction.atomic(),
        connection.cursor() as cursor,
        store.pipeline(),
    ):
        store.update(cursor, hole, ["version"])
        store.insert(cursor, Move(hole=hole, seq=1, seat=1, action={"type": "tee_off"}))
    assert Hole.objects.get(pk=hole.pk).version != 99
    assert Move.objects.filter(hole=hole).count() == 1

"""A rematch is made once, however many of the players ask for it at the same time."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from games import lobby
from games.models import Table
from tests.factories import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def finished_table():
    ana = make_player("ana")
    ben = make_player("ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    table.refresh_from_db()
    return table, ana, ben


def test_players_asking_at_once_get_one_rematch():
    """Both players ask at the same moment, twice each: one new table, which all four
    requests answer with."""
    table, ana, ben = finished_table()
    start = threading.Barrier(4)
    answers: list[int] = []
    errors: list[BaseException] = []

    def ask(player) -> None:
        try:
            start.wait()
            answers.append(lobby.rematch(table=table, by=player).pk)
        except BaseException as error:  # reported below, not lost in the thread
            errors.append(error)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=ask, args=(p,)) for p in (ana, ben, ana, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert Table.objects.filter(rematch_of=table).count() == 1
    assert set(answers) == {Table.objects.get(rematch_of=table).pk}


def test_the_database_holds_one_rematch_a_table():
    table, ana, _ben = finished_table()
    Table.objects.create(host=ana, rematch_of=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(host=ana, rematch_of=table)


def test_the_migration_keeps_the_first_of_two_rematches():
    before = [("games", "0007_hole_review")]
    after = [("games", "0008_unique_rematch")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    Old = executor.loader.project_state(before).apps.get_model("games", "Table")
    played = Old.objects.create(invite_code="played")
    first = Old.objects.create(invite_code="first", rematch_of=played)
    second = Old.objects.create(invite_code="second", rematch_of=played)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    New = executor.loader.project_state(after).apps.get_model("games", "Table")
    assert list(New.objects.filter(rematch_of=played.pk).values_list("pk", flat=True)) == [first.pk]
    assert New.objects.filter(pk=second.pk, rematch_of__isnull=True).exists()
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

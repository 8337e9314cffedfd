"""Data migrations of games, run on records made before them."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0008_unique_rematch")]
AFTER = [("games", "0009_reviews_measured_anew")]


@pytest.mark.django_db(transaction=True)
def test_reviews_stored_by_the_old_measure_are_dropped_to_be_worked_out_anew():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    table = apps.get_model("games", "Table").objects.create(kind="live", invite_code="t")
    hole = apps.get_model("games", "Hole").objects.create(table=table, number=1, dealer=0)
    apps.get_model("games", "HoleReview").objects.create(
        hole=hole, position=0, decisions=[], given_away=43.8, samples=8
    )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    assert not apps.get_model("games", "HoleReview").objects.exists()
    assert apps.get_model("games", "Hole").objects.filter(pk=hole.pk).exists()
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

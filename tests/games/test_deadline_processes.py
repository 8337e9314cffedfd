"""Deadlines kept by the server on PostgreSQL: several real processes sweeping the same
overdue tables at once play each overdue move once, and a server's driver beside them
acts for none twice."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.db.models import Count
from django.utils import timezone

from games import lobby
from games.models import Move, Table
from tests.conftest import DaphneServer, database_url
from tests.factories import make_player

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
TABLES = 40


def sweep() -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    return subprocess.Popen(
        [sys.executable, "manage.py", "play_deadlines"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def overdue_tables(count: int) -> list[Table]:
    """`count` turn-based tables in play, each waiting on both its players' tee off, their
    deadlines passed an hour ago (a machine down for an hour), one a minute apart."""
    tables = []
    for n in range(count):
        ana, ben = make_player(f"ana{n}"), make_player(f"ben{n}")
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=2, players=[ana, ben], move_time=3600
        )
        tables.append(lobby.start_match(table=table, by=ana))
    an_hour_ago = timezone.now() - timedelta(hours=1)
    for n, table in enumerate(tables):
        Table.objects.filter(pk=table.pk).update(turn_deadline=an_hour_ago + timedelta(minutes=n))
    return tables


def test_several_processes_sweeping_at_once_play_each_overdue_move_once():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")
    tables = overdue_tables(TABLES)
    versions = {t.pk: Table.objects.get(pk=t.pk).version for t in tables}
    server = DaphneServer(extra_env={"FAIRWAY_BOT_DELAY": "0"})
    server.start()  # its driver plays deadlines too, beside the sweeps
    try:
        sweeps = [sweep() for _ in range(3)]
        outputs = [p.communicate(timeout=180) for p in sweeps]
    finally:
        server.stop()
    assert all(p.returncode == 0 for p in sweeps), outputs
    played = sum(int(out.split()[1]) for out, _err in outputs)
    assert played <= TABLES  # the rest the server's driver played
    for table in tables:
        after = Table.objects.get(pk=table.pk)
        # One change for the missed tee off (the timer for both seats), then a whole hour
        # for the next player: not a move more.
        assert after.version == versions[table.pk] + 2, table.pk
        assert after.turn_deadline > timezone.now() + timedelta(minutes=50)
    moves = Move.objects.filter(hole__table__in=tables)
    assert moves.count() == 2 * TABLES
    assert all(m.by_bot for m in moves)
    per_seat = moves.values("hole__table", "seat").annotate(n=Count("id"))
    assert {row["n"] for row in per_seat} == {1}
    # A sweep after them finds nothing overdue.
    out, _err = sweep().communicate(timeout=120)
    assert out.strip() == "Played 0 overdue moves."

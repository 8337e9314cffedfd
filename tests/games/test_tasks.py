"""The task queue's rules (games.tasks) with the database backend and real workers:
a failed task is tried again within limits and then kept with its error, and a task
whose worker was killed runs again on another."""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import lobby, reviews, tasks
from tests.factories import make_player
from tests.games.held_task import held_on_first_try

# The queue lives in the site's database: SQLite's and PostgreSQL's locking differ.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def _wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.1)


def _hole_in_play():
    host, guest = make_player(), make_player()
    table = lobby.create_table(host=host, variant="golf-6", seat_count=2, players=[host, guest])
    return lobby.start_match(table=table, by=host).holes.get(number=1)


def _run_queue() -> None:
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)


def test_a_failed_task_is_tried_again_within_limits_then_kept_with_its_error(
    task_workers, settings, admin_client
):
    """A review asked of a hole still in play fails on every try: tried
    FAIRWAY_TASK_ATTEMPTS times, then kept failed, its error shown in the admin."""
    settings.FAIRWAY_TASK_ATTEMPTS = 3
    settings.FAIRWAY_TASK_RETRY_SECONDS = 0
    hole = _hole_in_play()
    reviews.review_seats.enqueue(hole.pk, [0])
    _run_queue()
    row = DBTaskResult.objects.get()
    assert row.status == TaskResultStatus.FAILED
    assert len(row.worker_ids) == 3
    assert row.exception_class_path == "games.plays.GameError"
    assert "A hole is reviewed once it is over." in row.traceback
    admin = "admin:django_tasks_database_dbtaskresult"
    listed = admin_client.get(reverse(f"{admin}_changelist"))
    assert "review_seats" in listed.content.decode()
    shown = admin_client.get(reverse(f"{admin}_change", args=[row.pk]))
    assert "A hole is reviewed once it is over." in shown.content.decode()


def test_a_failed_task_waits_before_its_next_try_longer_each_time(task_workers, settings):
    settings.FAIRWAY_TASK_RETRY_SECONDS = 30
    hole = _hole_in_play()
    reviews.review_seats.enqueue(hole.pk, [0])
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--no-reload", "--max-tasks", "1", verbosity=0
    )
    row = DBTaskResult.objects.get()
    # Queued again, its error kept meanwhile, not before its delay.
    assert row.status == TaskResultStatus.READY and "reviewed once it is over" in row.traceback
    assert row.run_after > row.started_at + timedelta(seconds=29)
    assert not DBTaskResult.objects.ready().exists()
    assert [tasks.retry_delay(n).total_seconds() for n in (1, 2, 3)] == [30, 60, 120]


def test_a_task_whose_worker_was_killed_runs_again_on_another(task_workers, tmp_path):
    """A worker killed mid-task (SIGKILL: no goodbye) leaves its task running; another
    worker takes it up again once its lease is over, and it finishes."""
    marks = tmp_path / "tries"
    result = held_on_first_try.enqueue(str(marks))
    first = task_workers.start()
    _wait_for(lambda: marks.exists())
    os.kill(first.pid, signal.SIGKILL)
    first.wait()
    row = DBTaskResult.objects.get(pk=result.id)
    assert row.status == TaskResultStatus.RUNNING  # the backend alone would leave it so
    task_workers.start(FAIRWAY_TASK_LEASE_SECONDS="1", FAIRWAY_TASK_RECOVER_SECONDS="0.2")
    _wait_for(lambda: DBTaskResult.objects.get(pk=result.id).status == TaskResultStatus.SUCCESSFUL)
    row = DBTaskResult.objects.get(pk=result.id)
    assert row.return_value == 2 and len(row.worker_ids) == 2
    assert marks.read_text() == "try\ntry\n"
    assert "abandoned" in task_workers.log()


def test_a_task_abandoned_on_its_last_try_is_kept_failed(task_workers, settings):
    """No endless loop of a task that kills its worker: past its tries it is kept
    failed, saying why."""
    settings.FAIRWAY_TASK_ATTEMPTS = 1
    settings.FAIRWAY_TASK_LEASE_SECONDS = 0
    hole = _hole_in_play()
    result = reviews.review_seats.enqueue(hole.pk, [0])
    DBTaskResult.objects.filter(pk=result.id).get().claim("gone")
    assert tasks.recover_abandoned() == 1
    row = DBTaskResult.objects.get(pk=result.id)
    assert row.status == TaskResultStatus.FAILED and row.exception_class_path == tasks.ABANDONED
    assert tasks.recover_abandoned() == 0

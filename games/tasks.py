"""The task queue's rules, one home for them: what the site's background work may count
on whichever room queues it (Django's task framework, `django_tasks`, with the database
backend of `django_tasks_db`, so the queue lives in the site's own database).

- **Queued once the writes are in**: `enqueue_on_commit` queues a task when the
  transaction that asked for it commits (never one whose writes rolled back, and never
  one a worker would run before it can read them).
- **Retried within limits**: a task that raises is queued again, later each time
  (FAIRWAY_TASK_RETRY_SECONDS, doubled after each try), until it has been tried
  FAIRWAY_TASK_ATTEMPTS times; then it stays failed, with its error, in the admin's
  "Task results". The backend keeps a failure as it is: `retry_failed` does the rest,
  on the backend's `task_finished` signal, on the same row (so the admin shows one row
  a task, with its last error and the workers that tried it).
- **Nothing lost with a worker**: the backend leaves a task its worker died in (killed,
  or its machine gone) RUNNING for ever. `recover_abandoned` queues again each task
  running longer than FAIRWAY_TASK_LEASE_SECONDS (a try of it, as a failure is), or
  keeps it failed once its tries are spent. Every worker calls it as it starts and
  every few seconds after (`games.management.commands.db_worker`).

So every task must be safe to run again (each of ours is: it writes what is missing or
works its figures out anew), and far shorter than the lease.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks.base import Task
from django_tasks_db.models import DBTaskResult, get_date_max

logger = logging.getLogger(__name__)

#: Written as the error of a task whose worker died in it.
ABANDONED = "games.tasks.WorkerLost"


def enqueue_on_commit(task: Task, *args: Any, **kwargs: Any) -> None:
    """Queue `task` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(task.enqueue, *args, **kwargs))


def attempts(row: DBTaskResult) -> int:
    """How many times a worker took the task (each claim adds its worker's id)."""
    return len(row.worker_ids)


def retry_delay(tries: int) -> timedelta:
    """How long a task waits before its next try, after `tries` tries."""
    return timedelta(seconds=settings.FAIRWAY_TASK_RETRY_SECONDS * 2 ** max(tries - 1, 0))


def retry_failed(sender, task_result, **kwargs) -> None:
    """The backend's `task_finished`: a failed task of the database backend with tries
    left is queued again after its delay, its error kept until a try succeeds."""
    row = getattr(task_result, "db_result", None)
    if row is None or task_result.status != TaskResultStatus.FAILED:
        return  # another backend (the immediate one runs a task once), or a success
    tries = attempts(row)
    if tries >= settings.FAIRWAY_TASK_ATTEMPTS:
        logger.error("Task %s failed %s times: kept failed.", row.task_path, tries)
        return
    DBTaskResult.objects.filter(pk=row.pk, status=TaskResultStatus.FAILED).update(
        status=TaskResultStatus.READY,
        run_after=timezone.now() + retry_delay(tries),
        finished_at=None,
    )
    logger.warning("Task %s failed (try %s): queued again.", row.task_path, tries)


def recover_abandoned() -> int:
    """Queue again the tasks that have been running longer than the lease (their worker
    died in them), or keep failed those whose tries are spent. Returns how many it
    found. Safe in any number of workers at once: each row changes only while it is
    still running and as old as it was."""
    lease = timedelta(seconds=settings.FAIRWAY_TASK_LEASE_SECONDS)
    now = timezone.now()
    found = 0
    stale = DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING, started_at__lt=now - lease)
    for row in stale.only("pk", "worker_ids", "started_at", "task_path"):
        same = DBTaskResult.objects.filter(
            pk=row.pk, status=TaskResultStatus.RUNNING, started_at=row.started_at
        )
        tries = attempts(row)
        message = f"The worker running this task stopped before it finished (try {tries})."
        if tries >= settings.FAIRWAY_TASK_ATTEMPTS:
            changed = same.update(
                status=TaskResultStatus.FAILED,
                finished_at=now,
                exception_class_path=ABANDONED,
                traceback=message,
            )
        else:
            changed = same.update(
                status=TaskResultStatus.READY,
                run_after=get_date_max(),
                exception_class_path=ABANDONED,
                traceback=message,
            )
        if changed:
            found += 1
            logger.warning("Task %s was abandoned by its worker: %s", row.task_path, message)
    return found

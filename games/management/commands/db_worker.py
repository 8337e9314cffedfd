"""`manage.py db_worker`: the task worker, a process of its own beside the servers.

The database backend's worker (`django_tasks_db`), under its own name and with all its
options (`--queue-name`, `--interval`, `--batch`, `--max-tasks`, `--worker-id` ...), and
one thing more: it queues again the tasks a dead worker left running
(`games.tasks.recover_abandoned`), as it starts and every FAIRWAY_TASK_RECOVER_SECONDS
after, on a thread of its own, so that an idle worker recovers them too. Any number of
workers may run, on any machine that reaches the database. This command takes the
backend's name because `games` comes before `django_tasks_db` in INSTALLED_APPS.

Run it at a lower priority than the servers (`nice`): a review's seconds of playouts
then never take a core from a move (`make run` and deploy/serve.sh do).
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections
from django_tasks_db.management.commands import db_worker

from games.tasks import recover_abandoned

logger = logging.getLogger(__name__)


def _recover_every(seconds: float, stop: threading.Event) -> None:
    """Recover abandoned tasks now and every `seconds`, until `stop`."""
    while True:
        try:
            recover_abandoned()
        except Exception:  # the database away a moment: the next round tries again
            logger.exception("Could not look for abandoned tasks.")
        finally:
            connections.close_all()
        if stop.wait(seconds):
            return


class Command(db_worker.Command):
    help = (
        "Run a task worker: the database backend's, which also queues again the tasks "
        "a dead worker left running."
    )

    def handle(self, *args, **options) -> None:
        stop = threading.Event()
        threading.Thread(
            target=_recover_every,
            args=(settings.FAIRWAY_TASK_RECOVER_SECONDS, stop),
            name="recover-abandoned-tasks",
            daemon=True,
        ).start()
        try:
            super().handle(*args, **options)
        finally:
            stop.set()

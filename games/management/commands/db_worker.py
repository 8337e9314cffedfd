"""`manage.py db_worker`: the task worker, a process of its own beside the servers.

The database backend's worker (`django_tasks_db`), under its own name and with all its
options (`--queue-name`, `--interval`, `--batch`, `--max-tasks`, `--worker-id` ...), and
one thing more: it queues again the tasks a dead worker left running
(`games.tasks.recover_abandoned`), as it starts and every FAIRWAY_TASK_RECOVER_SECONDS
after, on a thread of its own, so that an idle worker recovers them too; and then keeps
the deadlines other rooms keep over tables (`games.deadlines.keep_other_deadlines`: a
turn-based event's rounds), the tables' own moves being the servers'. Any number of
workers may run, on any machine that reaches the database. This command takes the
backend's name because `games` comes before `django_tasks_db` in INSTALLED_APPS.

Run it at a lower priority than the servers (`nice`): a review's seconds of playouts
then never take a core from a move (`make run` and deploy/serve.sh do).

With FAIRWAY_TASK_METRICS_PORT set (or `--metrics-port`), the worker answers Prometheus
on that port, on FAIRWAY_TASK_METRICS_BIND (loopback by default): the reviews it worked
out and the queue's depth, as the servers' /metrics has them.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.db import connections
from django_tasks_db.management.commands import db_worker
from prometheus_client import start_http_server

from games.deadlines import keep_other_deadlines
from games.tasks import recover_abandoned

logger = logging.getLogger(__name__)


def _recover_every(seconds: float, stop: threading.Event) -> None:
    """Recover abandoned tasks, and keep the other rooms' deadlines, now and every
    `seconds`, until `stop`."""
    while True:
        try:
            recover_abandoned()
            keep_other_deadlines()
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

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=settings.FAIRWAY_TASK_METRICS_PORT,
            help="Answer Prometheus on this port (0: not at all).",
        )

    def handle(self, *args, **options) -> None:
        port = options.pop("metrics_port")
        if port:
            start_http_server(port, addr=settings.FAIRWAY_TASK_METRICS_BIND)
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

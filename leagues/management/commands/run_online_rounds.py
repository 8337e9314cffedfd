"""`manage.py run_online_rounds [--every SECONDS]`: open the online rounds whose opening
has come, and play out those due.

Each round's opening and due time has a task queued for it (`leagues.seating.online`);
this sweep catches what those missed (a round seated while the queue was down, say), from
cron or beside the task workers. Any number may run at once: each step happens once.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from leagues.seating.online import run_due_rounds


class Command(BaseCommand):
    help = "Open the online rounds whose opening has come and play out those due, once each."

    def add_arguments(self, parser):
        parser.add_argument(
            "--every",
            type=float,
            default=0,
            help="Keep sweeping, this many seconds apart (0: sweep once).",
        )

    def handle(self, *args, every: float = 0, **options):
        while True:
            opened, played = run_due_rounds()
            self.stdout.write(f"Opened {opened} online round(s); played out {played}.")
            if not every:
                return
            time.sleep(every)

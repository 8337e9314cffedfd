"""`manage.py play_deadlines [--every SECONDS]`: play the turn-based moves whose deadline passed.

Every server process plays deadlines as they fall (`games.autoplay`); this plays them
with no server running (after a machine was down, say), or from cron. Any number may
run at once, beside the servers: each overdue move is played once (`games.deadlines`).
Each sweep then keeps the deadlines other rooms keep over tables (an event's rounds,
`deadlines.sweep`): those are kept by this command alone.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from games.deadlines import sweep


class Command(BaseCommand):
    help = "Play every turn-based move whose deadline has passed, once each."

    def add_arguments(self, parser):
        parser.add_argument(
            "--every",
            type=float,
            default=0,
            help="Keep sweeping, this many seconds apart (0: stop once none is overdue).",
        )

    def handle(self, *args, every: float = 0, **options):
        while True:
            total = sweep()
            self.stdout.write(f"Played {total} overdue move{'' if total == 1 else 's'}.")
            if not every:
                return
            time.sleep(every)

"""Mail tomorrow's league night and event reminders and yesterday's results (run daily
by cron): queued as tasks for the task workers, or sent here with `--now`."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django_tasks import TaskResultStatus

from leagues.calendar.notices import queue_due_notices, send_due_notices


class Command(BaseCommand):
    help = (
        "Mail members a reminder the day before each league night and the results the "
        "morning after, and each entrant a reminder the day before an event: queued for "
        "the task workers (`db_worker`), or sent at once with --now. Safe to run again: "
        "no member gets the same mail twice."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--date",
            dest="today",
            help="Act as if today were this day (YYYY-MM-DD), to catch up on a missed run.",
        )
        parser.add_argument(
            "--now",
            action="store_true",
            help="Send the mail from this process instead of queueing it for the workers.",
        )

    def handle(self, *args, today: str | None = None, now: bool = False, **options):
        day = timezone.localdate() if today is None else self._parse(today)
        if now:
            sent = send_due_notices(today=day)
            self.stdout.write(
                f"{sent.reminders} reminder(s), {sent.results} result mail(s) and "
                f"{sent.event_reminders} event reminder(s) sent."
            )
            failed = len(sent.failed)
        else:
            results = queue_due_notices(today=day)
            self.stdout.write(f"{len(results)} mail task(s) queued.")
            # Known at once only where tasks run as they are queued (no workers).
            failed = sum(result.status == TaskResultStatus.FAILED for result in results)
        if failed:
            raise CommandError(
                f"Could not send all the mail ({failed} failed); the next run tries again."
            )

    @staticmethod
    def _parse(text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise CommandError(f"{text!r} is not a date: write it as YYYY-MM-DD.") from None

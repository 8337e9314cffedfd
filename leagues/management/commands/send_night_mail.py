"""Mail tomorrow's league night and event reminders and yesterday's results (run daily
by cron)."""

from __future__ import annotations

from datetime import date

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from leagues.calendar.notices import send_due_notices


class Command(BaseCommand):
    help = (
        "Mail members a reminder the day before each league night and the results the "
        "morning after, and each entrant a reminder the day before an event. Safe to run "
        "again: no member gets the same mail twice."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--date",
            dest="today",
            help="Act as if today were this day (YYYY-MM-DD), to catch up on a missed run.",
        )

    def handle(self, *args, today: str | None = None, **options):
        day = timezone.localdate() if today is None else self._parse(today)
        sent = send_due_notices(today=day)
        self.stdout.write(
            f"{sent.reminders} reminder(s), {sent.results} result mail(s) and "
            f"{sent.event_reminders} event reminder(s) sent."
        )
        if sent.failed:
            raise CommandError(
                f"Could not send to {len(sent.failed)} address(es); the next run tries again."
            )

    @staticmethod
    def _parse(text: str) -> date:
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise CommandError(f"{text!r} is not a date: write it as YYYY-MM-DD.") from None

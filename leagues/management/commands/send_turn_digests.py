"""Mail each member who chose an hourly or daily digest of their turns the tables still
waiting for their move (run hourly by cron)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from leagues.notify.services import send_digests


class Command(BaseCommand):
    help = (
        "Mail each member who chose a digest of their turns one mail of the turn-based "
        "tables still waiting for them: hourly members every run, daily members once a "
        "day. Run it hourly. Safe to run again: no turn is mailed twice."
    )

    def handle(self, *args, **options):
        sent = send_digests()
        self.stdout.write(f"{sent} digest(s) sent.")

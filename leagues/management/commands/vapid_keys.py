"""Print a fresh VAPID key pair for Web Push, as lines to paste into the environment."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from config.vapid import new_pair


class Command(BaseCommand):
    help = (
        'Print a fresh VAPID key pair for Web Push of "your turn" notices, as the '
        "environment takes it (FAIRWAY_VAPID_PRIVATE_KEY, FAIRWAY_VAPID_PUBLIC_KEY; "
        "FAIRWAY_VAPID_SUBJECT is a contact address for the push services). Set them once: "
        "a new pair makes every device already subscribed stop receiving (each turns "
        "notices on again)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--subject",
            default="mailto:admin@example.com",
            help="The contact address printed (mailto: or https:).",
        )

    def handle(self, *args, subject: str, **options):
        private, public = new_pair()
        self.stdout.write(f"FAIRWAY_VAPID_PRIVATE_KEY={private}")
        self.stdout.write(f"FAIRWAY_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"FAIRWAY_VAPID_SUBJECT={subject}")

"""`manage.py review_holes [--table ID ...]`: review every player's decisions in finished holes.

The server reviews each hole once it ends (`games.reviews`); this is the catch-up for
what that missed: holes that ended with the worker off, a review dropped from its full
queue or lost with a stopped server. Run it now and then (from cron, say). `--again`
works out anew the reviews already stored, once the way a review is measured changed.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games.models import Hole, HoleReview
from games.reviews import review_hole


class Command(BaseCommand):
    help = "Review each player's decisions in every finished hole not yet reviewed."

    def add_arguments(self, parser):
        parser.add_argument("--table", type=int, action="append", help="Only this table.")
        parser.add_argument(
            "--samples",
            type=int,
            default=None,
            help="Playouts per action (default: FAIRWAY_REVIEW_SAMPLES).",
        )
        parser.add_argument(
            "--again", action="store_true", help="Work out anew the reviews already stored."
        )

    def handle(self, *args, table=None, samples=None, again=False, **options):
        holes = Hole.objects.filter(finished_at__isnull=False).select_related("table")
        if table:
            holes = holes.filter(table_id__in=table)
        made = 0
        for hole in holes.order_by("pk"):
            people = set(
                hole.table.seats.filter(player__isnull=False).values_list("position", flat=True)
            )
            done = set(HoleReview.objects.filter(hole=hole).values_list("position", flat=True))
            for position in sorted(people if again else people - done):
                if position in hole.seat_positions:
                    # Not in one transaction: seconds of playouts would hold the
                    # database's writes meanwhile. A look in between works it out too.
                    HoleReview.objects.filter(hole=hole, position=position).delete()
                    review_hole(hole=hole, position=position, samples=samples)
                    made += 1
        self.stdout.write(f"{made} review{'s' if made != 1 else ''} made.")

"""`manage.py rebuild_ratings [--league ID ...]`: rate every league's matches again from scratch."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from leagues.models import League
from leagues.ratings.services import rebuild_ratings


class Command(BaseCommand):
    help = "Rebuild league ratings from every finished match, oldest first."

    def add_arguments(self, parser):
        parser.add_argument(
            "--league", type=int, action="append", help="Only this league (repeatable)."
        )

    def handle(self, *args, league=None, **options):
        leagues = League.objects.select_related("club").order_by("pk")
        if league:
            leagues = leagues.filter(pk__in=league)
            missing = set(league) - set(leagues.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"No league with id {', '.join(map(str, sorted(missing)))}.")
        for item in leagues:
            rated = rebuild_ratings(league=item)
            self.stdout.write(f"{item}: {rated} match{'es' if rated != 1 else ''} rated.")

"""`manage.py rebuild_ratings [--league ID ...]`: the repair tool. Score every league's
cards again from scratch (their stored figures) and rate its matches again, saying what
that changed: nothing, where the writes kept them as they should."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from leagues.models import League
from leagues.ratings.services import rebuild_ratings
from leagues.standings.services import rebuild_figures


class Command(BaseCommand):
    help = (
        "Score every league's cards again and rebuild its ratings from every finished "
        "match, oldest first, saying what changed."
    )

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
            figures = rebuild_figures(league=item)
            ratings = rebuild_ratings(league=item)
            rated = ratings.matches
            self.stdout.write(
                f"{item}: {figures}; {rated} match{'es' if rated != 1 else ''} rated, "
                f"{len(ratings.changed)} player(s)' rating changed."
            )

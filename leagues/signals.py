"""Ratings follow live league tables: when one finishes, its league is rerated."""

from __future__ import annotations

from django.db import transaction
from django.dispatch import receiver

from games.models import Table, match_finished


@receiver(match_finished, dispatch_uid="leagues_rate_finished_live_table")
def rate_finished_live_table(sender, table: Table, **kwargs) -> None:
    """Rebuild the league's ratings once a live night table's match is over.

    Hand-entered tables are rated by the service that records them.
    """
    if table.kind != Table.Kind.LIVE:
        return
    from .models import NightTable
    from .services import rebuild_ratings

    night_table = (
        NightTable.objects.filter(table=table).select_related("night__season__league").first()
    )
    # Rate its match once.
    if night_table is not None and not night_table.rating_changes.exists():
        league = night_table.night.season.league
        transaction.on_commit(lambda: rebuild_ratings(league=league))

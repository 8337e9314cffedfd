"""Ratings follow live league tables: when one finishes, its league is rerated."""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Table


@receiver(post_save, sender=Table, dispatch_uid="leagues_rate_finished_live_table")
def rate_finished_live_table(sender, instance: Table, **kwargs) -> None:
    """Rebuild the league's ratings once a live night table's match is over and saved.

    Hand-entered tables are rated by the service that records them.
    """
    if instance.kind != Table.Kind.LIVE or instance.status != Table.Status.FINISHED:
        return
    from .models import NightTable
    from .services import rebuild_ratings

    night_table = (
        NightTable.objects.filter(table=instance).select_related("night__season__league").first()
    )
    # A finished table is saved again now and then; rate its match once.
    if night_table is not None and not night_table.rating_changes.exists():
        league = night_table.night.season.league
        transaction.on_commit(lambda: rebuild_ratings(league=league))

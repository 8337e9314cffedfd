"""Scoring the leagues whose results came before the cards' stored figures (migration
0021): the site's own writes do it, so only once the database has every column they
read. A database migrated in one go past 0021 is scored when the migrate command is
done (`post_migrate`), whatever migrations come later."""

from __future__ import annotations

from django.apps import apps
from django.db import connections


def schema_is_current(connection) -> bool:
    """Whether every column of the site's own models is in the database."""
    tables = set(connection.introspection.table_names())
    with connection.cursor() as cursor:
        for app in ("games", "leagues"):
            for model in apps.get_app_config(app).get_models():
                table = model._meta.db_table
                if table not in tables:
                    return False
                there = {
                    column.name
                    for column in connection.introspection.get_table_description(cursor, table)
                }
                if any(f.column not in there for f in model._meta.concrete_fields):
                    return False
    return True


def score_leagues_not_scored(*, using: str = "default") -> int:
    """Score and rate every league when league cards exist and none has its figures yet
    (and the schema is current); how many leagues were scored."""
    from games.models import Scorecard
    from leagues.models import CardResult, League
    from leagues.ratings.services import rebuild_ratings

    from .services import rebuild_figures

    connection = connections[using]
    if "leagues_cardresult" not in connection.introspection.table_names():
        return 0
    if CardResult.objects.using(using).exists():
        return 0
    if not Scorecard.objects.using(using).filter(table__night_table__isnull=False).exists():
        return 0
    if not schema_is_current(connection):
        return 0
    leagues = list(League.objects.using(using))
    for league in leagues:
        rebuild_figures(league=league)
        rebuild_ratings(league=league)
    return len(leagues)


def after_migrate(sender, using: str = "default", **kwargs) -> None:
    score_leagues_not_scored(using=using)

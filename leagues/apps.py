from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Players and leagues"

    def ready(self) -> None:
        from . import signals  # noqa: F401
        from .standings.backfill import after_migrate

        post_migrate.connect(after_migrate, sender=self, dispatch_uid="leagues_score_after_migrate")

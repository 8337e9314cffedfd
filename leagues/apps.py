from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = "Players and leagues"

    def ready(self) -> None:
        from . import signals  # noqa: F401

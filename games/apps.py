from django.apps import AppConfig

from config import seams


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Live play leans on a few libraries' private names: refuse to start on versions
        # they were not written for.
        seams.check()

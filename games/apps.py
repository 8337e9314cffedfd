from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save

from . import seams


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # Live play leans on a few libraries' private names: refuse to start on versions
        # they were not written for.
        seams.check()
        from django_tasks.signals import task_finished

        from . import announce, reviews, tasks
        from .models import Hole, hole_finished

        # Open sockets follow a password change: the account's sockets recheck it.
        post_save.connect(
            announce.account_changed, sender=get_user_model(), dispatch_uid="games_account"
        )
        # A hole's players' reviews are worked out once it ends, off the move's way.
        hole_finished.connect(reviews.review_after_hole, sender=Hole, dispatch_uid="games_reviews")
        # A failed task is tried again within limits (games.tasks).
        task_finished.connect(tasks.retry_failed, dispatch_uid="games_retry_failed_tasks")

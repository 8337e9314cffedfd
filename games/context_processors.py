"""What every page of play's templates may show: how many turn-based tables wait on the
signed-in player (the count in every page's title and icon, `base.html`)."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from . import selectors


def turns_waiting(request: HttpRequest) -> dict:
    """`turns_waiting`: read when a template first shows it, so that a fragment rendered
    without the page's head reads nothing; 0 for a visitor who is not signed in."""

    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return selectors.turns_waiting(user)

    return {"turns_waiting": SimpleLazyObject(count)}

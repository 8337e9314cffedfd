"""Small factories for test records."""

from __future__ import annotations

from itertools import count

from leagues.models import Player

PASSWORD = "a-long-test-passphrase-42"
_numbers = count(1)


def make_player(username: str | None = None, **fields) -> Player:
    username = username or f"player{next(_numbers)}"
    return Player.objects.create_user(username=username, password=PASSWORD, **fields)

from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.vapid import new_pair
from tests.leagues.notify.devices import PushService, start_push_service

SUBJECT = "mailto:push@example.com"


@pytest.fixture
def push_keys(settings) -> str:
    """Push on, with a fresh VAPID pair: returns its public key."""
    private, public = new_pair()
    settings.FAIRWAY_VAPID_PRIVATE_KEY = private
    settings.FAIRWAY_VAPID_PUBLIC_KEY = public
    settings.FAIRWAY_VAPID_SUBJECT = SUBJECT
    return public


@pytest.fixture
def push_service() -> Iterator[PushService]:
    service = start_push_service()
    yield service
    service.server.shutdown()
    service.server.server_close()

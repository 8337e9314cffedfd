"""Fairway's ASGI stack plus the benchmark's baseline routes (never deployed)."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from tests.bench.consumers import EchoConsumer, FanoutConsumer  # noqa: E402

# The same middleware as production (origin check, session auth), so the baselines pay
# for what a table pays for apart from the game itself.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    [
                        path("ws/bench/echo/", EchoConsumer.as_asgi()),
                        path("ws/bench/fanout/<str:group>/", FanoutConsumer.as_asgi()),
                        *websocket_urlpatterns,
                    ]
                )
            )
        ),
    }
)

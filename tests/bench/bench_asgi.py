"""Fairway's ASGI stack plus the benchmark's baseline routes (never deployed)."""

from __future__ import annotations

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.urls import path

# The production entry point, as deployed: settings, apps, shutdown hooks, the
# operator's endpoints (/metrics, which the benchmark reads) and all.
from config.asgi import http_application
from config.metrics import count_sockets
from games.routing import websocket_urlpatterns
from tests.bench.consumers import EchoConsumer, FanoutConsumer

# The same middleware as production (origin check, session auth), so the baselines pay
# for what a table pays for apart from the game itself.
application = ProtocolTypeRouter(
    {
        "http": http_application,
        # Counted as production counts them (the baselines' sockets as "other").
        "websocket": count_sockets(
            AllowedHostsOriginValidator(
                AuthMiddlewareStack(
                    URLRouter(
                        [
                            path("ws/bench/echo/", EchoConsumer.as_asgi()),
                            path("ws/bench/fanout/<str:group>/", FanoutConsumer.as_asgi()),
                            *websocket_urlpatterns,
                        ]
                    )
                )
            )
        ),
    }
)

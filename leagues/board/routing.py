"""The night board's WebSocket route (config.asgi routes it beside live play's)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/board/<str:token>/", consumers.BoardConsumer.as_asgi()),
]

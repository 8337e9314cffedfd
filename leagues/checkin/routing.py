"""The night arrivals' WebSocket route (config.asgi routes it beside live play's)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/nights/<int:night_id>/arrivals/", consumers.ArrivalsConsumer.as_asgi()),
]

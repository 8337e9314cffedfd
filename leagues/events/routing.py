"""The events' WebSocket route (config.asgi routes it beside live play's)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/events/<int:event_id>/", consumers.EventConsumer.as_asgi()),
]

"""The table reports' WebSocket route (config.asgi routes it beside live play's)."""

from django.urls import path

from . import consumers

websocket_urlpatterns = [
    path("ws/report/<str:code>/", consumers.ReportConsumer.as_asgi()),
]

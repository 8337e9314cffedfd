"""Live play over WebSockets: one consumer per connection, joined to its table's group."""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer


class TableConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # 4401: an application close code meaning "sign in first".
            await self.close(code=4401)
            return
        await self.accept()

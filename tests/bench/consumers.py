"""Baseline consumers for the load benchmark: the cost of the transport alone.

`EchoConsumer` answers the sender only; `FanoutConsumer` relays every message to its
group through the channel layer. Neither touches the database nor renders anything,
so a table's figures can be read against them; both dispatch as a table's consumer
does (`LiveConsumer`), without channels' trip to the database thread per message.
"""

from __future__ import annotations

from games.seams import LiveConsumer


class EchoConsumer(LiveConsumer):
    async def receive(self, text_data=None, bytes_data=None):
        await self.send(text_data=text_data)


class FanoutConsumer(LiveConsumer):
    async def connect(self):
        self.group = f"bench_{self.scope['url_route']['kwargs']['group']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        await self.channel_layer.group_send(self.group, {"type": "relay", "text": text_data})

    async def relay(self, event):
        await self.send(text_data=event["text"])

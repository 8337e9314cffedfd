"""How a connection's messages reach its handlers (`games.seams.dispatch_all`)."""

from __future__ import annotations

import asyncio

import pytest

from games.seams import dispatch_all


def source(name: str, messages: list, delay: float = 0.0):
    """A source like a socket's or a channel's receive: `messages` one by one, then
    waits for ever (or raises, if the next item is an exception)."""
    items = iter(messages)

    async def receive():
        await asyncio.sleep(delay)
        item = next(items, None)
        if item is None:
            await asyncio.Event().wait()
        if isinstance(item, BaseException):
            raise item
        return {"from": name, "n": item}

    return receive


async def test_messages_from_every_source_are_dispatched_one_at_a_time():
    seen, busy = [], []

    async def dispatch(message):
        busy.append(message)
        assert len(busy) == 1  # never two handlers at once
        await asyncio.sleep(0.001)
        seen.append((message["from"], message["n"]))
        busy.remove(message)
        if len(seen) == 6:
            raise asyncio.CancelledError  # the connection closes

    sources = [source("socket", [1, 2, 3]), source("channel", [1, 2, 3], delay=0.0005)]
    with pytest.raises(asyncio.CancelledError):
        await dispatch_all(sources, dispatch)
    # Each source's messages in their own order; all of them.
    assert [n for name, n in seen if name == "socket"] == [1, 2, 3]
    assert [n for name, n in seen if name == "channel"] == [1, 2, 3]


async def test_a_sources_error_ends_the_loop_and_its_readers():
    dispatched = []

    async def dispatch(message):
        dispatched.append(message["n"])

    readers_before = len(asyncio.all_tasks())
    sources = [source("socket", [1, ValueError("gone")]), source("channel", [])]
    with pytest.raises(ValueError, match="gone"):
        await dispatch_all(sources, dispatch)
    assert dispatched == [1]
    await asyncio.sleep(0)
    assert len(asyncio.all_tasks()) == readers_before  # no reader left waiting


async def test_a_handler_that_stops_the_consumer_stops_the_readers():
    class Stop(Exception):
        pass

    async def dispatch(message):
        raise Stop

    readers_before = len(asyncio.all_tasks())
    with pytest.raises(Stop):
        await dispatch_all([source("socket", [1, 2]), source("channel", [])], dispatch)
    await asyncio.sleep(0)
    assert len(asyncio.all_tasks()) == readers_before

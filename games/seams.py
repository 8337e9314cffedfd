"""Where live play leans on another library's internals: each seam, the reason in one
sentence, and what public way it waits for. `check()` runs when the app loads
(`games.apps`) and refuses to start on versions these were not written for;
`tests/test_seams.py` fails for each one whose patch is taken away.

- `bound_cursor` (Django): Django binds parameters on the server only for a whole
  connection (`OPTIONS["server_side_binding"]`, which would change every query of the
  ORM, or a second database alias, whose connection would not see the writes of the
  caller's transaction); the statement of every move gets a psycopg cursor of its own,
  wrapped as Django wraps its cursors (`make_cursor`, undocumented but long-standing)
  so that its errors, execute wrappers and query log are Django's.
- `LiveConsumer` (channels): channels' consumer loop starts a task per message and
  closes the database connections on the database thread before every handler,
  queued behind every table's moves; `dispatch` is a subclass hook, the loop
  (`__call__`) is copied with `dispatch_all` in place of
  `channels.utils.await_many_dispatch`, for which channels offers no hook.

Django is checked by minor version only (5.2.*): its patch releases fix security and
data-loss bugs and seldom touch the backend's cursor wrapping, and an operator must be
able to take them the day they come out; a new minor version waits for
`tests/test_seams.py`.
asgiref is used through its public names alone: the server's event loop is recorded
where daphne starts (`announce.serve_from_running_loop`).

The server's own seams (daphne, channels-redis) are in `config/seams.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from importlib.metadata import version

import psycopg
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.core.exceptions import ImproperlyConfigured

#: The versions each seam here was written for, as pinned in requirements.txt.
WRITTEN_FOR = {
    # `bound_cursor`: `make_cursor` and `make_debug_cursor`, any 5.2 release.
    "Django": {"5.2.*"},
    # `LiveConsumer.__call__` copies `AsyncConsumer.__call__`, whose body may change in
    # any release; channels offers no hook for the loop over a consumer's messages.
    "channels": {"4.3.2"},
}


def check(written_for: dict[str, set[str]] = WRITTEN_FOR, where: str = "games/seams.py") -> None:
    """Refuse to start on a library version the seams of `where` were not written for."""
    wrong = [
        f"{name} {version(name)} (written for {', '.join(sorted(known))})"
        for name, known in written_for.items()
        if not any(_matches(version(name), written) for written in known)
    ]
    if wrong:
        raise ImproperlyConfigured(
            f"{where} uses private names of libraries at other versions than those "
            "installed: " + "; ".join(wrong) + ". Check each seam against the new version "
            "(tests/test_seams.py) and update its WRITTEN_FOR."
        )


def _matches(installed: str, written: str) -> bool:
    """Whether `installed` is the version `written` for, or of its series ("5.2.*")."""
    if written.endswith(".*"):
        return installed.startswith(written[:-1])
    return installed == written


# --- Django and psycopg: a cursor that binds values on the server ----------------------


def bound_cursor(connection):
    """A cursor of Django's PostgreSQL `connection` that sends parameters apart from the
    statement, so that psycopg may prepare it, wrapped as Django wraps its own (errors,
    execute wrappers, the query log when it is kept)."""
    connection.ensure_connection()
    connection.validate_thread_sharing()
    cursor = psycopg.Cursor(connection.connection)
    if connection.queries_logged:
        return connection.make_debug_cursor(cursor)
    return connection.make_cursor(cursor)


# --- channels: a consumer's loop over its messages ---------------------------------------


async def dispatch_all(sources: list, dispatch) -> None:
    """Pass each message from any of `sources` to `dispatch`, one at a time, in order
    of arrival, as channels' `await_many_dispatch` does, but with one reader task per
    source for the connection's life instead of new tasks (each with a copy of the
    context) and a new wait for every message: a server with hundreds of connections
    otherwise holds thousands of such objects, each a second old, for the garbage
    collector to walk. A source's error ends it as it would end channels' loop.
    """
    # One message waits per source at most, as with channels' one task per source.
    ready: asyncio.Queue = asyncio.Queue(maxsize=1)

    async def read(source) -> None:
        try:
            while True:
                await ready.put((await source(), None))
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # handed to the dispatching loop, which raises it
            await ready.put((None, error))

    readers = [asyncio.ensure_future(read(source)) for source in sources]
    try:
        while True:
            message, error = await ready.get()
            if error is not None:
                raise error
            await dispatch(message)
    finally:
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader


class LiveConsumer(AsyncWebsocketConsumer):
    """A WebSocket consumer that reaches the database only through
    `database_sync_to_async`, which closes old connections itself, and reads its
    messages through `dispatch_all`."""

    async def __call__(self, scope, receive, send) -> None:
        # As channels' AsyncConsumer.__call__, with `dispatch_all`.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            with contextlib.suppress(StopConsumer):
                await dispatch_all(sources, self.dispatch)
        finally:
            await self.release()

    async def release(self) -> None:
        """Let go of what the connection holds beyond its life (its groups). Runs once
        the connection ends, however it ends; channels' own loop has no such step."""

    async def layer_resumed(self, message: dict) -> None:
        """The channel layer lost messages and is back (`layer.resumed`): news sent
        meanwhile never arrived."""

    async def dispatch(self, message: dict) -> None:
        # As channels' AsyncConsumer.dispatch, without `aclose_old_connections` first.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

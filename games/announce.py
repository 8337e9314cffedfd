"""News after the commit: the only door from a write to the channel layer.

A change to a table is announced to the table's group once its transaction commits,
with the new version (and, where other processes can follow it, its news); the
database stays the truth, and a connection that missed the news asks for the table
as it stands.
"""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from .models import Table, turn_passed

logger = logging.getLogger(__name__)


def group_name(table_id: int) -> str:
    """The channel-layer group of a table's live connections."""
    return f"table_{table_id}"


def player_group(player_id: int) -> str:
    """The channel-layer group of all of one player's live connections."""
    return f"player_{player_id}"


def account_changed(sender, instance, update_fields=None, **kwargs) -> None:
    """A player's account was saved (a new password among other things): after the
    commit, their open connections check that their sign-in still holds. A post_save
    receiver; a log-in's own save (its time only) says nothing."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    group = player_group(instance.pk)
    message = {"type": "account.changed"}
    transaction.on_commit(lambda: _send(group, message))


def table_changed(
    table: Table, *, wake: bool = True, news: dict | None = None, written: bool = False
) -> None:
    """After the commit, tell the table's connections the new version (`written`: the
    change is committed already, by a write of the event loop this is called on).

    `wake` says the table may now wait on the server (a bot, the turn timer or a deal):
    connections poke their process's driver only then. `news` says what made the
    version when a process holding the version before can make it too (`plays.follow`):
    moves that do not end the match (`{"move": ...}`, or `{"moves": [...]}` when the
    timer plays for several seats), or a deal (`{"deal": ...}`), dealt again from the
    table's seed. The news stays between the server's
    processes: a deal's seed decides every hidden card, and consumers send viewers only
    frames rendered from `engine.view`, never a message as it came.
    """
    message = {"type": "table.changed", "version": table.version, "wake": wake}
    if news is not None:
        message["news"] = news
    group = group_name(table.pk)
    if written:
        _start(get_channel_layer(), group, message)
    else:
        transaction.on_commit(lambda: _send(group, message))


def turns_passed(table: Table, seats: list[tuple[int, int]]) -> None:
    """After the commit, send `turn_passed` for each (position, player id) of `seats`,
    whose turn began with `table`'s version, with its deadline."""
    deadline = table.turn_deadline
    for position, player_id in seats:
        transaction.on_commit(
            lambda position=position, player_id=player_id: turn_passed.send(
                sender=Table, table=table, position=position, player_id=player_id, deadline=deadline
            )
        )


def chat_changed(table_id: int) -> None:
    """After the commit, tell the table's connections that its chat changed (a line
    said or hidden, the chat turned on or off). The table's version stays as it is: a
    chat line never makes a player's move stale."""
    group = group_name(table_id)
    message = {"type": "chat.changed"}
    transaction.on_commit(lambda: _send(group, message))


def group_changed(group: str, message: dict) -> None:
    """After the commit, send `message` to `group`: the door for news of pages that live
    on a socket of their own (a league night's board), which games knows nothing of."""
    transaction.on_commit(lambda: _send(group, message))


#: The event loop this process serves from, once it runs (`serve_from_running_loop`).
_server_loop: asyncio.AbstractEventLoop | None = None


def serve_from_running_loop() -> None:
    """This process serves from the running event loop: news made on its worker threads
    (a consumer's or a view's write) is handed to it. Called as daphne starts
    (`config.asgi`) and as a table's connection opens (any other ASGI server, tests)."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def _forget_server_loop() -> None:
    # A forked child's copy of its parent's loop is not running in the child.
    global _server_loop
    _server_loop = None


os.register_at_fork(after_in_child=_forget_server_loop)

# Sends still on their way, so that none is collected before it is done.
_sending: set[asyncio.Task] = set()


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled() and task.exception() is not None:
        # The database is the truth; a lost message costs a resync.
        logger.error("Could not announce %s", task.get_name(), exc_info=task.exception())


# How long a caller without an event loop (a view, a command) waits for the channel
# layer before it gives up on the message and goes on.
SEND_TIMEOUT = 2.0


async def _send_within(layer, group: str, message: dict) -> None:
    await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)


def _what(message: dict) -> str:
    """A message's name in the log: the table version it announces, or its type."""
    return f"version {message['version']}" if "version" in message else message["type"]


def _loop_runs_here() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _start(layer, group: str, message: dict) -> None:
    """Send `message` to `group` from the running event loop, without waiting for it."""
    if layer is None:
        return
    task = asyncio.get_running_loop().create_task(
        layer.group_send(group, message), name=f"{group} {_what(message)}"
    )
    _sending.add(task)
    task.add_done_callback(_sent)


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    # While the server's event loop runs (a consumer's or a view's call on one of its
    # worker threads), hand the message to the loop and go on: waiting for it would hold
    # this thread, and the moves queued behind it, until the loop gets round to it. Sends
    # keep the order they are handed over in; should a table's announcements cross
    # (moves commit on several threads), a late one finds its viewers' process holding a
    # newer version already.
    loop = _server_loop
    if loop is not None and loop.is_running():
        loop.call_soon_threadsafe(_start, layer, group, message)
        return
    # Off the server (a command, a test), or once its loop has stopped: send from a loop
    # of this thread's own (async_to_sync waits on the loop of the `sync_to_async` call
    # that made this thread, if any, or makes one). Sync code called from inside a running
    # loop (a test driving a browser through playwright's sync API) can start no loop
    # here: a thread sends.
    try:
        if _loop_runs_here():
            with ThreadPoolExecutor(max_workers=1) as sender:
                sender.submit(asyncio.run, _send_within(layer, group, message)).result()
        elif loop is None:
            async_to_sync(_send_within)(layer, group, message)
        else:
            asyncio.run(_send_within(layer, group, message))
    except Exception:  # The database is the truth; a lost message costs a resync.
        logger.exception("Could not announce %s %s", group, _what(message))

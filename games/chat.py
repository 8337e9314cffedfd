"""A table's chat: short lines said at the table, hidden by its host (or a superuser, or an
organiser of the table), or turned off by its host.

Chat never touches the table's version: a line said while a player thinks over a move
must not make that move stale. Each change is announced on its own
(`announce.chat_changed`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from . import announce, selectors
from .models import ChatMessage, Table
from .plays import GameError
from .text import is_shown

CHAT_MAX_LENGTH = 200
#: Each player says at most CHAT_BURST lines in any CHAT_WINDOW seconds at a table.
CHAT_BURST = 5
CHAT_WINDOW = 10


def _chat_table(table_id: int) -> Table:
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise GameError("No such table.")
    return table


def say(*, table_id: int, player, text: str, now: datetime | None = None) -> ChatMessage:
    """`player` says `text` at the table: one line, its spaces folded, at most
    CHAT_MAX_LENGTH characters, and no more than CHAT_BURST lines in CHAT_WINDOW seconds."""
    text = " ".join(text.split())  # line breaks and runs of spaces fold to one space
    if not text:
        raise GameError("Write something to say.")
    if len(text) > CHAT_MAX_LENGTH:
        raise GameError(f"A chat message is at most {CHAT_MAX_LENGTH} characters.")
    if not is_shown(text):
        raise GameError("That message holds characters that cannot be shown.")
    now = now or timezone.now()
    with transaction.atomic():
        table = _chat_table(table_id)
        if not table.chat_on:
            raise GameError("The chat is off at this table.")
        if not selectors.may_chat(table, player):
            raise GameError("Only the players at this table can chat; watchers read.")
        said = ChatMessage.objects.filter(
            table=table, author=player, created_at__gt=now - timedelta(seconds=CHAT_WINDOW)
        ).count()
        if said >= CHAT_BURST:
            raise GameError(
                f"Slow down: at most {CHAT_BURST} chat messages in {CHAT_WINDOW} seconds."
            )
        message = ChatMessage.objects.create(table=table, author=player, text=text)
        announce.chat_changed(table.pk)
    return message


def hide_chat_message(*, table_id: int, message_id: int, by) -> None:
    """The table's host, a superuser or an organiser of the table (a league night's) hides a
    chat line from everyone. The caller has checked that `by` may see the table."""
    with transaction.atomic():
        table = _chat_table(table_id)
        if not selectors.may_moderate(table, by):
            raise GameError("Only the host or an organiser can hide a chat message.")
        message = ChatMessage.objects.select_for_update().filter(pk=message_id, table=table).first()
        if message is None:
            raise GameError("There is no such chat message at this table.")
        if message.hidden:
            raise GameError("That chat message is hidden already.")
        message.hidden = True
        message.hidden_by = by
        message.save(update_fields=["hidden", "hidden_by"])
        announce.chat_changed(table.pk)


def set_chat(*, table_id: int, by, on: bool) -> None:
    """The host turns the table's chat on or off (it is on by default)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().filter(pk=table_id).first()
        if table is None:
            raise GameError("No such table.")
        if by is None or table.host_id != by.pk:
            raise GameError("Only the host can turn the chat on or off.")
        if table.chat_on == on:
            raise GameError(f"The chat is {'on' if on else 'off'} already.")
        # The table's settings change without a new version: no move goes stale.
        Table.objects.filter(pk=table.pk).update(chat_on=on)
        announce.chat_changed(table.pk)

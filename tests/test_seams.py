"""The seams onto other libraries' private names hold on the versions installed, and the
app refuses to start on others."""

from __future__ import annotations

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import ImproperlyConfigured

from config import seams


def test_the_installed_libraries_are_those_the_seams_were_written_for():
    seams.check()


def test_another_version_stops_the_app_with_the_library_named(monkeypatch):
    monkeypatch.setitem(seams.WRITTEN_FOR, "daphne", {"0.0.1"})
    with pytest.raises(ImproperlyConfigured, match=r"daphne .* \(written for 0\.0\.1\)"):
        seams.check()


async def test_a_worker_thread_of_the_server_knows_its_event_loop():
    loop = asyncio.get_running_loop()
    assert await sync_to_async(seams.server_loop)() is loop
    assert await sync_to_async(seams.server_loop, thread_sensitive=False)() is loop


def test_a_thread_of_its_own_has_no_server_loop():
    found = []
    thread = threading.Thread(target=lambda: found.append(seams.server_loop()))
    thread.start()
    thread.join()
    assert found == [None]


def test_daphne_closes_with_the_restart_codes():
    from daphne.ws_protocol import WebSocketProtocol

    seams.allow_restart_codes()
    sent = []

    class Protocol(WebSocketProtocol):
        def __init__(self):
            pass

        def sendCloseFrame(self, code=None, reasonUtf8=None, isReply=False):  # noqa: N802
            sent.append(code)

    Protocol().serverClose(code=1012)
    assert sent == [1012]

"""Each seam onto another library's internals does what it is there for, on the library
installed: every test here fails if its seam's patch is taken away. The channel layer's
seams are held in `tests/test_channel_layer.py`."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import ApplicationCommunicator
from daphne.ws_protocol import WebSocketFactory
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from packaging.requirements import Requirement
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from config import seams
from games import seams as games_seams


def test_another_version_stops_the_app_with_the_library_named(monkeypatch):
    games_seams.check()
    seams.check()
    monkeypatch.setitem(seams.WRITTEN_FOR, "daphne", {"0.0.1"})
    with pytest.raises(ImproperlyConfigured, match=r"daphne .* \(written for 0\.0\.1\)"):
        seams.check()
    monkeypatch.setitem(games_seams.WRITTEN_FOR, "channels", {"0.0.1"})
    with pytest.raises(ImproperlyConfigured, match=r"games/seams.py .* channels "):
        games_seams.check()


# --- Django and asgiref ------------------------------------------------------------------


def test_a_patch_release_of_django_or_asgiref_starts_the_app_and_a_minor_one_does_not(
    monkeypatch,
):
    """An operator takes their patch releases as they come; the next minor version of
    Django waits for its seam to be checked (and for requirements.txt to allow it)."""
    installed = games_seams.version
    later = {"Django": "5.2.99", "asgiref": "3.99.0"}
    monkeypatch.setattr(games_seams, "version", lambda name: later.get(name) or installed(name))
    games_seams.check()
    seams.check()
    later["Django"] = "5.3.0"
    with pytest.raises(ImproperlyConfigured, match=r"Django 5\.3\.0 \(written for 5\.2\.\*\)"):
        games_seams.check()
    lines = (Path(__file__).resolve().parents[1] / "requirements.txt").read_text().splitlines()
    django = next(Requirement(line) for line in lines if line.startswith("Django"))
    assert django.specifier.contains("5.2.99")
    assert not django.specifier.contains("5.3.0")


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_bound_cursor_has_its_statement_prepared_and_django_sees_it():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")
    statement = "SELECT %s::int + 1 AS fairway_seam"
    seen: list[str] = []

    def record(execute, sql, params, many, context):
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        for n in range(3):  # prepared from the second time (settings' prepare_threshold)
            with games_seams.bound_cursor(connection) as cursor:
                cursor.execute(statement, [n])
                assert cursor.fetchone() == (n + 1,)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert [s for s in prepared if "fairway_seam" in s]
    assert seen == [statement] * 3  # wrapped as Django wraps its own cursors


# --- channels -----------------------------------------------------------------------------


class Echo(games_seams.LiveConsumer):
    async def ping(self, message: dict) -> None:
        await self.send(text_data="pong")


async def test_a_message_does_not_wait_for_the_database_thread():
    """channels' own dispatch closes old connections on the database thread before each
    handler: a connection's message would queue behind every move being written."""
    busy, release = threading.Event(), threading.Event()

    def write_a_move() -> None:
        busy.set()
        release.wait(10)

    writing = asyncio.ensure_future(database_sync_to_async(write_a_move)())
    await asyncio.get_running_loop().run_in_executor(None, busy.wait, 5)
    app = ApplicationCommunicator(Echo.as_asgi(), {"type": "websocket", "path": "/"})
    try:
        await app.send_input({"type": "ping"})
        assert (await app.receive_output(2))["text"] == "pong"
    finally:
        release.set()
        await writing
        app.stop()


# --- daphne -------------------------------------------------------------------------------


def test_daphne_builds_each_websocket_connection_with_the_seams_protocol():
    previous = WebSocketFactory.protocol
    try:
        seams.use_websocket_protocol(7)
        protocol = WebSocketFactory(None).buildProtocol(("127.0.0.1", 1))
        assert isinstance(protocol, seams.WebSocketProtocol)
        assert protocol.slow_seconds == 7
    finally:
        WebSocketFactory.protocol = previous


class Opened(seams.WebSocketProtocol):
    """The protocol as daphne leaves it once the upgrade is done, on a test transport."""

    def __init__(self, slow_seconds: float = 0) -> None:
        super().__init__()
        self.slow_seconds = slow_seconds
        self.clock = Clock()
        self.sent: list[int | None] = []
        self.dropped = False

        class Server:
            def log_action(self, *args) -> None:
                pass

        class Request:
            path = "/ws/table/1/"

        self.server, self.request, self.client_addr = Server(), Request(), ("127.0.0.1", 1)
        self.transport = StringTransport()

    def sendCloseFrame(self, code=None, reasonUtf8=None, isReply=False):  # noqa: N802
        self.sent.append(code)

    def dropConnection(self, abort=False):  # noqa: N802
        self.dropped = True


@pytest.mark.parametrize("code", sorted(seams.RESTART_CODES))
def test_daphne_closes_with_the_restart_codes(code):
    protocol = Opened()
    protocol.serverClose(code=code)  # autobahn's sendClose refuses them
    assert protocol.sent == [code]


def test_a_client_that_leaves_its_buffer_full_is_dropped_after_the_slow_seconds():
    protocol = Opened(slow_seconds=3)
    protocol.onOpen()
    guard = protocol.transport.producer
    assert guard is not None and protocol.transport.streaming

    guard.pauseProducing()  # Twisted: the client leaves more than the buffer unread
    protocol.clock.advance(2.9)
    assert not protocol.dropped
    guard.resumeProducing()  # it read
    protocol.clock.advance(10)
    assert not protocol.dropped

    guard.pauseProducing()
    protocol.clock.advance(3)
    assert protocol.dropped


def test_without_slow_seconds_no_client_is_dropped():
    protocol = Opened(slow_seconds=0)
    protocol.onOpen()
    assert protocol.transport.producer is None

"""A real daphne server stopped mid-hole and started again: the table, moves and bots carry on."""

from __future__ import annotations

import re
import signal
import subprocess
import time

import pytest
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games import lobby, services
from games.models import Move, Table
from tests.conftest import DaphneServer
from tests.factories import make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = pytest.mark.both_databases


@pytest.fixture
def server(transactional_db):
    server = DaphneServer(extra_env={"FAIRWAY_BOT_DELAY": "0", "FAIRWAY_HOLE_PAUSE": "0"})
    yield server
    server.stop()


def open_socket(server: DaphneServer, user, table: Table):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"].value
    return connect(
        f"{server.ws_url}/ws/tables/{table.pk}/",
        additional_headers={"Origin": "http://127.0.0.1", "Cookie": f"sessionid={cookie}"},
        open_timeout=10,
    )


def wait_for(predicate, seconds: float = 120) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


def test_a_restarted_server_carries_on_with_the_table_its_moves_and_bots(server):
    ana = make_player("ana", display_name="Ana")
    people = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    lobby.start_match(table=people, by=ana)
    bots_only = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "random"}
    )
    lobby.start_match(table=bots_only, by=ana)

    server.start()
    with open_socket(server, ana, people) as ws:
        ws.recv(timeout=10)
        # The bot tees off as soon as the connection wakes the driver.
        assert wait_for(lambda: Move.objects.filter(hole__table=people).exists())
    assert wait_for(lambda: Move.objects.filter(hole__table=bots_only).count() > 3)
    server.stop()  # mid-hole, mid-match

    moves_then = Move.objects.filter(hole__table=bots_only).count()
    people.refresh_from_db()
    server.start()
    with open_socket(server, ana, people) as ws:
        frame = ws.recv(timeout=10)
        # The reconnecting client sees the table as the database has it.
        assert f'data-version="{people.version}"' in frame
        assert re.search(rf'name="version" value="{people.version}"', frame)
        assert "Your tee off" in frame
        assert wait_for(lambda: Table.objects.get(pk=bots_only.pk).status == Table.Status.FINISHED)
    assert Move.objects.filter(hole__table=bots_only).count() > moves_then
    for hole in Table.objects.get(pk=bots_only.pk).holes.all():
        seqs = list(hole.moves.values_list("seq", flat=True))
        assert seqs == list(range(1, len(seqs) + 1))


def test_a_stopping_server_closes_its_sockets_with_1012_so_htmx_reconnects(server):
    """htmx's ws extension reconnects after 1012 (service restart), not after 1000 or 1001."""
    ana = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    server.start()
    with open_socket(server, ana, table) as ws:
        ws.recv(timeout=10)
        server.stop(signal.SIGTERM)
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=10)
        assert ws.close_code == 1012


def test_a_server_stopped_while_its_bots_play_exits_at_once(server, settings):
    """SIGTERM while the driver is acting for many tables: the process ends, it does not
    hang on an announcement to an event loop that has stopped, and its socket is closed
    with 1012 however long the driver takes to stop."""
    settings.FAIRWAY_MAX_HOSTED_TABLES = 12  # one host for every table
    ana = make_player("ana", display_name="Ana")
    tables = []
    for _ in range(12):
        table = lobby.create_table(
            host=ana,
            variant="play-nine",
            seat_count=4,
            players=[ana],
            bots={1: "greedy", 2: "greedy", 3: "greedy"},
        )
        lobby.start_match(table=table, by=ana)
        services.leave_match(table=table, player=ana)  # bots in every seat
        tables.append(table)
    server.start()
    with open_socket(server, ana, tables[0]) as ws:
        ws.recv(timeout=10)
        # The connection started the driver; it acts for every table, again and again.
        assert wait_for(lambda: Move.objects.filter(hole__table__in=tables).count() > 200, 60)
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(timeout=8)
        except subprocess.TimeoutExpired:
            pytest.fail("The server did not exit within 8 s of SIGTERM.")
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=10)
        assert ws.close_code == 1012
    assert code == 0


def test_a_server_moves_its_bots_from_start_up_before_anyone_connects(server):
    """Bots and turn timers run from the moment the server starts, not from the first
    socket that opens: a bot whose turn came while no server ran moves at once."""
    ana = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    lobby.start_match(table=table, by=ana)
    server.start()
    # No socket, no page: the server's own driver tees off for the bot.
    assert wait_for(lambda: Move.objects.filter(hole__table=table, by_bot=True).exists(), 30)

"""Fault drills on the real services: Redis or PostgreSQL going away mid-hole, a client
that stops reading, a backup restored into a fresh database.

A table is played by people (WebSocket clients, as a page's socket) and bots across
two daphne processes. Each drill starts its own redis-server or PostgreSQL cluster on a
free port, so it can stop and start it, and runs in the PostgreSQL phase of the suite
(`make test-postgres`).
"""

from __future__ import annotations

import base64
import contextlib
import functools
import json
import os
import re
import socket
import threading
import time

import psycopg
import pytest
from django.conf import settings
from django.db import connection, transaction
from websockets.sync.client import connect

from games import consumers, engine, lobby, plays
from games.engine import state_to_dict
from games.models import Move, Table
from games.selectors import replay_states
from tests import services as outside
from tests.conftest import DaphneServer, database_url, require
from tests.factories import make_player
from tests.faults import PostgresCluster, RedisServer, copy_database
from tests.games.conftest import session_cookie
from tests.games.helpers import current, quick_action
from tests.games.test_consumers import frame_for
from tests.games.test_restart import open_socket, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

VERSION = re.compile(r'data-version="(\d+)"')
ALERT = re.compile(r'<div id="table-alert"[^>]*><p>([^<]+)</p>')
# Bots answer at once; a finished hole stays shown, so the drill stays mid-match.
QUICK = {"FAIRWAY_BOT_DELAY": "0", "FAIRWAY_HOLE_PAUSE": "3600"}


def require_postgres_database() -> None:
    require("postgres")
    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    problem = "set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`"
    if outside.in_ci():
        pytest.fail(problem)
    pytest.skip(problem)


class Seat:
    """A person's socket to the table, remembering the newest version it was shown."""

    def __init__(self, ws, name: str) -> None:
        self.ws = ws
        self.name = name
        self.version: int | None = None
        self.seen: set[int] = set()
        self.alerts: list[str] = []

    def read(self, timeout: float) -> str:
        frame = self.ws.recv(timeout=timeout)
        if found := VERSION.search(frame):
            self.version = int(found.group(1))
            self.seen.add(self.version)
        if alert := ALERT.search(frame):
            self.alerts.append(alert.group(1))
        return frame

    def drain(self, seconds: float = 0.0) -> None:
        """Read every frame that arrives within `seconds`."""
        deadline = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while True:
                self.read(max(0.0, deadline - time.monotonic()))

    def shown(self, version: int, seconds: float) -> bool:
        """Frames arrive, without asking, until one shows `version`."""
        deadline = time.monotonic() + seconds
        while version not in self.seen:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                self.read(left)
        return True

    def sync(self) -> None:
        """What the page sends every 10 s without news."""
        self.ws.send(json.dumps({"type": "sync", "version": str(self.version)}))


def version_of(table: Table) -> int:
    return Table.objects.get(pk=table.pk).version


def settled(table: Table) -> bool:
    """The bots have moved: a person is to act, or the hole is over."""
    db_table = Table.objects.prefetch_related("seats").get(pk=table.pk)
    hole = db_table.holes.order_by("-number").first()
    return (
        hole.finished_at is not None or plays.pending(db_table, hole, db_table.seats.all()) is None
    )


def person_to_act(table: Table) -> tuple[int, dict, int] | None:
    """(position, action, version) of the first person who may act once the bots have
    moved; None when the hole is over."""
    assert wait_for(lambda: settled(table), 30)
    db_table, hole, state = current(table.pk)
    if hole.finished_at is not None:
        return None
    for position in (0, 1):
        seat = hole.seat_positions.index(position)
        if engine.legal_actions(state, seat):
            return position, quick_action(state, seat), db_table.version
    raise AssertionError("no one may act at a settled table")


def people_move(
    table: Table, seats: dict[int, Seat], moves: int, refused: set[str] = frozenset()
) -> list[int]:
    """People make `moves` moves, bots answering: the versions they were made on. Each
    is applied and its mover shown it at once, through the mover's own process; a move
    refused with one of the messages `refused` is made again, as its player would."""
    made = []
    while len(made) < moves:
        turn = person_to_act(table)
        if turn is None:
            break
        position, action, version = turn
        mover = seats[position]
        mover.ws.send(frame_for(action, version))
        # Just after a restart the pool may still be waiting to reconnect: a move waits
        # for a connection (the pool's 10 s), and one broken off is answered once the
        # database answers (up to LOST_DATABASE_SECONDS).
        answered = consumers.LOST_DATABASE_SECONDS + 30
        # The mover's frames are read meanwhile: a refusal arrives as one.
        assert wait_for(
            lambda v=version, m=mover: version_of(table) > v or m.drain(0.2) or m.alerts, answered
        )
        if mover.alerts and mover.alerts[-1] in refused:
            mover.alerts.clear()
            continue
        assert not mover.alerts, mover.alerts
        assert mover.shown(version + 1, 10)
        made.append(version)
    return made


def four_seats() -> tuple[Table, object, object]:
    """A match in play: Ana and Ben (positions 0 and 1) and two bots."""
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana,
        variant="play-nine",
        seat_count=4,
        players=[ana, ben],
        bots={2: "greedy", 3: "random"},
    )
    lobby.start_match(table=table, by=ana)
    return table, ana, ben


@contextlib.contextmanager
def two_servers(env: dict[str, str]):
    pair = [DaphneServer(extra_env={**QUICK, **env}) for _ in range(2)]
    try:
        yield [server.start() for server in pair]
    finally:
        for server in pair:
            server.stop()


def logged(server: DaphneServer, *needles: str) -> list[str]:
    text = server.log.read_text(errors="replace")
    return [needle for needle in needles if needle in text]


# --- Redis goes away ----------------------------------------------------------------

#: As long as the outage in the issue: long enough for redis-py's reconnection backoff
#: (up to 10 s a try) to run out and start again, and for moves and bots to go on.
REDIS_OUTAGE = 30.0


def test_redis_away_for_30_s_mid_hole_loses_no_move_and_every_seat_catches_up(
    transactional_db,
):
    """Redis stops mid-hole and comes back 30 s later. Meanwhile people move and bots
    play (the truth is PostgreSQL), each mover sees its move at once, and a page's sync
    brings a seat on the other process up to date. Once Redis is back, news crosses the
    processes again without a restart, and every seat is shown the table as it stands."""
    require_postgres_database()
    require("redis-server")
    redis = RedisServer().start()
    table, ana, ben = four_seats()
    try:
        with (
            two_servers({"REDIS_URL": redis.url}) as (one, two),
            open_socket(one, ana, table) as ana_ws,
            open_socket(two, ben, table) as ben_ws,
        ):
            seats = {0: Seat(ana_ws, "Ana"), 1: Seat(ben_ws, "Ben")}
            for seat in seats.values():
                seat.read(10)

            play = functools.partial(people_move, table, seats)
            play(2)
            now = version_of(table)
            assert all(seat.shown(now, 10) for seat in seats.values())

            redis.stop()
            away = time.monotonic()
            assert len(play(3)) == 3
            # A seat behind (news of moves on the other process never came) is brought
            # up to date by the sync its page sends: its own process answers it.
            for seat in seats.values():
                seat.drain(0.5)
                if seat.version != version_of(table):
                    seat.sync()
                    assert seat.shown(version_of(table), 10)
            while time.monotonic() - away < REDIS_OUTAGE:
                play(1)
                for seat in seats.values():
                    seat.drain(1)
            # Until one seat is behind when Redis comes back.
            for _ in range(10):
                if any(seat.version != version_of(table) for seat in seats.values()):
                    break
                play(1)
                for seat in seats.values():
                    seat.drain(0.5)
            now = version_of(table)
            behind = [seat.name for seat in seats.values() if seat.version != now]
            assert behind

            redis.start()
            # Without a sync or a move, every seat is shown the table as it stands, once
            # each process hears from Redis again (redis-py waits up to 10 s a try).
            for seat in seats.values():
                assert seat.shown(now, 30), (seat.name, seat.version, now)
            # News crosses the processes again, with no restart.
            assert play(2)
            now = version_of(table)
            assert all(seat.shown(now, 10) for seat in seats.values())
            for server in (one, two):
                assert server.process.poll() is None
                assert logged(server, "Redis answers again") == ["Redis answers again"]
            assert not [seat.alerts for seat in seats.values() if seat.alerts]
            assert Move.objects.filter(hole__table=table).count() >= 8
    finally:
        redis.stop()


# --- PostgreSQL restarts ----------------------------------------------------------------


def socket_for(server: DaphneServer, cookie: bytes, table: Table):
    return connect(
        f"{server.ws_url}/ws/tables/{table.pk}/",
        additional_headers={"Origin": "http://127.0.0.1", "Cookie": cookie.decode()},
        open_timeout=10,
    )


def fresh_connection() -> None:
    """Forget this process's connections (the server they went to has gone)."""
    connection.close()
    if "pool" in connection.settings_dict.get("OPTIONS", {}):
        connection.close_pool()


@contextlib.contextmanager
def orm_on(cluster: PostgresCluster, name: str):
    """This process's ORM reads database `name` of `cluster` within the block."""
    saved = dict(connection.settings_dict)
    fresh_connection()
    connection.settings_dict.update(
        NAME=name, HOST="127.0.0.1", PORT=cluster.port, USER="postgres", PASSWORD=""
    )
    try:
        yield
    finally:
        fresh_connection()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


@contextlib.contextmanager
def restored_copy(table: Table, people):
    """The test database (with `table` in play and `people` signed in) restored into a
    cluster of the test's own, and Redis of its own, two daphne processes serving them,
    and the ORM here reading the copy: (cluster, servers, cookies)."""
    require("postgres-cluster")
    require("pg_dump")
    require("redis-server")
    cookies = [session_cookie(person) for person in people]
    cluster = PostgresCluster()
    redis = RedisServer()
    try:
        cluster.init().start()
        redis.start()
        url = copy_database(database_url(), cluster, "fairway")
        with (
            two_servers({"DATABASE_URL": url, "REDIS_URL": redis.url}) as servers,
            orm_on(cluster, "fairway"),
        ):
            yield cluster, servers, cookies
    finally:
        redis.stop()
        cluster.remove()


def consistent(table: Table) -> None:
    """The move log runs 1, 2, 3... in every hole, and each stored hole is its replay
    (read under the table's lock, so that no writer is halfway)."""
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        for hole in Table.objects.get(pk=table.pk).holes.all():
            seqs = list(hole.moves.values_list("seq", flat=True))
            assert seqs == list(range(1, len(seqs) + 1))
            assert hole.state == state_to_dict(replay_states(hole)[-1][0])


def told(mover: Seat, version: int) -> str:
    """What the mover of a move made on `version` is told: an alert, or (none) its move
    shown."""
    deadline = time.monotonic() + 40
    while not mover.alerts and (mover.version or 0) <= version:
        assert time.monotonic() < deadline, "the mover was told nothing"
        mover.read(deadline - time.monotonic())
    return mover.alerts.pop() if mover.alerts else ""


def test_postgres_restarting_mid_hole_applies_a_move_in_flight_once_or_not_at_all(
    transactional_db,
):
    """PostgreSQL restarts while a player's move is on its way. The move is applied once
    or not at all and the player is told which; the socket stays open; each worker gets
    new connections on its own and play goes on, bots included."""
    require_postgres_database()
    table, ana, ben = four_seats()
    with restored_copy(table, [ana, ben]) as (cluster, (one, two), cookies):
        with (
            socket_for(one, cookies[0], table) as ana_ws,
            socket_for(two, cookies[1], table) as ben_ws,
        ):
            seats = {0: Seat(ana_ws, "Ana"), 1: Seat(ben_ws, "Ben")}
            for seat in seats.values():
                seat.read(10)
            assert people_move(table, seats, 2)

            def moves() -> int:
                return Move.objects.filter(hole__table=table).count()

            # A move surely in flight: it waits on the table's row, held here, when the
            # server stops at once (as in a crash: a fast shutdown ends the holder first
            # and may let the move commit). Its transaction dies with the server.
            position, action, version = person_to_act(table)
            mover, before = seats[position], moves()
            locker = psycopg.connect(cluster.url("fairway"))
            try:
                locker.execute("SELECT 1 FROM games_table WHERE id = %s FOR UPDATE", [table.pk])
                mover.ws.send(frame_for(action, version))
                with connection.cursor() as cursor:
                    assert wait_for(lambda: a_move_waits(cursor), 15)
                cluster.stop("immediate")
            finally:
                with contextlib.suppress(psycopg.Error):
                    locker.close()
            fresh_connection()
            cluster.start()
            assert told(mover, version) == consumers.MOVE_NOT_MADE
            assert version_of(table) == version and moves() == before
            # Try again: the workers reconnect on their own (until the pool has new
            # connections, a move may be refused again, and the player told so).
            again = {consumers.MOVE_NOT_MADE}
            assert people_move(table, seats, 3, again)

            # A move just sent when the server restarts: made or not, and said so.
            position, action, version = person_to_act(table)
            mover, before = seats[position], moves()
            mover.ws.send(frame_for(action, version))
            cluster.stop("fast")
            fresh_connection()
            cluster.start()
            message = told(mover, version)
            made = version_of(table) > version
            assert message in {"", consumers.MOVE_MADE, consumers.MOVE_NOT_MADE}
            assert made == (message != consumers.MOVE_NOT_MADE)
            if not made:
                assert moves() == before

            assert people_move(table, seats, 4, again)
            now = version_of(table)
            assert all(seat.shown(now, 10) for seat in seats.values())
            assert not [seat.alerts for seat in seats.values() if seat.alerts]
        for server in (one, two):
            assert server.process.poll() is None
        consistent(table)


def a_move_waits(cursor) -> bool:
    """A move's statement (the one-statement move, or the locking read of a move on an old
    copy) waits on a lock."""
    cursor.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        " AND (query LIKE '%%INSERT INTO \"games_move\"%%' OR query LIKE '%%FOR UPDATE OF t%%')"
    )
    return cursor.fetchone()[0] > 0


# --- backup and restore -----------------------------------------------------------------


def test_a_backup_restored_into_a_fresh_database_resumes_the_tables_in_play(transactional_db):
    """The README's drill: pg_dump while two workers serve a hole in play (bots moving),
    the workers stop, the dump is restored into a fresh database of another server and a
    worker started on it. The table resumes where the backup has it: its people are
    still signed in, their moves apply, bots play on, every hole is its replay."""
    require_postgres_database()
    require("redis-server")
    require("postgres-cluster")
    require("pg_dump")
    table, ana, ben = four_seats()
    cookies = [session_cookie(person) for person in (ana, ben)]
    redis, cluster = RedisServer(), PostgresCluster()
    try:
        redis.start()
        cluster.init().start()
        with (
            two_servers({"REDIS_URL": redis.url}) as (one, two),
            socket_for(one, cookies[0], table) as ana_ws,
            socket_for(two, cookies[1], table) as ben_ws,
        ):
            seats = {0: Seat(ana_ws, "Ana"), 1: Seat(ben_ws, "Ben")}
            for seat in seats.values():
                seat.read(10)
            # The backup, taken as a move and the bots' answers are under way.
            position, action, version = person_to_act(table)
            seats[position].ws.send(frame_for(action, version))
            copy_database(database_url(), cluster, "fairway_restored")
        url = cluster.url("fairway_restored")
        restored = DaphneServer(extra_env={**QUICK, "DATABASE_URL": url, "REDIS_URL": redis.url})
        with orm_on(cluster, "fairway_restored"):
            consistent(table)
            bots_moved = Move.objects.filter(hole__table=table, by_bot=True).count()
            at_backup = version_of(table)
            try:
                restored.start()
                with (
                    socket_for(restored, cookies[0], table) as ana_ws,
                    socket_for(restored, cookies[1], table) as ben_ws,
                ):
                    seats = {0: Seat(ana_ws, "Ana"), 1: Seat(ben_ws, "Ben")}
                    for seat in seats.values():
                        seat.read(10)
                        assert seat.version >= at_backup
                    # Three turns each (a turn is a draw and a play): the bots' come between.
                    assert len(people_move(table, seats, 6)) == 6
                assert restored.process.poll() is None
            finally:
                restored.stop()
            consistent(table)
            # The bots played on the restored database too.
            assert Move.objects.filter(hole__table=table, by_bot=True).count() > bots_moved
    finally:
        redis.stop()
        cluster.remove()


# --- a client that reads nothing ----------------------------------------------------


def masked(text: str) -> bytes:
    """A client's text frame (clients mask theirs)."""
    payload, mask = text.encode(), os.urandom(4)
    length = len(payload)
    size = bytes([0x80 | length]) if length < 126 else bytes([0xFE]) + length.to_bytes(2, "big")
    return bytes([0x81]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def reader_that_stops(server: DaphneServer, cookie: bytes, table: Table) -> socket.socket:
    """A socket to the table that reads the handshake's answer and nothing more, with a
    small receive buffer, as a client on a link that has stalled."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/tables/{table.pk}/ HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {key}\r\nOrigin: http://127.0.0.1\r\n"
            f"Cookie: {cookie.decode()}\r\n\r\n"
        ).encode()
    )
    answer = b""
    while not answer.endswith(b"\r\n\r\n"):
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


#: How long the stalled client keeps asking without reading: the issue's minute.
STALLED = 60.0


def test_a_client_that_reads_nothing_is_dropped_and_the_others_play_on(transactional_db):
    """Ana's second tab stalls: it reads nothing, yet asks for the whole table 8 times a
    second (each answer a full render). The server does not buffer its frames for ever:
    within the minute it drops the connection, which then reconnects and gets the table
    as it stands. Meanwhile Ana and Ben, on both processes, play on and see every move."""
    require_postgres_database()
    require("redis-server")
    table, ana, ben = four_seats()
    cookie = session_cookie(ana)
    redis = RedisServer().start()
    try:
        with (
            two_servers({"REDIS_URL": redis.url}) as (one, two),
            open_socket(one, ana, table) as ana_ws,
            open_socket(two, ben, table) as ben_ws,
        ):
            seats = {0: Seat(ana_ws, "Ana"), 1: Seat(ben_ws, "Ben")}
            for seat in seats.values():
                seat.read(10)
            stalled = reader_that_stops(one, cookie, table)
            dropped = threading.Event()
            stop = threading.Event()

            def ask() -> None:
                sync = masked(json.dumps({"type": "sync", "version": "0"}))
                try:
                    while not stop.wait(0.125):
                        stalled.sendall(sync)
                except OSError:  # reset by the server
                    dropped.set()

            asker = threading.Thread(target=ask)
            asker.start()
            started, made = time.monotonic(), []
            try:
                while not dropped.is_set() and time.monotonic() - started < STALLED:
                    # Until the hole is over (the next waits on a long pause).
                    made += people_move(table, seats, 1)
                    dropped.wait(0.5)
                assert dropped.wait(max(0.0, STALLED - (time.monotonic() - started)))
            finally:
                stop.set()
                asker.join()
                stalled.close()
            assert logged(one, "Dropped a WebSocket client") == ["Dropped a WebSocket client"]
            # The others played on meanwhile, each move shown to its mover at once (by
            # people_move); now both are shown the table as it stands.
            assert made
            now = version_of(table)
            assert all(seat.shown(now, 10) for seat in seats.values())
            # The dropped tab reconnects, as htmx does after 1006, and is resynced.
            with socket_for(one, cookie, table) as again:
                assert f'data-version="{version_of(table)}"' in again.recv(timeout=10)
            assert one.process.poll() is None
    finally:
        redis.stop()

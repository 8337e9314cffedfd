"""Fault drills on the real services: Redis or PostgreSQL going away mid-hole, a client
that stops reading, a backup restored into a fresh database.

A table is played by people (WebSocket clients, as a page's socket) and bots across
two daphne processes. Each drill starts its own redis-server or PostgreSQL cluster on a
free port, so it can stop and start it, and runs in the PostgreSQL phase of the suite
(`make test-postgres`).
"""

from __future__ import annotations

import contextlib
import json
import re
import time

import pytest
from django.conf import settings

from games import engine, selectors, services
from games.models import Move, Table
from tests import services as outside
from tests.conftest import DaphneServer, require
from tests.factories import make_player
from tests.faults import RedisServer
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
        self.alerts: list[str] = []

    def read(self, timeout: float) -> str:
        frame = self.ws.recv(timeout=timeout)
        if found := VERSION.search(frame):
            self.version = int(found.group(1))
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
        while self.version != version:
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
    return hole.finished_at is not None or selectors.pending(db_table, hole) is None


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


def four_seats() -> tuple[Table, object, object]:
    """A match in play: Ana and Ben (positions 0 and 1) and two bots."""
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = services.create_table(
        host=ana,
        variant="play-nine",
        seat_count=4,
        players=[ana, ben],
        bots={2: "greedy", 3: "random"},
    )
    services.start_match(table=table, by=ana)
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

            def play(moves: int) -> list[int]:
                """People make `moves` moves (bots answer): the versions they were made on."""
                made = []
                for _ in range(moves):
                    turn = person_to_act(table)
                    if turn is None:
                        break
                    position, action, version = turn
                    seats[position].ws.send(frame_for(action, version))
                    # Applied (the version moves on) or refused with a message.
                    assert wait_for(
                        lambda v=version, p=position: version_of(table) > v or seats[p].alerts,
                        15,
                    )
                    assert not seats[position].alerts, seats[position].alerts
                    # The mover is shown its move at once, through its own process.
                    assert seats[position].shown(version + 1, 10)
                    made.append(version)
                return made

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

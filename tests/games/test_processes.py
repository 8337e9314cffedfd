"""Several daphne processes sharing PostgreSQL and Redis, as in production.

Players on different processes play together, a process killed mid-hole loses no
committed move, and actions racing for the same turn apply exactly once. These tests
run in the PostgreSQL and Redis phase (`make test-postgres`).
"""

from __future__ import annotations

import contextlib
import signal
import threading

import pytest
from django.conf import settings
from django.db import close_old_connections, connection, transaction

from games import engine, lobby, plays, services
from games.engine import state_to_dict
from games.models import Move, Table
from games.selectors import replay_states
from tests import services as outside
from tests.conftest import DaphneServer, require
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action
from tests.games.test_consumers import frame_for
from tests.games.test_restart import open_socket, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def require_production_stack() -> None:
    """PostgreSQL and Redis must be reachable and configured (DATABASE_URL, REDIS_URL)."""
    require("postgres")
    require("redis")
    engine_name = settings.DATABASES["default"]["ENGINE"]
    layer = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if "postgresql" in engine_name and layer == "config.seams.PubSubChannelLayer":
        return
    problem = "set DATABASE_URL (PostgreSQL) and REDIS_URL: this runs in `make test-postgres`"
    if outside.in_ci():
        pytest.fail(problem)
    pytest.skip(problem)


@pytest.fixture
def servers(transactional_db):
    require_production_stack()
    env = {"FAIRWAY_BOT_DELAY": "0", "FAIRWAY_HOLE_PAUSE": "3600"}
    pair = [DaphneServer(extra_env=env), DaphneServer(extra_env=env)]
    try:
        yield [server.start() for server in pair]
    finally:
        for server in pair:
            server.stop()


def new_match(seats: int = 2, bots: dict[int, str] | None = None):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=seats, players=[ana, ben], bots=bots
    )
    lobby.start_match(table=table, by=ana)
    return table, ana, ben


def consistent(table_id: int) -> tuple[list[tuple], dict, dict]:
    """The move log, the stored state and the state rebuilt from deal and log, read under
    the table's lock so no writer is halfway."""
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table_id)
        _, hole, _ = current(table_id)
        moves = list(hole.moves.order_by("seq").values_list("seq", "seat", "action"))
        rebuilt = state_to_dict(replay_states(hole)[-1][0])
        return moves, hole.state, rebuilt


def test_players_on_two_processes_play_a_hole_and_see_each_others_moves(servers):
    one, two = servers
    table, ana, ben = new_match()
    names = {0: "Ana", 1: "Ben"}
    with open_socket(one, ana, table) as ana_ws, open_socket(two, ben, table) as ben_ws:
        for ws in (ana_ws, ben_ws):
            assert f'data-version="{table.version}"' in ws.recv(timeout=10)
        sockets = {0: ana_ws, 1: ben_ws}
        moves = 0
        while True:
            db_table, hole, state = current(table.pk)
            if hole.finished_at is not None:
                break
            seat = next_actor(state)
            position = hole.seat_positions[seat]
            sockets[position].send(frame_for(quick_action(state, seat), db_table.version))
            moves += 1
            for ws in (ana_ws, ben_ws):
                frame = ws.recv(timeout=10)
                # News crossed processes through Redis: the new version, with the move.
                assert f'data-version="{db_table.version + 1}"' in frame
                assert f'<li class="latest">{names[position]} ' in frame
    assert "Hole 1 over" in frame
    assert Move.objects.filter(hole=hole).count() == moves


def test_a_process_killed_mid_hole_loses_no_committed_move(servers):
    one, two = servers
    table, ana, ben = new_match(seats=4, bots={2: "greedy", 3: "random"})
    stack = contextlib.ExitStack()
    sockets = {0: stack.enter_context(open_socket(one, ana, table))}
    sockets[1] = stack.enter_context(open_socket(two, ben, table))
    for ws in sockets.values():
        ws.recv(timeout=10)

    def version() -> int:
        return Table.objects.get(pk=table.pk).version

    def quiet() -> bool:
        """Bots have moved: a person is to act, or the hole is over."""
        db_table = Table.objects.prefetch_related("seats").get(pk=table.pk)
        hole = db_table.holes.order_by("-number").first()
        return (
            hole.finished_at is not None
            or plays.pending(db_table, hole, db_table.seats.all()) is None
        )

    def person_moves() -> int | None:
        """The first person who may act sends a move: the version it was made on (None: over)."""
        assert wait_for(quiet, 60)
        db_table, hole, state = current(table.pk)
        if hole.finished_at is not None:
            return None
        for position in (0, 1):
            seat = hole.seat_positions.index(position)
            if engine.legal_actions(state, seat):
                action = quick_action(state, seat)
                sockets[position].send(frame_for(action, db_table.version))
                return db_table.version
        raise AssertionError("no one may act at a quiet table")

    def drain() -> None:
        for ws in sockets.values():
            with contextlib.suppress(TimeoutError):
                while True:
                    ws.recv(timeout=0)

    before = None
    with stack:
        while True:
            kill_now = before is None and Move.objects.filter(hole__table=table).count() >= 8
            if kill_now:
                before, state_before, rebuilt_before = consistent(table.pk)
                assert state_before == rebuilt_before
            sent = person_moves()
            if sent is None:
                break
            if not kill_now:
                assert wait_for(lambda sent=sent: version() > sent, 30)
                drain()
                continue
            # Kill Ana's process while the move and the bots' replies are in flight.
            one.stop(signal.SIGKILL)
            assert wait_for(quiet, 60)
            after, stored, rebuilt = consistent(table.pk)
            assert after[: len(before)] == before
            assert stored == rebuilt
            if after == before:  # the kill came first: nothing moved
                assert stored == state_before
            one.start()
            assert wait_for(quiet, 60)
            now = version()
            sockets[0] = stack.enter_context(open_socket(one, ana, table))
            # The reconnecting client gets the table as it stands.
            assert f'data-version="{now}"' in sockets[0].recv(timeout=10)
    assert before is not None
    moves, stored, rebuilt = consistent(table.pk)
    assert [seq for seq, _, _ in moves] == list(range(1, len(moves) + 1))
    assert stored == rebuilt and stored["phase"] == engine.OVER
    assert moves[: len(before)] == before


def test_two_threads_racing_for_one_version_apply_exactly_once(transactional_db):
    require_production_stack()
    table, ana, ben = new_match()
    version = table.version
    tee = {"type": "tee_off", "positions": [0, 1]}
    barrier = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def act(player) -> None:
        close_old_connections()  # each thread its own PostgreSQL connection
        try:
            barrier.wait(timeout=10)
            services.apply_move(table_id=table.pk, player=player, action=tee, version=version)
            outcomes[player.username] = "applied"
        except services.StaleVersion:
            outcomes[player.username] = "stale"
        finally:
            connection.close()

    threads = [threading.Thread(target=act, args=(p,)) for p in (ana, ben)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(outcomes.values()) == ["applied", "stale"]
    assert Move.objects.filter(hole__table=table).count() == 1
    assert Table.objects.get(pk=table.pk).version == version + 1


def test_two_sockets_on_two_processes_racing_for_one_version_apply_exactly_once(servers):
    one, two = servers
    table, ana, ben = new_match()
    tee = {"type": "tee_off", "positions": [0, 1]}
    with open_socket(one, ana, table) as ana_ws, open_socket(two, ben, table) as ben_ws:
        for ws in (ana_ws, ben_ws):
            ws.recv(timeout=10)
        ana_ws.send(frame_for(tee, table.version))
        ben_ws.send(frame_for(tee, table.version))
        assert wait_for(lambda: Move.objects.filter(hole__table=table).exists(), 30)
        winner = Move.objects.get(hole__table=table).seat
        sockets = {0: ana_ws, 1: ben_ws}
        # The loser gets the winner's news and a "moved on" render, in either order.
        lost = [sockets[1 - winner].recv(timeout=10) for _ in range(2)]
        assert sum("moved on" in frame for frame in lost) == 1
        assert "moved on" not in sockets[winner].recv(timeout=10)
    assert Move.objects.filter(hole__table=table).count() == 1
    assert Table.objects.get(pk=table.pk).version == table.version + 1

"""Live play's figures for the monitoring, counted as a real move goes through the real
ASGI application: the move, its time from arrival to the frame that shows it, the
frames sent and the sockets open."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from prometheus_client import REGISTRY

from tests.games.conftest import connect
from tests.games.helpers import current, next_actor, quick_action
from tests.games.test_consumers import frame_for, two_players

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("stop_driver"),
    pytest.mark.both_databases,
]


def figure(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_move_counts_once_with_its_time_its_frames_and_the_sockets_open(settings):
    settings.FAIRWAY_HOLE_PAUSE = 3600
    table, ana, ben = await two_players()
    sockets_before = figure("fairway_sockets_open", kind="table")
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    assert figure("fairway_sockets_open", kind="table") == sockets_before + 2

    moves = figure("fairway_moves_total", kind="move")
    timed = figure("fairway_move_seconds_count")
    frames = figure("fairway_frames_sent_total", kind="table")
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    seat = next_actor(state)
    mover = {0: ana_ws, 1: ben_ws}[hole.seat_positions[seat]]
    await mover.send_to(frame_for(quick_action(state, seat), db_table.version))
    for ws in (ana_ws, ben_ws):
        assert 'id="table-log"' in await ws.receive_from(timeout=10)

    assert figure("fairway_moves_total", kind="move") == moves + 1
    # Timed once, on the mover's socket, when the frame showing the move went out.
    assert figure("fairway_move_seconds_count") == timed + 1
    assert 0 < figure("fairway_move_seconds_sum") < 10
    assert figure("fairway_frames_sent_total", kind="table") == frames + 2

    await ana_ws.disconnect()
    await ben_ws.disconnect()
    assert figure("fairway_sockets_open", kind="table") == sockets_before


async def test_a_stale_move_is_neither_counted_nor_timed(settings):
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    moves = figure("fairway_moves_total", kind="move")
    timed = figure("fairway_move_seconds_count")
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    seat = next_actor(state)
    await ana_ws.send_to(frame_for(quick_action(state, seat), db_table.version - 1))
    await ana_ws.receive_from(timeout=10)
    assert figure("fairway_moves_total", kind="move") == moves
    assert figure("fairway_move_seconds_count") == timed
    await ana_ws.disconnect()

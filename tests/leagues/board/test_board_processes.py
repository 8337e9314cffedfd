"""The night's board across two real daphne processes on PostgreSQL and Redis: a hole
finished by moves on one process, and paper results saved by a third, reach boards open
on both."""

from __future__ import annotations

import contextlib
import random
import re
import time
from datetime import date

import pytest
from websockets.sync.client import connect

from games import lobby
from games.models import ScorecardHole, Table
from leagues.board import services
from leagues.results.services import enter_night_results
from leagues.seating.services import seat_night
from tests.conftest import DaphneServer
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)
from tests.games.helpers import current, next_actor, quick_action
from tests.games.test_consumers import frame_for
from tests.games.test_faults import require_postgres_database
from tests.games.test_restart import open_socket
from tests.leagues.board.test_board_socket import CARD, table_cells

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


@pytest.fixture
def servers(transactional_db):
    require_postgres_database()
    pair = [DaphneServer(extra_env={"FAIRWAY_HOLE_PAUSE": "3600"}) for _ in range(2)]
    try:
        yield [server.start() for server in pair]
    finally:
        for server in pair:
            server.stop()


def open_board(server: DaphneServer, token: str):
    return connect(
        f"{server.ws_url}/ws/board/{token}/",
        additional_headers={"Origin": "http://127.0.0.1"},
        open_timeout=10,
    )


def frame_with(ws, test, seconds: float = 30) -> str:
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        with contextlib.suppress(TimeoutError):
            frame = ws.recv(timeout=left)
            assert not CARD.search(frame)
            if test(frame):
                return frame
    raise AssertionError("no such frame came")


def play_hole_over_sockets(table_id: int, sockets: dict) -> None:
    """Play the table's hole to its end, each move sent over the socket (by seat
    position) of the player whose turn it is, as a page would."""
    for _ in range(200):
        table, hole, state = current(table_id)
        if hole.finished_at is not None:
            return
        seat = next_actor(state)
        sockets[hole.seat_positions[seat]].send(frame_for(quick_action(state, seat), table.version))
        deadline = time.monotonic() + 10
        while Table.objects.get(pk=table_id).version == table.version:
            assert time.monotonic() < deadline, "the move was not made"
            time.sleep(0.02)
    raise AssertionError("the hole did not end")


def test_boards_on_two_processes_show_a_hole_finished_on_one_and_results_saved_elsewhere(
    servers,
):
    one, two = servers
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{n}", display_name=f"P{n}") for n in range(2)]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    night.players.set(people)
    (live,) = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, rng=random.Random(1)
    )
    lobby.start_match(table=live.table, by=olive)
    board = services.create_board(night=night, by=olive)
    seated = {s.position: s.player for s in live.table.seats.select_related("player")}

    with (
        open_board(one, board.token) as board_one,
        open_board(two, board.token) as board_two,
        open_socket(two, seated[0], live.table) as seat_0,
        open_socket(two, seated[1], live.table) as seat_1,
    ):
        for ws in (board_one, board_two):
            assert 'id="board"' in ws.recv(timeout=10)
        for ws in (seat_0, seat_1):
            ws.recv(timeout=10)
        play_hole_over_sockets(live.table_id, {0: seat_0, 1: seat_1})
        strokes = list(
            ScorecardHole.objects.filter(scorecard__table=live.table, number=1).values_list(
                "strokes", flat=True
            )
        )
        for ws in (board_one, board_two):
            frame = frame_with(ws, lambda f: table_cells(f, 1))
            assert sorted(map(int, table_cells(frame, 1))) == sorted(strokes * 2)

        # Paper results saved by this process reach both boards through Redis.
        paper = open_table(night, people)
        enter_night_results(night_table=paper, hole_scores=even_holes(20, 25), by=olive)
        for ws in (board_one, board_two):
            frame = frame_with(ws, lambda f: re.search(r'id="board-table-2"', f))
            assert {"20", "25"} <= set(table_cells(frame, 2))

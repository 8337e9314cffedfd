"""The night's board over its WebSocket, through the real ASGI application: a full
render on connecting, a new one as holes land, never a card nor a deal another table
still plays, and a revoked link closed."""

from __future__ import annotations

import json
import random
import re
from datetime import date

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from games import lobby
from games.models import ScorecardHole, Table
from leagues.board import services
from leagues.board.consumers import CLOSE_GONE, CLOSE_NOT_FOUND, board_thread
from leagues.results.services import enter_night_results
from leagues.seating.services import seat_night
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)
from tests.games.helpers import current, finish_hole

# Run on PostgreSQL with Redis too: the news crosses the real channel layer there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


@pytest.fixture(autouse=True)
def board_thread_lets_go_of_the_database():
    """The boards' thread keeps its connection, which would hold the test database open."""
    yield
    board_thread.submit(connections.close_all).result()


ORIGIN = (b"origin", b"http://localhost")
#: A card's markup (`games.tiles`): the board never carries one.
CARD = re.compile(r'class="(card|face|slot)[ "]')
STAMP = re.compile(r'data-stamp="([0-9a-f]+)"')


@database_sync_to_async
def night_of_live_tables(duplicate: bool):
    """Olive's night: two two-seat live tables, started, and a board link."""
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{n}", display_name=f"P{n}") for n in range(4)]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=duplicate)
    night.players.set(people)
    tables = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, rng=random.Random(5)
    )
    tables.sort(key=lambda nt: nt.number)
    for night_table in tables:
        lobby.start_match(table=night_table.table, by=olive)
    board = services.create_board(night=night, by=olive)
    return night, olive, tables, board


@database_sync_to_async
def play_hole(night_table) -> list[int]:
    people = {s.position: s.player for s in night_table.table.seats.select_related("player")}
    finish_hole(night_table.table_id, people)
    return list(
        ScorecardHole.objects.filter(scorecard__table=night_table.table, number=1).values_list(
            "strokes", flat=True
        )
    )


async def open_board(token: str) -> tuple[WebsocketCommunicator, str]:
    communicator = WebsocketCommunicator(application, f"/ws/board/{token}/", headers=[ORIGIN])
    connected, _ = await communicator.connect()
    assert connected
    return communicator, await communicator.receive_from(timeout=10)


def table_cells(frame: str, number: int) -> list[str]:
    """The strokes a frame shows at table `number` (its cards' cells, blanks left out)."""
    part = re.search(rf'id="board-table-{number}".*?</article>', frame, re.S)
    assert part, f"no table {number} in the frame"
    return [cell for cell in re.findall(r'<td class="num[^"]*">([^<]*)</td>', part[0]) if cell]


async def next_frame_with(ws: WebsocketCommunicator, test) -> str:
    for _ in range(10):
        frame = await ws.receive_from(timeout=10)
        assert not CARD.search(frame)
        if test(frame):
            return frame
    raise AssertionError("no such frame came")


async def test_a_board_gets_a_full_render_then_each_hole_as_it_lands():
    night, _olive, (first, _second), board = await night_of_live_tables(duplicate=False)
    ws, frame = await open_board(board.token)
    assert 'id="board"' in frame and 'hx-swap-oob="true"' in frame
    assert STAMP.search(frame) and 'name="type" value="sync"' in frame
    assert table_cells(frame, 1) == [] and "Hole 1" in frame
    # Hole 1 in play: not one card of it on the wire.
    assert not CARD.search(frame)
    strokes = await play_hole(first)
    frame = await next_frame_with(ws, lambda f: table_cells(f, 1))
    shown = table_cells(frame, 1)
    # Each player's hole 1 and the same again as their total.
    assert sorted(map(int, shown)) == sorted(strokes * 2)
    # The next hole is dealt and played on; none of its cards reach the board.
    _table, hole, _state = await database_sync_to_async(current)(first.table_id)
    assert hole.number == 2 or hole.finished_at is not None
    await ws.disconnect()


async def test_a_board_shows_no_deal_another_table_still_plays():
    """Duplicate deals: the first table's hole 1 crosses the wire only once the second
    table has played it too."""
    night, _olive, (first, second), board = await night_of_live_tables(duplicate=True)
    ws, frame = await open_board(board.token)
    first_strokes = await play_hole(first)
    frame = await next_frame_with(ws, lambda f: "More holes show" in f)
    assert table_cells(frame, 1) == [] and table_cells(frame, 2) == []
    second_strokes = await play_hole(second)
    frame = await next_frame_with(ws, lambda f: table_cells(f, 2))
    assert sorted(map(int, table_cells(frame, 1))) == sorted(first_strokes * 2)
    assert sorted(map(int, table_cells(frame, 2))) == sorted(second_strokes * 2)
    assert "%" in frame  # matchpoints, now the deal is played everywhere
    await ws.disconnect()


async def test_paper_results_saved_reach_the_board_and_a_sync_resyncs_only_when_behind():
    night, olive, _tables, board = await night_of_live_tables(duplicate=False)
    ws, frame = await open_board(board.token)
    stamp = STAMP.search(frame)[1]
    # A sync at the stamp the board holds: nothing to send.
    await ws.send_to(json.dumps({"type": "sync", "stamp": stamp, "HEADERS": {}}))
    assert await ws.receive_nothing(timeout=0.5)
    # Behind (news lost on the way): the board as it stands.
    await ws.send_to(json.dumps({"type": "sync", "stamp": "0" * 16}))
    assert STAMP.search(await ws.receive_from(timeout=10))[1] == stamp

    @database_sync_to_async
    def paper_table_entered():
        people = list(night.players.all())[:2]
        paper = open_table(night, people)
        enter_night_results(night_table=paper, hole_scores=even_holes(20, 25), by=olive)
        return paper.number

    number = await paper_table_entered()
    frame = await next_frame_with(ws, lambda f: f'id="board-table-{number}"' in f)
    assert "20" in table_cells(frame, number) and "25" in table_cells(frame, number)
    # Anything but a sync is ignored, the socket left open.
    await ws.send_to("not json")
    await ws.send_to(json.dumps({"type": "draw", "source": "pile"}))
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_a_revoked_link_closes_its_open_boards_and_opens_no_more():
    night, olive, _tables, board = await night_of_live_tables(duplicate=False)
    ws, _frame = await open_board(board.token)
    await database_sync_to_async(services.renew_board)(night=night, by=olive)
    frame = await ws.receive_from(timeout=10)
    assert "no longer works" in frame and 'id="board"' in frame
    assert (await ws.receive_output(timeout=10)) == {"type": "websocket.close", "code": CLOSE_GONE}
    await ws.disconnect()
    for token, code in ((board.token, CLOSE_GONE), ("no-such-board", CLOSE_NOT_FOUND)):
        again = WebsocketCommunicator(application, f"/ws/board/{token}/", headers=[ORIGIN])
        connected, _ = await again.connect()
        assert connected
        assert "no longer works" in await again.receive_from(timeout=10)
        assert await again.receive_output(timeout=10) == {"type": "websocket.close", "code": code}
        await again.disconnect()


async def test_a_board_socket_without_an_origin_is_refused():
    _night, _olive, _tables, board = await night_of_live_tables(duplicate=False)
    communicator = WebsocketCommunicator(application, f"/ws/board/{board.token}/")
    connected, _ = await communicator.connect()
    assert not connected

"""The bots scenario of the load benchmark: N tables where bots play every seat.

The server's own driver makes every move (a bot acts `BOT_DELAY` seconds after the
table last changed), and one signed-in player per table watches over a WebSocket, as
a player who left the match to a bot would. It measures how late the bots act: for
each move, the time from when it fell due (the change before it, plus the delay) to
its commit, read from the move log; and the moves made a second, against the
`tables / BOT_DELAY` the tables ask for.
"""

from __future__ import annotations

import asyncio
import os
import time
from datetime import timedelta

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from django.db import close_old_connections  # noqa: E402

from games import lobby, services  # noqa: E402
from games.models import Hole, Move  # noqa: E402
from tests.bench.bench_load import WARMUP, Result, Seat, cpu_when, measure, open_all  # noqa: E402
from tests.bench.table_load import VARIANT, retire, setup_players  # noqa: E402

#: Seconds a bot waits before acting, and a finished hole before the next deal (the
#: server's FAIRWAY_BOT_DELAY and FAIRWAY_HOLE_PAUSE in this scenario).
BOT_DELAY = 1.0
HOLE_PAUSE = 1.0
SERVER_ENV = {"FAIRWAY_BOT_DELAY": str(BOT_DELAY), "FAIRWAY_HOLE_PAUSE": str(HOLE_PAUSE)}


def setup(tables: int) -> tuple[list[int], list[str]]:
    """`tables` matches of four bots (seat 0's player left the match to one); the
    tables and each watching player's session key."""
    players, keys = setup_players(tables)
    ids = []
    for player in players:
        table = lobby.create_table(
            host=player,
            variant=VARIANT,
            seat_count=4,
            players=[player],
            bots={1: "greedy", 2: "greedy", 3: "greedy"},
        )
        lobby.start_match(table=table, by=player)
        services.leave_match(table=table, player=player)
        ids.append(table.pk)
    close_old_connections()
    return ids, keys


def lateness(table_ids: list[int], since: float, until: float) -> list[float]:
    """Seconds each move committed after it fell due, for moves made in [since, until)
    (wall clock, seconds since the epoch)."""
    late = []
    holes = Hole.objects.filter(table_id__in=table_ids)
    started = {h.pk: h.started_at for h in holes.only("started_at")}
    moves = Move.objects.filter(hole__table_id__in=table_ids).order_by("hole_id", "seq")
    last: dict[int, object] = {}
    for move in moves.only("hole_id", "seq", "created_at"):
        before = last.get(move.hole_id, started[move.hole_id])
        last[move.hole_id] = move.created_at
        if since <= move.created_at.timestamp() < until:
            due = before + timedelta(seconds=BOT_DELAY)
            late.append(max(0.0, (move.created_at - due).total_seconds()))
    close_old_connections()
    return late


async def run_bots(servers, tables: int, seconds: float) -> Result:
    result = Result("bots", tables, len(servers))
    table_ids, keys = await sync_to_async(setup)(tables)
    seats = []
    for t, (table_id, key) in enumerate(zip(table_ids, keys, strict=True)):
        port = servers[t % len(servers)].port
        seat = Seat(f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", key, f"http://127.0.0.1:{port}")
        seat.on_frame = lambda seat, message, now: None
        seats.append(seat)
    result.errors += await open_all(seats)
    timed_from = time.perf_counter() + WARMUP
    cpu = asyncio.ensure_future(cpu_when(servers, timed_from))
    await asyncio.sleep(WARMUP)
    since = time.time()
    await asyncio.sleep(seconds)
    until = time.time()
    measure(result, servers, await cpu, timed_from, seconds)
    await asyncio.gather(*(s.close() for s in seats), return_exceptions=True)
    result.latencies = await sync_to_async(lateness)(table_ids, since, until)
    await sync_to_async(retire)(table_ids)
    result.sent = len(result.latencies)
    result.notes.append(
        f"bots act {BOT_DELAY:.1f} s after each change: asked {tables / BOT_DELAY:.0f} moves/s"
        " (fewer while holes wait for their deal); latency is how late each move was"
    )
    return result

"""The drill: Fairway on two app hosts behind nginx, and one of them dies mid-hole.

Players (and bots) play live tables through the front host, each table's sockets on one
worker as deploy/nginx.conf routes them. Once every table is a few moves into the last
hole of its match, every process of the app host serving the most tables is killed
(SIGKILL, as when the machine dies) and the host is taken off the network, so that
what nginx sends it is not even refused. Then every table plays on to the end of its
match on the other host; each dropped socket is open again, through nginx, within
RECONNECT_SECONDS; and the move logs hold every move the players saw made, once, and no
move nobody made.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games import engine
from games.engine.match import HOLES
from games.models import Hole, HoleReview, Table
from tests.drill.hosts import PAGE_PATH
from tests.drill.players import Setup, Socket, TableDriver, live_moves, setup_tables
from tests.drill.site import Site, http_status

pytestmark = [
    pytest.mark.drill,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

#: Tables of four players, and tables of two players and two bots.
HUMAN_TABLES = 4
MIXED_TABLES = 2
#: Moves into the last hole at which every table waits for the others; the host dies
#: this long after they all go on, with moves on their way.
HOLD_AT_MOVES = 6
KILL_AFTER_GO_SECONDS = 0.05
RECONNECT_SECONDS = 5.0
#: The most the tables may take to play out their matches once live play begins.
PLAY_SECONDS = 60.0
#: How long the other host's task worker may take over the dead host's reviews.
REVIEWS_SECONDS = 60.0


async def connected(sockets: list[Socket], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while any(s.ws is None or not s.version for s in sockets):
        assert time.monotonic() < deadline, "the players' sockets did not open through nginx"
        await asyncio.sleep(0.05)


async def all_held(drivers: list[TableDriver], seconds: float) -> None:
    """Wait until every table's players wait at its hold (the last hole, part played)."""
    deadline = time.monotonic() + seconds
    while not all(d.held for d in drivers):
        where = [(d.view.hole, d.view.state and d.view.state.version) for d in drivers if d.view]
        assert time.monotonic() < deadline, f"the tables did not reach the last hole: {where}"
        await asyncio.sleep(0.05)


def check_log(setup: Setup, sent: list) -> dict[str, int]:
    """The table's live move log against its players' moves: every move a player saw
    made is logged once; every logged player's move was sent; each hole's log runs on
    without a gap and ends at its snapshot's version."""
    logged = live_moves(setup)
    by_place = {(m.hole.number, m.seq): m for m in logged}
    assert len(by_place) == len(logged)
    for number in {m.hole.number for m in logged}:
        seqs = [m.seq for m in logged if m.hole.number == number]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), f"a gap in hole {number}"
        hole = Hole.objects.get(table_id=setup.table_id, number=number)
        assert hole.version == seqs[-1], f"hole {number}'s snapshot is not its log's end"
    sent_at = {(s.hole, s.seq, s.position): s for s in sent}
    lost = [s for s in sent if s.acked and (s.hole, s.seq) not in by_place]
    unsent = []
    for move in logged:
        if move.by_bot or move.seat in setup.bots:
            continue
        mine = sent_at.get((move.hole.number, move.seq, move.seat))
        if mine is None or mine.action != move.action:
            unsent.append(move)
    assert not lost, f"table {setup.table_id}: moves shown made but not logged: {lost}"
    assert not unsent, f"table {setup.table_id}: logged moves no player sent: {unsent}"
    players = sum(1 for m in logged if not m.by_bot and m.seat not in setup.bots)
    made_unseen = sum(
        1
        for s in sent
        if not s.acked
        and (move := by_place.get((s.hole, s.seq))) is not None
        and (move.seat, move.action) == (s.position, s.action)
    )
    return {
        "logged": len(logged),
        "players": players,
        "bots": len(logged) - players,
        "made unseen": made_unseen,
    }


def reviews_outstanding(setups: list[Setup]) -> list[tuple[int, int]]:
    """The (hole, position) of each finished live hole's players without a review."""
    missing = []
    for setup in setups:
        holes = Hole.objects.filter(table_id=setup.table_id, finished_at__isnull=False)
        for hole in holes.filter(number__gte=setup.start[0]):
            done = set(HoleReview.objects.filter(hole=hole).values_list("position", flat=True))
            players = set(hole.seat_positions) - setup.bots
            missing += [(hole.pk, p) for p in sorted(players - done)]
    return missing


async def dead_hosts_reviews_worked_out(setups: list[Setup]) -> int:
    """The reviews of every hole that ended in the drill, the dead host's too, worked
    out by the living host's task worker (the queue is the shared database's; a task
    the dead worker was in is run again once its lease is over). Returns how many
    reviews were still to come when the tables had finished."""
    deadline = time.monotonic() + REVIEWS_SECONDS
    waiting = len(await sync_to_async(reviews_outstanding)(setups))
    while missing := await sync_to_async(reviews_outstanding)(setups):
        assert time.monotonic() < deadline, f"reviews never worked out: {missing}"
        await asyncio.sleep(0.5)
    return waiting


async def test_every_table_finishes_on_the_other_host_when_one_dies(site: Site):
    try:
        await play_through_a_host_dying(site)
    finally:
        # The thread that read the database for the test lets its connection go.
        await sync_to_async(connections.close_all)()


async def play_through_a_host_dying(site: Site) -> None:
    began = time.monotonic()
    setups = await sync_to_async(setup_tables)(HUMAN_TABLES, MIXED_TABLES, seed=47)
    await site.ready()
    ready = time.monotonic()
    drivers, sockets = [], []
    for t, setup in enumerate(setups):
        seats = {p: Socket(site, setup.table_id, key) for p, key in setup.keys.items()}
        sockets += seats.values()
        drivers.append(TableDriver(setup, seats, random.Random(t), (HOLES, HOLD_AT_MOVES)))
    for socket in sockets:
        socket.start()
    playing: list[asyncio.Task] = []
    try:
        await connected(sockets, 20)
        until = time.monotonic() + PLAY_SECONDS
        playing += [asyncio.create_task(d.play(until)) for d in drivers]
        await all_held(drivers, PLAY_SECONDS / 2)
        held = [(d.view.hole, d.view.state.version) for d in drivers]
        assert all(d.view.state.phase != engine.OVER for d in drivers), held

        # nginx routes every socket of a table to one worker (deploy/nginx.conf).
        assert all(len({s.upstream for s in d.sockets.values()}) == 1 for d in drivers)

        # The host serving the most tables dies mid-hole: every process at once, and
        # then the machine is gone from the network.
        for driver in drivers:
            driver.go.set()
        await asyncio.sleep(KILL_AFTER_GO_SECONDS)
        served = [site.host_of(d.sockets[min(d.sockets)].upstream) for d in drivers]
        dead = max(site.apps, key=served.count)
        other = next(h for h in site.apps if h is not dead)
        its_tables = [d for d, host in zip(drivers, served, strict=True) if host is dead]
        killed = time.monotonic()
        dead.kill()
        dead.cut_off()
        await asyncio.gather(*playing)
        finished = time.monotonic()
        # Pages still load through nginx: a request to a dead worker goes to another.
        statuses = [
            await http_status(site.front.address, 443, PAGE_PATH, tls=site.tls) for _ in range(4)
        ]
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for socket in sockets:
            await socket.stop()

    tables = await sync_to_async(list)(
        Table.objects.filter(pk__in=[s.table_id for s in setups]).values_list("pk", "status")
    )
    assert {status for _, status in tables} == {Table.Status.FINISHED}, tables
    assert statuses == [200] * 4
    assert other.alive() == list(other.processes), f"the other host lost {other.exited()}"

    dropped = [s for d in its_tables for s in d.sockets.values()]
    kept = [s for s in sockets if s not in dropped]
    assert its_tables, "the dead host served no table: the drill proved nothing"
    assert all(len(s.drops) == 1 and len(s.reconnects) == 1 for s in dropped), [
        (s.drops, s.reconnects) for s in dropped
    ]
    assert all(not s.drops for s in kept), "a socket of the living host dropped"
    reconnects = [s.reconnects[0] for s in dropped]
    assert max(reconnects) <= RECONNECT_SECONDS, reconnects
    assert all(site.host_of(s.upstream) is other for s in dropped)

    counts = [await sync_to_async(check_log)(d.setup, d.sent) for d in drivers]
    reviews_began = time.monotonic()
    reviews_waiting = await dead_hosts_reviews_worked_out(setups)
    reviews_took = time.monotonic() - reviews_began

    sent = [s for d in drivers for s in d.sent]
    in_doubt = [s for d in its_tables for s in d.sent if not s.acked]
    alerts = [a for s in sockets for a in s.alerts if a]
    print(
        f"\ndrill: {len(setups)} tables ({len(its_tables)} on the dead host), "
        f"{len(sockets)} sockets ({len(dropped)} dropped); "
        f"moves logged {sum(c['logged'] for c in counts)} "
        f"(players {sum(c['players'] for c in counts)}, bots {sum(c['bots'] for c in counts)}); "
        f"players sent {len(sent)}, shown made {sum(s.acked for s in sent)}, "
        f"refused {len(alerts)}, in doubt at the kill {len(in_doubt)} "
        f"({sum(c['made unseen'] for c in counts)} of them made); "
        f"reconnect s: max {max(reconnects):.2f}, median {statistics.median(reconnects):.2f}; "
        f"setup {ready - began:.1f} s, play {killed - ready:.1f} s before the kill, "
        f"{finished - killed:.1f} s after; {reviews_waiting} reviews still queued then, "
        f"worked out by the living host in {reviews_took:.1f} s; "
        f"total {time.monotonic() - began:.1f} s"
    )

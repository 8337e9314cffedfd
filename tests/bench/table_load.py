"""The table scenario of the load benchmark: real tables of four signed-in players.

`run_tables(servers, tables, seconds)` seats four players at each of `tables` new
Play Nine tables (players, sessions and tables are made with the ORM in this process,
on the benchmark database), connects every player's WebSocket with its own session
cookie, and has each table make one real move a second for `seconds` after a warm-up
(`bench_load.WARMUP`).

The generator mirrors each hole with the engine: it reads the hole's snapshot when the
hole starts (so it knows the deal) and applies the same actions locally to pick legal
moves. The mover sends its action with the table version its own socket last showed
(`data-version` in the frame). Latency runs from sending a move to the last of the four
seats receiving a frame that shows the new version. A tick whose previous move the
mover has not yet seen is skipped (reported as late): moves depend on each other, so
this is as open a loop as a game allows. When a hole ends, the next move is "next
hole" (the server's own deal is held off with a long FAIRWAY_HOLE_PAUSE).

Tables start at different points of their first hole (the moves before are written
straight to the snapshot and the move log) so that holes end during a short run.
Afterwards the move logs are checked against what was sent: no move lost, none doubled.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from asgiref.sync import sync_to_async  # noqa: E402
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.contrib.sessions.models import Session  # noqa: E402
from django.db import close_old_connections, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from games import engine, lobby  # noqa: E402
from games.engine import describe_action, state_from_dict, state_to_dict  # noqa: E402
from games.models import Hole, Move, Table  # noqa: E402
from leagues.models import Player  # noqa: E402
from leagues.usernames import username_key  # noqa: E402
from tests.bench.bench_load import (  # noqa: E402
    WARMUP,
    Result,
    Seat,
    collector_paused,
    cpu_when,
    measure,
    open_all,
    percentile,
    server_for,
)

VERSION = re.compile(r'data-version="(\d+)"')
ALERT = re.compile(r'class="table-alert shown"[^>]*><p>([^<]*)</p>')
VARIANT = "play-nine"
BACKEND = "django.contrib.auth.backends.ModelBackend"
# The longest head start a table gets into its first hole (a hole lasts about 60 moves
# under `choose`).
HEAD_START = 60


def choose(state: engine.HoleState, seat: int, rng: random.Random) -> dict[str, Any]:
    """A legal action that keeps a hole moving: turn cards up rather than shuffle them."""
    actions = engine.legal_actions(state, seat)
    if state.phase == engine.TEE_OFF:
        return actions[0]
    if state.holding is None:
        draws = [a for a in actions if a["type"] == "draw" and a["source"] == "pile"]
        return (draws or actions)[0]
    down = {p for p, up in enumerate(state.face_up[seat]) if not up}
    useful = [a for a in actions if a.get("position") in down]
    return rng.choice(useful or actions)


def mover(state: engine.HoleState) -> int:
    """The engine seat that acts next (in tee off, the first one still to tee off)."""
    if state.phase == engine.TEE_OFF:
        return state.teed_off.index(False)
    return state.turn


@dataclass
class Play:
    """One table as the generator sees it."""

    table_id: int
    version: int
    hole: int
    positions: list[int]
    state: engine.HoleState
    seats: list[Seat] = field(default_factory=list)
    sent: list[tuple[int, int, int, dict]] = field(default_factory=list)
    over: bool = False
    new_hole: bool = False


# --- setting up, with the ORM ------------------------------------------------------------


def _advance(table: Table, moves: int, rng: random.Random) -> None:
    """Play `moves` moves of the first hole straight into its snapshot and log (no end)."""
    with transaction.atomic():
        hole = Hole.objects.select_for_update().get(table=table, number=1)
        state = state_from_dict(hole.state)
        log = []
        for _ in range(moves):
            seat = mover(state)
            action = choose(state, seat, rng)
            after = engine.apply_action(state, seat, action)
            if after.phase == engine.OVER:
                break
            position = hole.seat_positions[seat]
            summary = describe_action(state, seat, action, after)
            log.append(
                Move(
                    hole=hole,
                    seq=after.version,
                    seat=position,
                    action=action,
                    summary=summary[:200],
                )
            )
            state = after
        Move.objects.bulk_create(log)
        hole.state, hole.version = state_to_dict(state), state.version
        hole.save(update_fields=["state", "version"])
        Table.objects.filter(pk=table.pk).update(version=table.version + len(log))


def setup_players(count: int) -> tuple[list[Player], list[str]]:
    """`count` new players, each signed in: the players and their session keys."""
    tag = secrets.token_hex(4)
    names = [f"bench-{tag}-{i}" for i in range(count)]
    players = Player.objects.bulk_create(
        Player(username=name, username_key=username_key(name), password="!") for name in names
    )
    expire = timezone.now() + timedelta(days=1)
    keys, sessions = [], []
    for player in players:
        key = secrets.token_hex(16)
        data = {
            SESSION_KEY: str(player.pk),
            BACKEND_SESSION_KEY: BACKEND,
            HASH_SESSION_KEY: player.get_session_auth_hash(),
        }
        sessions.append(
            Session(session_key=key, session_data=SessionStore().encode(data), expire_date=expire)
        )
        keys.append(key)
    Session.objects.bulk_create(sessions)
    return players, keys


def setup(tables: int, seed: int = 1) -> tuple[list[Play], list[list[str]]]:
    """`tables` playing tables of four players, and each player's session key."""
    rng = random.Random(seed)
    players, keys = setup_players(4 * tables)
    plays, cookies = [], []
    for t in range(tables):
        four = players[4 * t : 4 * t + 4]
        table = lobby.create_table(
            host=four[0], variant=VARIANT, seat_count=4, players=four, deal_seed=rng.getrandbits(62)
        )
        lobby.start_match(table=table, by=four[0])
        _advance(table, (t * 37) % HEAD_START, rng)
        table.refresh_from_db()
        hole = Hole.objects.get(table=table, number=1)
        plays.append(
            Play(table.pk, table.version, 1, hole.seat_positions, state_from_dict(hole.state))
        )
        cookies.append(keys[4 * t : 4 * t + 4])
    close_old_connections()
    return plays, cookies


def retire(table_ids: list[int]) -> None:
    """Finish a scenario's tables, so that no later run's driver looks at them."""
    Table.objects.filter(pk__in=table_ids).update(status=Table.Status.FINISHED)
    close_old_connections()


def load_hole(play: Play) -> None:
    """Start mirroring the table's newest hole from its snapshot."""
    hole = Hole.objects.filter(table_id=play.table_id).order_by("-number").first()
    play.hole, play.positions = hole.number, hole.seat_positions
    play.state = state_from_dict(hole.state)


def check_logs(plays: list[Play]) -> tuple[int, int, int]:
    """(moves lost, moves doubled, tables whose version is not the generator's)."""
    lost = doubled = off = 0
    for play in plays:
        if not play.sent:
            continue
        first = play.sent[0]
        rows = Move.objects.filter(hole__table_id=play.table_id, hole__number__gte=first[0])
        logged = [
            (m.hole.number, m.seq, m.seat, m.action)
            for m in rows.select_related("hole").order_by("hole__number", "seq")
            if (m.hole.number, m.seq) >= (first[0], first[1])
        ]
        sent = [s for s in play.sent if s[3] is not None]
        lost += sum(1 for s in sent if s not in logged)
        doubled += sum(1 for m in logged if m not in sent)
        off += Table.objects.get(pk=play.table_id).version != play.version
    close_old_connections()
    return lost, doubled, off


# --- playing, over WebSockets --------------------------------------------------------------


async def run_tables(servers, tables: int, seconds: float) -> Result:
    result = Result("table", tables, len(servers))
    plays, cookies = await sync_to_async(setup)(tables)
    sent_at: dict[tuple[int, int], float] = {}
    arrivals: dict[tuple[int, int], list[float]] = {}
    seen: dict[Seat, int] = {}
    alerts: list[str] = []

    def on_frame(seat: Seat, message: str, now: float, play: Play) -> None:
        match = VERSION.search(message)
        if match:
            version = int(match.group(1))
            for v in range(seen.get(seat, version - 1) + 1, version + 1):
                arrivals.setdefault((play.table_id, v), []).append(now)
            seen[seat] = max(seen.get(seat, 0), version)
        alert = ALERT.search(message)
        if alert:
            alerts.append(alert.group(1))

    for play, keys in zip(plays, cookies, strict=True):
        for s, key in enumerate(keys):
            port = server_for(servers, play.table_id, s).port
            seat = Seat(
                f"ws://127.0.0.1:{port}/ws/tables/{play.table_id}/", key, f"http://127.0.0.1:{port}"
            )
            seat.on_frame = lambda seat, message, now, play=play: on_frame(seat, message, now, play)
            play.seats.append(seat)
    result.errors += await open_all([s for play in plays for s in play.seats])
    await asyncio.sleep(1.0)
    late = 0
    rng = random.Random(2)

    start = time.perf_counter() + 0.2
    timed_from = start + WARMUP
    timed: set[tuple[int, int]] = set()
    kinds: dict[tuple[int, int], str] = {}

    async def table_loop(t: int, play: Play) -> None:
        nonlocal late
        k = 0
        while (at := start + t / tables + k) < timed_from + seconds and not play.over:
            k += 1
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            if play.new_hole:
                if seen.get(play.seats[0], 0) < play.version:
                    late += 1
                    continue
                await sync_to_async(load_hole)(play)
                play.new_hole = False
            if play.state.phase == engine.OVER:
                seat_index, action = 0, None
                message = {"type": "next_hole"}
            else:
                seat_index = mover(play.state)
                action = choose(play.state, seat_index, rng)
                message = dict(action)
            ws_seat = play.seats[play.positions[seat_index]]
            if seen.get(ws_seat, 0) < play.version:
                late += 1
                continue
            message["version"] = play.version
            play.version += 1
            key = (play.table_id, play.version)
            if action is None:
                play.new_hole = True
                play.sent.append((play.hole + 1, 0, 0, None))
                kinds[key] = "deal"
            else:
                play.state = engine.apply_action(play.state, seat_index, action)
                position = play.positions[seat_index]
                play.sent.append((play.hole, play.state.version, position, action))
                kinds[key] = "hole end" if play.state.phase == engine.OVER else "move"
            sent_at[key] = time.perf_counter()
            if at >= timed_from:
                timed.add(key)
            try:
                await ws_seat.ws.send(json.dumps(message))
            except Exception:
                result.errors += 1

    cpu = asyncio.ensure_future(cpu_when(servers, timed_from))
    with collector_paused():
        await asyncio.gather(*(table_loop(t, p) for t, p in enumerate(plays)))
        await asyncio.sleep(2.0)
    measure(result, servers, await cpu, timed_from, seconds)
    by_kind: dict[str, list[float]] = {"move": [], "hole end": [], "deal": []}
    for key, t0 in sent_at.items():
        got = arrivals.get(key, [])
        if len(got) < 4:
            result.errors += 1
        elif key in timed:
            result.latencies.append(max(got) - t0)
            by_kind[kinds[key]].append(max(got) - t0)
    result.sent = len(sent_at)
    await asyncio.gather(*(s.close() for p in plays for s in p.seats), return_exceptions=True)
    lost, doubled, off = await sync_to_async(check_logs)(plays)
    await sync_to_async(retire)([play.table_id for play in plays])
    result.errors += lost + doubled + off + len(alerts)
    holes = sum(1 for p in plays for s in p.sent if s[3] is None)
    result.notes.append(
        f"move logs: {lost} lost, {doubled} doubled, {off} tables off version; "
        f"{holes} next holes; {late} late ticks; {len(alerts)} refusals"
        + (f" (first: {alerts[0]!r})" if alerts else "")
    )
    result.notes.append(
        "by kind: "
        + "; ".join(
            f"{kind} n={len(values)} p50 {percentile(values, 0.5) * 1000:.1f}"
            f" p99 {percentile(values, 0.99) * 1000:.1f} ms"
            for kind, values in by_kind.items()
        )
    )
    return result

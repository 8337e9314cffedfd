"""Players at live tables, through the front host, as browsers are.

Each player's `Socket` holds a WebSocket to its table and, when it drops, connects again
at once and again every `RETRY_SECONDS` (as the page's htmx does, with a shorter wait),
noting how long it took from the drop to the first frame of the new connection. A
`TableDriver` plays a table's human seats (holding at a point of the match until told
to go on, so that every table is there at once): it reads the table as it stands (the
database's snapshot, as a player reads the page), lets the greedy bot pick the seat's
move, sends it with the table's version on that player's socket, and counts it
acknowledged once the socket shows the next version. Bots' seats are the server's.

The tables are made here as the site's own services make them, then moved straight on
to the eighth of their nine holes, part played (`setup_tables`): a few moves end that
hole, and the ninth is the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import secrets
import time
from dataclasses import dataclass, field
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connections, transaction
from django.utils import timezone
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from games import engine, lobby, plays
from games.engine.bots import choose_action
from games.engine.match import HOLES
from games.models import Hole, Move, Table
from leagues.models import Player
from leagues.usernames import username_key
from tests import driving
from tests.drill.hosts import SITE, UPSTREAM_HEADER

VERSION = re.compile(r'data-version="(\d+)"')
ALERT = re.compile(r'class="table-alert shown"[^>]*><p>([^<]*)</p>')
RETRY_SECONDS = 0.1
#: How long a player waits for its move to show before it looks at the table again.
ACK_SECONDS = 3.0
#: A player's pause between moves.
THINK_SECONDS = 0.1
#: The moves left of the eighth hole when live play begins (about: the live moves are
#: the greedy bot's with another draw of chances).
MOVES_LEFT = 10


class Socket:
    """One player's WebSocket to one table, kept open through drops."""

    def __init__(self, site, table_id: int, session_key: str) -> None:
        self.url = f"wss://{SITE}/ws/tables/{table_id}/"
        self.connect_kwargs = site.connect_kwargs()
        self.cookie = session_key
        self.ws = None
        #: The newest table version this player's page has shown.
        self.version = 0
        #: Which worker (address:port) nginx sent the current connection to.
        self.upstream: str | None = None
        self.drops: list[float] = []
        #: Seconds from each drop to the first frame of the next connection.
        self.reconnects: list[float] = []
        self.alerts: list[str] = []
        self.task: asyncio.Task | None = None
        self.stopping = False

    def start(self) -> None:
        self.task = asyncio.create_task(self._run())

    async def _open(self):
        return await connect(
            self.url,
            origin=f"https://{SITE}",
            additional_headers={"Cookie": f"sessionid={self.cookie}"},
            compression=None,
            open_timeout=5,
            ping_interval=None,
            max_size=None,
            **self.connect_kwargs,
        )

    async def _run(self) -> None:
        dropped: float | None = None
        while not self.stopping:
            try:
                ws = await self._open()
            except (OSError, TimeoutError, InvalidHandshake):
                await asyncio.sleep(RETRY_SECONDS)
                continue
            self.upstream = ws.response.headers.get(UPSTREAM_HEADER)
            self.ws = ws
            try:
                async for message in ws:
                    if dropped is not None:
                        self.reconnects.append(time.monotonic() - dropped)
                        dropped = None
                    if match := VERSION.search(message):
                        self.version = max(self.version, int(match.group(1)))
                    if alert := ALERT.search(message):
                        self.alerts.append(alert.group(1))
            except ConnectionClosed:
                pass
            self.ws = None
            if not self.stopping:
                dropped = time.monotonic()
                self.drops.append(dropped)

    async def send(self, message: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            return False
        return True

    async def shows(self, version: int, seconds: float) -> bool:
        """Wait until the page shows `version` or later; False if it drops first or
        the time runs out."""
        ws, deadline = self.ws, time.monotonic() + seconds
        while self.version < version:
            if self.ws is not ws or time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    async def stop(self) -> None:
        self.stopping = True
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


@dataclass
class Sent:
    """A move a player sent: where the move log should show it, and whether the
    player's page showed it made."""

    hole: int
    seq: int
    position: int
    action: dict
    acked: bool = False


@dataclass
class Setup:
    table_id: int
    keys: dict[int, str]  # session key by the position of each human seat
    bots: set[int]
    #: The move log's last (hole number, seq) before live play.
    start: tuple[int, int]


@dataclass
class View:
    status: str
    version: int
    hole: int
    positions: list[int]
    state: engine.HoleState | None


def read_table(table_id: int) -> View:
    """The table as it stands, in one statement: its version and its hole's snapshot."""
    hole = (
        Hole.objects.filter(table_id=table_id).select_related("table").order_by("-number").first()
    )
    state = engine.state_from_dict(hole.state) if hole.state else None
    return View(hole.table.status, hole.table.version, hole.number, hole.seat_positions, state)


@dataclass
class TableDriver:
    """Plays a table's human seats until its match is over."""

    setup: Setup
    sockets: dict[int, Socket]  # by position
    rng: random.Random
    #: (hole number, the hole's version) from which the players wait for `go`.
    hold_at: tuple[int, int] = (HOLES, 0)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    held: bool = False
    sent: list[Sent] = field(default_factory=list)
    view: View | None = None

    def seat_to_move(self, view: View) -> int | None:
        """The engine seat of a human player to move now (None: the server's turn)."""
        state = view.state
        if view.status != Table.Status.PLAYING or state is None or state.phase == engine.OVER:
            return None
        if state.phase == engine.TEE_OFF:
            waiting = [s for s, done in enumerate(state.teed_off) if not done]
        else:
            waiting = [state.turn]
        humans = [s for s in waiting if view.positions[s] not in self.setup.bots]
        return humans[0] if humans else None

    async def play(self, until: float) -> None:
        try:
            await self._play(until)
        finally:
            # Each task reads through a connection of its own: let it go.
            await sync_to_async(connections.close_all)()

    async def _play(self, until: float) -> None:
        while time.monotonic() < until:
            view = self.view = await sync_to_async(read_table)(self.setup.table_id)
            if view.status == Table.Status.FINISHED:
                return
            seat = self.seat_to_move(view)
            if seat is None:
                await asyncio.sleep(0.05)
                continue
            if not self.go.is_set() and (view.hole, view.state.version) >= self.hold_at:
                self.held = True
                await self.go.wait()
                continue
            position = view.positions[seat]
            socket = self.sockets[position]
            if socket.ws is None or socket.version < view.version:
                await asyncio.sleep(0.05)  # the page is not there yet
                continue
            action = choose_action(view.state, seat, "greedy", self.rng)
            after = engine.apply_action(view.state, seat, action)
            if not await socket.send({**action, "version": view.version}):
                continue
            move = Sent(view.hole, after.version, position, action)
            self.sent.append(move)
            move.acked = await socket.shows(view.version + 1, ACK_SECONDS)
            await asyncio.sleep(THINK_SECONDS)


# --- setting up, with the ORM ------------------------------------------------------------


def _signed_in(players: list[Player]) -> list[str]:
    """A session for each player, as a log-in makes it (signed with this SECRET_KEY)."""
    expire = timezone.now() + timedelta(hours=1)
    keys, sessions = [], []
    for player in players:
        key = secrets.token_hex(16)
        data = {
            SESSION_KEY: str(player.pk),
            BACKEND_SESSION_KEY: "django.contrib.auth.backends.ModelBackend",
            HASH_SESSION_KEY: player.get_session_auth_hash(),
        }
        sessions.append(
            Session(session_key=key, session_data=SessionStore().encode(data), expire_date=expire)
        )
        keys.append(key)
    Session.objects.bulk_create(sessions)
    return keys


def _to_hole(table: Table, number: int, rng: random.Random) -> tuple[int, int]:
    """Move a match just begun on to hole `number`: the holes before it on the cards
    (far apart, so that no playoff follows the ninth), the hole dealt and played by
    the greedy bot, into its snapshot and move log, to about MOVES_LEFT moves from its
    end. Returns the log's last (hole number, seq)."""
    Hole.objects.filter(table=table).delete()  # the first hole, as dealt
    for earlier in range(1, number):
        strokes = {p: 10 + 20 * p for p in range(table.seat_count)}
        driving.record_hole(table=table, number=earlier, strokes=strokes)
    hole = plays.new_hole(table, number, list(range(table.seat_count)), timezone.now())
    state = plays.hole_state(table, hole)
    steps = []
    while state.phase != engine.OVER:
        seat = state.teed_off.index(False) if state.phase == engine.TEE_OFF else state.turn
        action = choose_action(state, seat, "greedy", rng)
        after = engine.apply_action(state, seat, action)
        steps.append((seat, action, state, after))
        state = after
    steps = steps[: max(0, len(steps) - MOVES_LEFT)]
    state = steps[-1][3] if steps else plays.hole_state(table, hole)
    hole.state, hole.version = engine.state_to_dict(state), state.version
    hole.save()
    Move.objects.bulk_create(
        Move(
            hole=hole,
            seq=after.version,
            seat=hole.seat_positions[seat],
            action=action,
            summary=engine.describe_action(before, seat, action, after)[:200],
        )
        for seat, action, before, after in steps
    )
    Table.objects.filter(pk=table.pk).update(version=table.version + len(steps))
    return number, state.version


def setup_tables(humans: int, mixed: int, seed: int) -> list[Setup]:
    """`humans` tables of four players and `mixed` of two players and two bots, in the
    eighth hole of their match."""
    rng = random.Random(seed)
    count = 4 * humans + 2 * mixed
    tag = secrets.token_hex(3)
    names = [f"drill-{tag}-{i}" for i in range(count)]
    players = Player.objects.bulk_create(
        Player(username=name, username_key=username_key(name), password="!") for name in names
    )
    keys = _signed_in(players)
    setups = []
    for t in range(humans + mixed):
        seated = 4 if t < humans else 2
        first = 4 * t if t < humans else 4 * humans + 2 * (t - humans)
        four = players[first : first + seated]
        bots = {} if seated == 4 else {2: "greedy", 3: "greedy"}
        # At once: no server sees the match at its first hole.
        with transaction.atomic():
            table = lobby.create_table(
                host=four[0],
                variant="play-nine",
                seat_count=4,
                players=four,
                bots=bots,
                deal_seed=rng.getrandbits(62),
            )
            table = lobby.start_match(table=table, by=four[0])
            start = _to_hole(table, HOLES - 1, rng)
        setups.append(
            Setup(table.pk, dict(enumerate(keys[first : first + seated])), set(bots), start)
        )
    return setups


def live_moves(setup: Setup) -> list[Move]:
    """The table's moves logged since live play began."""
    rows = Move.objects.filter(hole__table_id=setup.table_id).select_related("hole")
    return [m for m in rows.order_by("hole__number", "seq") if (m.hole.number, m.seq) > setup.start]

"""Live frames: the parts of a table page pushed to each viewer after a change.

All viewers of one version of a table share one read of it (`selectors.TableData`)
and the parts of the picture that look the same to each of them, rendered once: the
scorecard and the move log. Courses without buttons are rendered once for what they
show, across versions and viewers (`_course_html`). Each viewer's own parts (whose
turn it is, the piles, its buttons) are rendered per viewer, from `engine.view` of
its own seat as always.

Each process keeps the latest version of every playing table it serves. The news of
a move (one that does not end the match) carries the move, and the news of a deal
its seed, so a process that holds the version before makes the new one with the
engine instead of reading the table again, the strokes of a hole's end included:
`held` never touches the database. Anything else (a missed message, the end of the
match, a seat changing hands, a corrected scorecard) is read from the database, which
stays the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import logging
import random
import threading
import time
import weakref
from collections.abc import Callable
from datetime import UTC, datetime

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation

from games import engine
from games.engine.match import match_status

from . import live, presenters, selectors
from .models import Hole, Table

logger = logging.getLogger(__name__)

#: Parts that depend on nothing about the viewer (and so does the alert when empty).
SHARED = {"scorecard", "log"}

#: How long a version read from the database (and the versions derived from it) may
#: be served before what versions do not count (players' names, the table's settings,
#: corrected totals) is checked again (`_recheck`). Live frames go on from memory
#: meanwhile, while the check runs off their path. Each version grows old at its own
#: time between half of it and all of it, so that the tables read together (a
#: server's first viewers) are not all checked together.
MAX_AGE = 30.0
MAX_TABLES = 2000


@dataclasses.dataclass
class Version:
    """One version of a table as this process knows it."""

    data: selectors.TableData
    stale_at: float  # when this version, or the one it was derived from, grows old
    scorecard_at: float  # when its scorecard was read
    parts: dict[str, str] = dataclasses.field(default_factory=dict)
    #: Frames rendered ahead for this process's viewers (`foresee`), by player, and when.
    foreseen: dict[int, dict[str, str]] = dataclasses.field(default_factory=dict)
    foreseen_at: float = 0.0

    @property
    def number(self) -> int:
        return self.data.table.version

    def fresh(self, now: float) -> bool:
        return now < self.stale_at

    def part(self, key: str, render: Callable[[], str]) -> str:
        html = self.parts.get(key)
        if html is None:
            html = self.parts[key] = render()
        return html


_versions: dict[int, Version] = {}
#: Courses' HTML by what they show, for every table and version (see `courses_for`).
_course_html: dict[tuple, str] = {}
_lock = threading.Lock()


def _keep(table_id: int, version: Version) -> None:
    """Hold `version` of the table unless a newer one is held (reads run on the database
    thread while the event loop derives)."""
    with _lock:
        held = _versions.get(table_id)
        if held is not None and held.number > version.number:
            return
        if version.data.table.status != Table.Status.PLAYING:
            _versions.pop(table_id, None)
            return
        if len(_versions) >= MAX_TABLES and held is None:
            _versions.pop(next(iter(_versions)), None)
        _versions[table_id] = version


def forget() -> None:
    """Drop every kept version (after a table was rewritten behind the services' back
    without a new version, as some tests do)."""
    _versions.clear()
    _foreseen.clear()


def _read(table_id: int, version: int | None = None) -> Version:
    """The table at its current version (or at least `version`, when the caller was told
    it), kept from before if it is that recent, else read from the database."""
    now = time.monotonic()
    kept = _versions.get(table_id)
    if kept is not None and kept.fresh(now):
        if version is not None:
            if kept.number >= version:
                return kept
        elif kept.number == selectors.table_version(table_id):
            return kept
    # The scorecard holds during a hole: lend it on if read within the last seconds.
    previous = kept.data if kept is not None and now - kept.scorecard_at < MAX_AGE else None
    data = selectors.table_data(table_id, previous)
    lent = previous is not None and data.scorecard is previous.scorecard
    stale_at = now + MAX_AGE * random.uniform(0.5, 1.0)
    read = Version(data, stale_at, kept.scorecard_at if lent else now)
    if lent and "scorecard" in kept.parts:
        # The same scorecard during the same hole: the same HTML.
        read.parts["scorecard"] = kept.parts["scorecard"]
    _keep(table_id, read)
    return read


def _render(version: Version, user, alert: str) -> dict[str, str]:
    """Each live part by name (`live.PARTS`, in order) as `user` sees `version`."""
    data = version.data
    context = presenters.table_context(data.table, user, data, _course_html)
    context.update(oob=True, alert=alert)
    parts = {}
    for name in live.PARTS:
        render = lambda name=name: live.render(name, context)  # noqa: E731
        shared = name in SHARED or (name == "alert" and not alert)
        parts[name] = version.part(name, render) if shared else render()
    return parts


def render_frame(table_id: int, user, alert: str = "", version: int | None = None) -> str:
    """The live parts of a table as `user` may see them, each swapped out of band by id.

    `version` is the one just announced, if any: a kept version that new is current
    enough. May read the database.
    """
    return "".join(_render(_read(table_id, version), user, alert).values())


def held(table_id: int, version: int, news: dict | None = None) -> Version | None:
    """The table at `version` (or newer) from this process's memory, or None.

    This process may hold that version already, or the one before and the announced
    `news` of what made it (see `announce.table_changed`): a move is replayed with the
    engine on the held state and a deal is dealt again from its seed, exactly as the
    service did. Never touches the database, and so does not mind the version's age
    (`live_parts` has an old one read again).
    """
    kept = _versions.get(table_id)
    if kept is None:
        return None
    if kept.number == version - 1 and isinstance(news, dict):
        foreseen = _foreseen.pop(table_id, None)
        if foreseen is not None and foreseen[1].number == version and _came(foreseen, news):
            _keep(table_id, foreseen[1])
            return foreseen[1]
        try:
            if "move" in news:
                kept = _derive_move(table_id, kept, news["move"])
            elif "deal" in news:
                kept = _derive_deal(table_id, kept, news["deal"])
        except (engine.IllegalAction, KeyError, TypeError, ValueError, AttributeError):
            kept = None  # News this process cannot follow: read the table instead.
    if kept is None or kept.number < version:
        return None
    return kept


# --- foresight ---------------------------------------------------------------------------
#
# A player's move made on the version this process holds (`services._apply_held`) is
# known before it is written: while the database writes it, the event loop derives the
# version it makes and renders the frames of this process's viewers of the table. They
# are used only once the move is announced, with the same news; a move that is not
# written is never announced, and what was foreseen of it is dropped. So is a deal a
# player asks for (`services.next_hole`), whose hole gets its id only once written: its
# news is foreseen without it.

#: How long frames rendered ahead may be sent for (their countdowns count whole seconds).
FORESIGHT = 0.5

#: The players watching each table from this process, with their connections' count.
_viewers: dict[int, dict[int, list]] = {}
#: The move being written at each table, as foreseen: its news and the version it makes.
_foreseen: dict[int, tuple[dict, Version]] = {}


def watch(table_id: int, user) -> None:
    """A connection of `user` to the table opened in this process (see `foresee`)."""
    entry = _viewers.setdefault(table_id, {}).setdefault(user.pk, [user, 0])
    entry[1] += 1


def unwatch(table_id: int, user) -> None:
    """A connection of `user` to the table closed."""
    users = _viewers.get(table_id, {})
    entry = users.get(user.pk)
    if entry is not None:
        entry[1] -= 1
        if entry[1] <= 0:
            del users[user.pk]
    if not users:
        _viewers.pop(table_id, None)
        _foreseen.pop(table_id, None)


@dataclasses.dataclass(frozen=True)
class Holding:
    """The table at the version a player moves on, as this process holds it (see
    `services.apply_move`)."""

    data: selectors.TableData
    #: The event loop of this process's viewers (None: nothing to render ahead).
    loop: asyncio.AbstractEventLoop | None = None

    def foresee(self, version: int, news: dict) -> None:
        """The move of `news`, making `version`, is being written: have its frames
        rendered ahead. Called from the thread that writes it."""
        if self.loop is not None and self.loop.is_running():
            # A loop stopping meanwhile (the server shuts down) just renders nothing ahead.
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(foresee, self.data.table.pk, version, news)


def holding(table_id: int, version: int) -> Holding | None:
    """The table at exactly `version` if this process holds it, for a move made on it;
    else None. Called in the event loop."""
    kept = _versions.get(table_id)
    if kept is None or kept.number != version:
        return None
    return Holding(kept.data, asyncio.get_running_loop())


def foresee(table_id: int, version: int, news: dict) -> None:
    """Derive the version the move of `news` makes and render it for this process's
    viewers of the table, to be used once the move is announced (`held`)."""
    kept = _versions.get(table_id)
    if kept is None or kept.number != version - 1:
        return
    try:
        if "move" in news:
            derived = _derive_move(table_id, kept, news["move"], keep=False)
        else:
            derived = _derive_deal(table_id, kept, news["deal"], keep=False)
    except (engine.IllegalAction, KeyError, TypeError, ValueError, AttributeError):
        return
    if derived is None:
        return
    try:
        for user, _count in list(_viewers.get(table_id, {}).values()):
            derived.foreseen[user.pk] = _render(derived, user, "")
    except Exception:  # The frames are rendered once announced instead.
        logger.exception("Could not render table %s ahead", table_id)
        return
    derived.foreseen_at = time.monotonic()
    _foreseen[table_id] = (news, derived)


def _came(foreseen: tuple[dict, Version], news: dict) -> bool:
    """Whether `news` is what was foreseen; a deal's hole, foreseen without its id,
    takes the id announced."""
    if foreseen[0] == news:
        return True
    deal = news.get("deal")
    if not isinstance(deal, dict) or foreseen[0].get("deal") != {**deal, "hole": None}:
        return False
    foreseen[1].data.hole.pk = deal["hole"]
    return True


# One read at a time per table and event loop: the other viewers of the table wait for
# it instead of queueing reads of their own.
_reads: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)
#: Renders that had to leave the event loop because they touched the database (a bug).
loop_fallbacks = 0


async def live_frame(
    table_id: int, user, alert: str = "", version: int | None = None, news: dict | None = None
) -> str:
    """`render_frame` for the event loop (see `live_parts`)."""
    return "".join((await live_parts(table_id, user, alert, version, news)).values())


async def live_parts(
    table_id: int, user, alert: str = "", version: int | None = None, news: dict | None = None
) -> dict[str, str]:
    """The parts of `render_frame`, by name, for the event loop.

    From memory when this process holds `version` or can follow its `news`; else after a
    read on the database thread that every viewer of the table in this process shares.
    The render itself runs here, in the loop: a version read or derived holds all a
    frame needs.
    """
    kept = held(table_id, version, news) if version is not None else None
    if kept is not None and not kept.fresh(time.monotonic()):
        _refresh(table_id)
    if kept is None:
        locks = _reads.setdefault(asyncio.get_running_loop(), {})
        lock = locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            kept = held(table_id, version) if version is not None else None
            if kept is None:
                kept = await database_sync_to_async(_read)(table_id, version)
        if not lock.locked():
            locks.pop(table_id, None)
    if not alert and time.monotonic() - kept.foreseen_at < FORESIGHT:
        foreseen = kept.foreseen.get(getattr(user, "pk", None))
        if foreseen is not None:
            return foreseen
    try:
        return _render(kept, user, alert)
    except SynchronousOnlyOperation:
        global loop_fallbacks
        loop_fallbacks += 1
        logger.exception("A frame of table %s touched the database while rendering", table_id)
        return await database_sync_to_async(_render)(kept, user, alert)


# Reads of tables whose versions grew old, by event loop and table.
_refreshing: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Task]] = (
    weakref.WeakKeyDictionary()
)


def _refresh(table_id: int) -> None:
    """Check the table again on the database thread, without anyone waiting for it
    (`_recheck`): the next frames are made from what it finds (or from a version
    derived from it)."""
    tasks = _refreshing.setdefault(asyncio.get_running_loop(), {})
    if table_id in tasks:
        return

    async def read() -> None:
        try:
            await database_sync_to_async(_recheck)(table_id)
        except Exception:  # The next frames come from memory all the same.
            logger.exception("Could not check table %s again", table_id)
        finally:
            tasks.pop(table_id, None)

    tasks[table_id] = asyncio.get_running_loop().create_task(read())


def _recheck(table_id: int) -> None:
    """The table's held version grew old: what versions do not count (its players'
    names, its settings, its cards' totals, which a correction changes) is read and
    compared, in two small queries (`selectors.still_shows`). If it holds, the version
    held is kept for another while; if not, the table is read again in full (`_read`)."""
    kept = _versions.get(table_id)
    if kept is None or not selectors.still_shows(kept.data):
        _read(table_id)
        return
    with _lock:
        # Whatever the event loop derived meanwhile shares the names and the totals.
        held = _versions.get(table_id)
        if held is not None and held.data.seats is kept.data.seats:
            held.stale_at = time.monotonic() + MAX_AGE * random.uniform(0.5, 1.0)


def _next_table(data: selectors.TableData, at: float) -> Table:
    table = copy.copy(data.table)
    table.version += 1
    table.turn_started_at = datetime.fromtimestamp(at, tz=UTC)
    return table


def _derive_move(
    table_id: int, before: Version, move: dict, *, keep: bool = True
) -> Version | None:
    """The version after `before` that a plain `move` made (see `services._play`), held
    from now on if `keep`."""
    data = before.data
    hole = data.hole
    if hole is None or hole.pk != move["hole"] or move["seat"] not in hole.seat_positions:
        return None
    state = engine.apply_action(data.state, hole.seat_positions.index(move["seat"]), move["action"])
    table = _next_table(data, move["at"])
    scorecard = data.scorecard
    hole = copy.copy(hole)
    # A held version's state is `data.state`; its stored form would only be garbage to
    # collect (the version is replaced within seconds), so none is kept.
    hole.state, hole.version = None, state.version
    if state.phase == engine.OVER:
        # The hole's strokes go on the scorecard, as `scorecards.score_hole` scores
        # them. The match's end is read instead: its results come from the database.
        strokes = dict(zip(hole.seat_positions, state.scores, strict=True))
        scorecard = _scored(scorecard, hole.number, strokes)
        if scorecard is None:
            return None
        hole.scores, hole.finished_at = list(state.scores), table.turn_started_at
    recent = [(hole.pk, move["seat"], move["summary"], move["action"].get("type")), *data.recent]
    recent = recent[: selectors.LOG_LENGTH * 2]
    derived = Version(
        dataclasses.replace(
            data, table=table, hole=hole, state=state, recent=recent, scorecard=scorecard
        ),
        before.stale_at,
        before.scorecard_at,
    )
    if scorecard is data.scorecard and "scorecard" in before.parts:
        # The scorecard does not change before the hole ends.
        derived.parts["scorecard"] = before.parts["scorecard"]
    if keep:
        _keep(table_id, derived)
    return derived


def _scored(scorecard: dict, number: int, strokes: dict[int, int]) -> dict | None:
    """`scorecard` (`selectors.scorecard_rows`) with hole `number`'s `strokes` by seat
    position and the totals they make, or None once they end the match."""
    rows = scorecard["rows"]
    if not rows:
        return None
    numbers = scorecard["numbers"]
    if number > len(numbers):
        numbers = list(range(1, number + 1))
    grid = []
    for row in rows:
        line = row["strokes"] + [None] * (len(numbers) - len(row["strokes"]))
        line[number - 1] = strokes.get(row["card"].position)
        grid.append(line)
    played = [n - 1 for n in numbers if any(line[n - 1] is not None for line in grid)]
    status = match_status([[line[i] for line in grid] for i in played], len(rows))
    if status.over:
        return None
    scored = []
    for row, line in zip(rows, grid, strict=True):
        card = copy.copy(row["card"])
        card.total, card.place = status.totals[card.position], None
        scored.append({"card": card, "strokes": line})
    return {"numbers": numbers, "rows": scored}


def _derive_deal(
    table_id: int, before: Version, deal: dict, *, keep: bool = True
) -> Version | None:
    """The version after `before` that dealt the next hole (see `services.next_hole`),
    held from now on if `keep`."""
    data = before.data
    if data.hole is None or data.hole.finished_at is None or deal["number"] != data.hole.number + 1:
        return None
    table = _next_table(data, deal["at"])
    positions = list(deal["positions"])
    state = engine.new_hole(
        table.variant, len(positions), seed=deal["seed"], dealer=positions.index(deal["dealer"])
    )
    hole = Hole(
        pk=deal["hole"],
        table_id=table.pk,
        number=deal["number"],
        dealer=deal["dealer"],
        seed=deal["seed"],
        seat_positions=positions,
        state=None,  # as for a move: the state is `data.state`
        version=state.version,
        started_at=table.turn_started_at,
    )
    # Dealing changes no scorecard and logs no move; the move log still shows the end
    # of the last hole.
    derived = Version(
        dataclasses.replace(data, table=table, hole=hole, state=state),
        before.stale_at,
        before.scorecard_at,
    )
    if keep:
        _keep(table_id, derived)
    return derived

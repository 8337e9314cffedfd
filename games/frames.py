"""Live frames: the parts of a table page pushed to each viewer after a change.

All viewers of one version of a table share one read of it (`selectors.TableData`)
and the parts of the picture that look the same to each of them, rendered once: the
scorecard and the move log, and the status and piles that most viewers see alike
(`Version.parts`). Courses without buttons and boards' frames are rendered once for
what they show, across versions and viewers (`_kept_html`). Everything is rendered
from `engine.view` of each viewer's own seat as always; what is shared is keyed by
everything its template shows.

Each process keeps the latest version of every playing table it serves. The news of
a move (one that does not end the match) carries the move, and the news of a deal its
number, so a process that holds the version before makes the new one with the same
derivation the writer used (`plays.follow`) instead of reading the table again, the
strokes of a hole's end included: `kept_version` never touches the database. Anything else
(a missed message, the end of the match, a seat changing hands, a corrected
scorecard) is read from the database, which stays the truth.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import threading
import time
import weakref
from collections.abc import Callable

from channels.db import database_sync_to_async
from django.core.exceptions import SynchronousOnlyOperation

from . import live, plays, presenters, selectors
from .models import Table

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
    #: Frames rendered ahead for this process's viewers (`ahead`), by player, and when.
    foreseen: dict[int, dict[str, str]] = dataclasses.field(default_factory=dict)
    foreseen_at: float = 0.0
    #: Whether its frames count seconds down (a turn timer, the next deal): such frames
    #: rendered ahead go stale (`FORESIGHT`); others hold for as long as the version.
    counts_down: bool = False

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
#: Pieces of HTML by what they show, for every table and version: courses (see
#: `presenters.courses_for`) and boards' frames (`live.render_board`).
_kept_html: dict[tuple, str] = {}
_lock = threading.Lock()


def _keep(table_id: int, version: Version) -> None:
    """Hold `version` of the table unless a newer one is held (reads run on the database
    thread while the event loop derives)."""
    with _lock:
        current = _versions.get(table_id)
        if current is not None and current.number > version.number:
            return
        if version.data.table.status != Table.Status.PLAYING:
            _versions.pop(table_id, None)
            return
        if len(_versions) >= MAX_TABLES and current is None:
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
    context = presenters.table_context(data.table, user, data, _kept_html)
    context.update(oob=True, alert=alert)
    version.counts_down = context["countdown"] is not None
    parts = {}
    for name in live.PARTS:
        if name in SHARED or (name == "alert" and not alert):
            parts[name] = version.part(name, lambda name=name: live.render(name, context))
        else:
            parts[name] = live.render(name, context, shared=version.parts, kept=_kept_html)
    return parts


def kept_version(table_id: int, version: int, news: dict | None = None) -> Version | None:
    """The table at `version` (or newer) from this process's memory, or None.

    This process may hold that version already, or the one before and the announced
    `news` of what made it (see `announce.table_changed`): a move is replayed with the
    engine on the kept state and a deal is dealt again from its seed, exactly as the
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
            step = plays.follow(kept.data.in_play, news)
        except (plays.GameError, KeyError, TypeError, ValueError, AttributeError, IndexError):
            step = None  # News this process cannot follow: read the table instead.
        kept = _after(kept, step)
        if kept is not None:
            _keep(table_id, kept)
    if kept is None or kept.number < version:
        return None
    return kept


def _after(before: Version, step: plays.Step | None) -> Version | None:
    """The version `step` makes of `before`, or None when it is better read: the end of
    the match (its results come from the database)."""
    if step is None or step.match_over:
        return None
    after = step.after
    moves = [(m.hole_id, m.seat, m.summary, m.action.get("type")) for m in reversed(step.moves)]
    data = dataclasses.replace(
        before.data,
        table=after.table,
        hole=after.hole,
        state=after.state,
        scorecard=after.grid,
        recent=(moves + before.data.recent)[: selectors.LOG_LENGTH * 2],
    )
    data.__dict__["in_play"] = after  # the same version: no need to make it again
    derived = Version(data, before.stale_at, before.scorecard_at)
    if not step.dealt and after.grid is before.data.scorecard and "scorecard" in before.parts:
        # The scorecard does not change before the hole ends (it marks the hole in play).
        derived.parts["scorecard"] = before.parts["scorecard"]
    return derived


def chat_frame(table_id: int, user, *, oob: bool = True) -> str:
    """The table's chat panel as `user` sees it, read from the database (a chat line is
    rare beside moves, and each viewer's panel differs in what they may do)."""
    return live.render_chat(presenters.chat_context(table_id, user), oob=oob)


# --- rendering ahead --------------------------------------------------------------------
#
# A change made on the version this process holds (see `moves`, `services`) is known
# before it is written: while the database writes it, the event loop renders the
# frames of this process's viewers of the table from the step the writer derived.
# They are used only once the change is announced, with the same news; a change that
# is not written is never announced, and what was rendered of it is dropped. A deal's
# hole gets its id only once written: its news is rendered ahead without it.

#: How long frames rendered ahead may be sent for when they show a countdown (it counts
#: whole seconds). Frames without one hold however late their news comes: rendering
#: them again for a busy server's late news would only make it busier.
FORESIGHT = 0.5

#: The players watching each table from this process, with their connections' count.
_viewers: dict[int, dict[int, list]] = {}
#: The change being written at each table, as rendered ahead: its news and its version.
_foreseen: dict[int, tuple[dict, Version]] = {}


def watch(table_id: int, user) -> None:
    """A connection of `user` to the table opened in this process (see `ahead`)."""
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
class LoopCopy:
    """The table at the version a player moves on, as this process holds it (see
    `services.KeptCopy`)."""

    in_play: plays.TableInPlay
    #: The event loop of this process's viewers (None: nothing to render ahead).
    loop: asyncio.AbstractEventLoop | None = None

    def ahead(self, step: plays.Step) -> None:
        """`step` is being written: have its frames rendered ahead. Called from the
        thread that writes it."""
        if step.news is not None and self.loop is not None and self.loop.is_running():
            # A loop stopping meanwhile (the server shuts down) just renders nothing ahead.
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(ahead, self.in_play.table.pk, step)


def kept_copy(table_id: int, version: int) -> LoopCopy | None:
    """The table at exactly `version` if this process holds it, for a move made on it;
    else None. Called in the event loop."""
    kept = _versions.get(table_id)
    if kept is None or kept.number != version:
        return None
    return LoopCopy(kept.data.in_play, asyncio.get_running_loop())


def ahead(table_id: int, step: plays.Step) -> None:
    """Render `step`'s version for this process's viewers of the table, to be used once
    it is announced (`kept_version`)."""
    kept = _versions.get(table_id)
    if kept is None or kept.number != step.before.table.version:
        return
    derived = _after(kept, step)
    if derived is None:
        return
    try:
        for user, _count in list(_viewers.get(table_id, {}).values()):
            derived.foreseen[user.pk] = _render(derived, user, "")
    except Exception:  # The frames are rendered once announced instead.
        logger.exception("Could not render table %s ahead", table_id)
        return
    derived.foreseen_at = time.monotonic()
    _foreseen[table_id] = (dict(step.news), derived)


def _came(foreseen: tuple[dict, Version], news: dict) -> bool:
    """Whether `news` is what was rendered ahead; a deal's hole, rendered without its
    id, takes the id announced."""
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


async def live_parts(
    table_id: int, user, alert: str = "", version: int | None = None, news: dict | None = None
) -> dict[str, str]:
    """Every live part of the table as `user` may see it, by name (`version`: the one
    just announced, if any), for the event loop.

    From memory when this process holds `version` or can follow its `news`; else after a
    read on the database thread that every viewer of the table in this process shares.
    The render itself runs here, in the loop: a version read or derived holds all a
    frame needs.
    """
    kept = kept_version(table_id, version, news) if version is not None else None
    if kept is not None and not kept.fresh(time.monotonic()):
        _refresh(table_id)
    if kept is None:
        locks = _reads.setdefault(asyncio.get_running_loop(), {})
        lock = locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            kept = kept_version(table_id, version) if version is not None else None
            if kept is None:
                kept = await database_sync_to_async(_read)(table_id, version)
        if not lock.locked():
            locks.pop(table_id, None)
    if not alert and (not kept.counts_down or time.monotonic() - kept.foreseen_at < FORESIGHT):
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
    """The table's kept version grew old: what versions do not count (its players'
    names, its settings, its cards' totals, which a correction changes) is read and
    compared, in two small queries (`selectors.still_shows`). If it holds, the version
    stays for another while; if not, the table is read again in full (`_read`)."""
    kept = _versions.get(table_id)
    if kept is None or not selectors.still_shows(kept.data):
        _read(table_id)
        return
    with _lock:
        # Whatever the event loop derived meanwhile shares the names and the totals.
        current = _versions.get(table_id)
        if current is not None and current.data.seats is kept.data.seats:
            current.stale_at = time.monotonic() + MAX_AGE * random.uniform(0.5, 1.0)

"""Benchmark of a move's frames: making the version from its news and rendering it for
every seat, as a worker does for its viewers after each move.

    python tests/bench/bench_render.py

Plays a hole of a four-seat table (SQLite in a temporary directory, production
settings) and, for each move, derives the next version from the move's news and
renders each seat's live parts. Prints, in one run, the time per move with the
courses' HTML kept by what they show (`frames._kept_html`, as the server runs) and
without (every course built and rendered for every viewer of every version), best of
several rounds. Each round starts with nothing kept, as the server meets a new hole.
"""

from __future__ import annotations

import atexit
import dataclasses
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

_dir = tempfile.mkdtemp(prefix="fairway-bench-render-")
atexit.register(shutil.rmtree, _dir, ignore_errors=True)
os.environ.update(
    DATABASE_URL=f"sqlite:///{_dir}/db.sqlite3",
    DEBUG="false",
    SECRET_KEY="bench-only-secret-key-" + "x" * 40,
    ALLOWED_HOSTS="127.0.0.1",
    SECURE_SSL_REDIRECT="false",
    FAIRWAY_HOLE_PAUSE="3600",
)
os.environ.pop("REDIS_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from games import engine, frames, plays  # noqa: E402
from games.models import Seat  # noqa: E402
from tests.bench import table_load  # noqa: E402

ROUNDS = 7


def hole_versions() -> tuple[list[frames.Version], list]:
    """The versions of one hole, move by move, made from the moves' news; and the seats'
    players."""
    call_command("migrate", verbosity=0)
    (play,), _keys = table_load.setup(1)
    players = [
        s.player for s in Seat.objects.filter(table_id=play.table_id).select_related("player")
    ]
    version = frames._read(play.table_id)
    state, hole, rng = version.data.state, version.data.hole, random.Random(3)
    versions = []
    while True:
        seat = table_load.mover(state)
        action = table_load.choose(state, seat, rng)
        after = engine.apply_action(state, seat, action)
        if after.phase == engine.OVER:
            break
        move = {
            "hole": hole.pk,
            "seat": hole.seat_positions[seat],
            "action": action,
            "by_bot": False,
            "at": time.time(),
        }
        version = frames._after(version, plays.follow(version.data.in_play, {"move": move}))
        versions.append(version)
        state = after
    return versions, players


def per_move(versions: list[frames.Version], players: list) -> float:
    """CPU seconds to render a move's frames for every seat, best of `ROUNDS` (CPU time, so
    that other work on the machine does not count)."""
    best = float("inf")
    for _ in range(ROUNDS):
        # Every round as the server meets the hole: nothing of it kept from before.
        if frames._kept_html is not None:
            frames._kept_html.clear()
        started = time.process_time()
        before = None
        for version in versions:
            data = dataclasses.replace(version.data)  # without what viewers worked out
            fresh = frames.Version(data, version.stale_at, version.scorecard_at)
            if before is not None and version.data.scorecard is before.data.scorecard:
                # As `frames._after` does: the scorecard holds through a hole.
                fresh.parts["scorecard"] = before.parts["scorecard"]
            for player in players:
                frames._render(fresh, player, "")
            before = fresh
        best = min(best, (time.process_time() - started) / len(versions))
    return best


def main() -> None:
    versions, players = hole_versions()
    kept = per_move(versions, players)
    shown = frames._kept_html
    frames._kept_html = None
    try:
        built = per_move(versions, players)
    finally:
        frames._kept_html = shown
    print(f"a move's frames for {len(players)} seats ({len(versions)} moves of a hole):")
    print(f"  courses kept as HTML    {kept * 1000:6.3f} ms")
    print(f"  every course built      {built * 1000:6.3f} ms   ({built / kept:.2f}x)")


if __name__ == "__main__":
    main()

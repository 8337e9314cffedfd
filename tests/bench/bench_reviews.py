"""Benchmark of a move while finished holes' reviews are worked out beside it.

    python tests/bench/bench_reviews.py [--moves 300] [--tables 150]

Times `services.apply_move` at two-player tables (SQLite in a temporary directory
unless DATABASE_URL names another database, production settings): with nothing else
running; with a review's playouts run on a thread of the same process, over and over
(as a server working reviews out itself would); and with the reviews of `--tables`
finished holes queued as tasks and worked out by a task worker process at niceness 19
(`manage.py db_worker`, as `make run` and deploy/serve.sh start it). Prints the median,
95th and 99th percentile move of each, then the first again, as the machine's load
drifts.
"""

from __future__ import annotations

import argparse
import atexit
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def setup() -> None:
    """Django on production settings and a fresh database (the task worker inherits the
    environment, and so the database)."""
    sys.path.insert(0, str(ROOT))
    directory = tempfile.mkdtemp(prefix="fairway-bench-reviews-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{directory}/db.sqlite3")
    os.environ.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="false",
        FAIRWAY_REVIEW_AFTER_HOLE="false",
        FAIRWAY_VAR_DIR=directory,
        TASKS_BACKEND="database",
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=300, help="Moves timed in each case.")
    parser.add_argument("--tables", type=int, default=150, help="Tables' reviews queued.")
    options = parser.parse_args()
    moves = options.moves
    setup()
    from games import lobby, reviews, selectors, services
    from games.engine.evaluate import review_seat
    from games.models import HoleReview, Table
    from leagues.models import Player
    from tests.games.helpers import current, next_actor, quick_action

    run = secrets.token_hex(4)  # a database named by DATABASE_URL may hold earlier runs'
    names = iter(range(10**9))

    def new_table() -> tuple[Table, dict]:
        a, b = (Player.objects.create_user(username=f"bench-{run}-{next(names)}") for _ in range(2))
        table = lobby.create_table(host=a, variant="golf-6", seat_count=2, players=[a, b])
        return lobby.start_match(table=table, by=a), {0: a, 1: b}

    def play(table: Table, players: dict, count: int, stop_at_hole_end: bool = False) -> list:
        """Seconds of each of up to `count` moves (deals untimed)."""
        took = []
        while len(took) < count:
            table, hole, state = current(table.pk)
            if table.status != Table.Status.PLAYING:
                break
            if hole.finished_at is not None:
                if stop_at_hole_end:
                    break
                services.next_hole(table_id=table.pk, version=table.version)
                continue
            seat = next_actor(state)
            start = time.perf_counter()
            services.apply_move(
                table_id=table.pk,
                player=players[hole.seat_positions[seat]],
                action=quick_action(state, seat),
                version=table.version,
            )
            took.append(time.perf_counter() - start)
        return took

    def timed(count: int) -> list[float]:
        took: list[float] = []
        while len(took) < count:
            took += play(*new_table(), count - len(took))
        return took

    # A finished hole, reviewed over and over beside the moves.
    table, players = new_table()
    play(table, players, 10**6, stop_at_hole_end=True)
    hole = table.holes.get(number=1)
    start = selectors.hole_start(hole)
    log = [(hole.seat_positions.index(m.seat), m.action) for m in hole.moves.order_by("seq")]
    stop = threading.Event()

    def beside(judge) -> threading.Thread:
        def run() -> None:
            while not stop.is_set():
                judge(start, log, 0, samples=8, seed=1)

        stop.clear()
        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def show(name: str, took: list[float]) -> None:
        took = sorted(took)
        p95 = took[int(0.95 * len(took))]
        p99 = took[int(0.99 * len(took))]
        print(
            f"{name}: {len(took)} moves, median {statistics.median(took) * 1000:.1f} ms, "
            f"95th percentile {p95 * 1000:.1f} ms, 99th percentile {p99 * 1000:.1f} ms",
            flush=True,
        )

    timed(30)  # warm up
    show("nothing beside", timed(moves))
    thread = beside(review_seat)
    show("a review on a thread of the process", timed(moves))
    stop.set()
    thread.join()

    # Each table's first hole played out, its two seats' reviews queued as the hole's end
    # queues them; a worker at the lowest priority works them out beside the moves.
    finished = []
    for _ in range(options.tables):
        table, players = new_table()
        play(table, players, 10**6, stop_at_hole_end=True)
        finished.append(table.holes.get(number=1))
    for hole in finished:
        reviews.review_seats.enqueue(hole.pk, [0, 1])
    worker = subprocess.Popen(
        ["nice", "-n", "19", sys.executable, "manage.py", "db_worker", "--no-reload"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not HoleReview.objects.exists():  # the worker has started and works
            time.sleep(0.1)
        before = HoleReview.objects.count()
        show(
            f"the reviews of {options.tables} tables queued, a task worker at nice 19",
            timed(moves),
        )
        print(f"  (reviews stored meanwhile: {HoleReview.objects.count() - before})")
    finally:
        worker.terminate()
        worker.wait()
    show("nothing beside, again", timed(moves))


if __name__ == "__main__":
    main()

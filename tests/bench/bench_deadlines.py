"""Deadlines benchmark: how late the timer's bot makes a turn-based move after its deadline.

    python tests/bench/bench_deadlines.py                      # 1,000 tables, one process
    python tests/bench/bench_deadlines.py --tables 200 --span 20

It makes `--tables` turn-based tables in play on a fresh PostgreSQL database of its own
(BENCH_DB, default fairway_bench_deadlines), each waiting on its players' tee off, and
sets their deadlines to fall evenly over `--span` seconds from a little after a daphne
server (one process, its driver as in production) has started. Nobody connects: the
server keeps the deadlines by itself. Once the last has passed it reads each table's
first move made by the timer and prints the lateness, from the deadline to that move
(median, p99, max), and the tables whose move was not made. The goal: within 5 s.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

# bench_load sets its servers' settings as it is imported: this benchmark's database
# is named first, and its servers deal the next hole at the usual pace.
os.environ.setdefault("BENCH_DB", "fairway_bench_deadlines")
from tests.bench.bench_load import DB_NAME, Server, percentile, server_env  # noqa: E402

SERVER_ENV = server_env(DB_NAME)
os.environ.pop("FAIRWAY_HOLE_PAUSE", None)

#: The goal: a deadline's move made within this many seconds of its time.
GOAL_SECONDS = 5.0


def prepare_database() -> None:
    """A fresh, migrated benchmark database."""
    subprocess.run(
        ["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", "--force", DB_NAME],
        capture_output=True,
    )
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", DB_NAME], check=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, check=True
    )


def make_tables(count: int) -> list[int]:
    """`count` turn-based two-player tables in play, a day a move."""
    from games import lobby
    from leagues.models import Player

    ids = []
    for n in range(count):
        ana = Player.objects.create_user(username=f"ana{n}", password=None)
        ben = Player.objects.create_user(username=f"ben{n}", password=None)
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=2, players=[ana, ben], move_time=86400
        )
        ids.append(lobby.start_match(table=table, by=ana).pk)
    return ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--span", type=float, default=30.0, help="Seconds the deadlines span.")
    parser.add_argument("--lead", type=float, default=10.0, help="Seconds before the first.")
    args = parser.parse_args()

    prepare_database()
    import django

    django.setup()
    from django.db import connection
    from django.db.models import Min
    from django.utils import timezone

    from games.models import Move, Table

    made = time.monotonic()
    ids = make_tables(args.tables)
    print(f"{args.tables} turn-based tables made in {time.monotonic() - made:.0f} s")
    server = Server(SERVER_ENV)
    try:
        start = timezone.now() + timedelta(seconds=args.lead)
        step = args.span / max(1, args.tables - 1)
        deadlines = {t: start + timedelta(seconds=i * step) for i, t in enumerate(ids)}
        with connection.cursor() as cursor:
            cursor.executemany(
                f"UPDATE {Table._meta.db_table} SET turn_deadline = %s WHERE id = %s",
                [(due, table_id) for table_id, due in deadlines.items()],
            )
        cpu_before = server.cpu_seconds()
        time.sleep(args.lead + args.span + 2 * GOAL_SECONDS)
        cpu = server.cpu_seconds() - cpu_before
    finally:
        server.stop()
    first = dict(
        Move.objects.filter(hole__table_id__in=ids, by_bot=True)
        .values_list("hole__table_id")
        .annotate(at=Min("created_at"))
    )
    late = [(first[t] - due).total_seconds() for t, due in deadlines.items() if t in first]
    early = sum(1 for seconds in late if seconds < 0)
    missing = len(ids) - len(late)
    print(
        f"{args.tables} deadlines over {args.span:.0f} s, one process: lateness median "
        f"{percentile(late, 0.5):.2f} s, p99 {percentile(late, 0.99):.2f} s, max "
        f"{max(late, default=float('nan')):.2f} s; {missing} not made, {early} early; "
        f"server CPU {cpu:.1f} s"
    )
    holds = not missing and not early and max(late, default=0) <= GOAL_SECONDS
    print(
        f"goal: every deadline's move within {GOAL_SECONDS:.0f} s: {'holds' if holds else 'MISSED'}"
    )


if __name__ == "__main__":
    main()

"""Load benchmark: N tables of four players over WebSockets, beside two baselines.

    python tests/bench/bench_load.py                 # 25, 100 and 250 tables, 1 process
    python tests/bench/bench_load.py --processes 1,2 --tables 25,100,250 --seconds 20
    python tests/bench/bench_load.py --processes 1,2 --search   # the most tables within 100 ms
    python tests/bench/bench_load.py --scenarios bots   # the driver: tables of bots (bot_load.py)
    python tests/bench/bench_load.py --processes 2 --route seat   # a table's seats spread

For each table count it starts daphne (one or more processes on PostgreSQL and Redis,
as in production), connects four signed-in players per table, and has every table
make one move a second (open loop: a move is sent on time whether or not the last one
was answered) for a fixed time, after a warm-up of `WARMUP` seconds whose moves are
made and checked but not timed (the first seconds of a new server pay for its first
connections to the database and a full garbage collection of what connecting the
players left). The same is done against two baselines on the same
server: an echo consumer and a bare group fan-out (no database, no rendering). It
prints moves per second, latency from sending a move to the last seat receiving its
update (p50/p95/p99/max), errors, server CPU and memory, each p99 against the
fan-out's, and the share of the machine's cores its host gave to others meanwhile
("steal": figures taken while it stole much are not comparable with others); then
checks the move logs: no move lost, none doubled. Under each row, what the servers
counted themselves over the same seconds, read from their `/metrics`
(`server_metrics.py`): moves written a second, frames sent a second, sockets open by
kind, and a player's move from its arrival to its frame, from the servers' histogram.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
# BENCH_DB: a database of its own, for runs side by side on one PostgreSQL (with a
# REDIS_PREFIX of their own too: Redis's pub/sub ignores the database number).
DB_NAME = os.environ.get("BENCH_DB", "fairway_bench")


def server_env(database: str) -> dict[str, str]:
    """A production-like server's settings on the benchmark's own database (every
    benchmark that starts servers starts from these)."""
    return {
        "DATABASE_URL": f"{PG}/{database}",
        "REDIS_URL": os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3"),
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
    }


SERVER_ENV = {
    **server_env(DB_NAME),
    "DB_CONN_MAX_AGE": os.environ.get("BENCH_CONN_MAX_AGE", "60"),
    # The generator deals the next hole itself, at its own pace.
    "FAIRWAY_HOLE_PAUSE": "3600",
}
os.environ.update(SERVER_ENV)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from websockets.asyncio.client import connect  # noqa: E402

from tests.bench import server_metrics  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
#: Seconds of moves before the timed ones.
WARMUP = 3.0


@contextlib.contextmanager
def collector_paused():
    """The client's own garbage collector kept out of the timed moves.

    The client holds every player's socket and every frame's arrival: left alone, its
    full collections took 24-95 ms, a few times a run, and every move in flight then
    looked that late. What the client made while connecting is frozen first; what it
    makes while timing is collected after.
    """
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def server_for(servers: list, table: int, seat: int):
    """The server a seat's socket goes to: with `--route table` (the default), every seat
    of a table to one server, as the example proxy routes a table's sockets by their
    path (`deploy/nginx.conf`); with `--route seat`, a table's seats spread over the
    servers, so that each move's news crosses between processes (the worst case)."""
    spread = os.environ.get("BENCH_ROUTE", "table") == "seat"
    return servers[(table + seat) % len(servers) if spread else table % len(servers)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Server:
    """One daphne process serving Fairway plus the baseline routes."""

    def __init__(self, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.profiler: subprocess.Popen | None = None
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        cmd.append("tests.bench.bench_asgi:application")
        log_path = ROOT / "var" / f"bench-daphne-{self.port}.log"
        log_path.parent.mkdir(exist_ok=True)
        with open(log_path, "wb") as log:
            self.process = subprocess.Popen(
                cmd, cwd=ROOT, env={**os.environ, **(env or {})}, stdout=log, stderr=log
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not start")

    def cpu_seconds(self) -> float:
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS

    def rss_mb(self) -> float:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        if self.profiler is not None:  # let it write its samples first
            self.profiler.wait(timeout=60)
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:  # a loaded machine: its figures are taken already
            self.process.kill()
            self.process.wait()


@dataclass
class Result:
    scenario: str
    tables: int
    processes: int
    sent: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    seconds: float = 0.0
    cpu_percent: float = 0.0
    #: The share of the machine's cores its host (a hypervisor) gave to others meanwhile.
    steal_percent: float = 0.0
    rss_mb: float = 0.0
    notes: list[str] = field(default_factory=list)
    #: What the servers counted themselves meanwhile (their /metrics).
    served: server_metrics.Served | None = None

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies, q) * 1000

    def row(self) -> dict:
        """The figures `goals.py` reads."""
        return {
            "scenario": self.scenario,
            "tables": self.tables,
            "processes": self.processes,
            "rate": self.rate,
            "p99": self.p(0.99),
            "cpu": self.cpu_percent,
            "errors": self.errors,
            "steal": self.steal_percent,
            "server": self.served.row() if self.served else None,
        }


def record(entry: dict) -> None:
    """Append `entry` to the file named by --record (for `goals.py`), if any."""
    path = os.environ.get("BENCH_RECORD")
    if path:
        with open(path, "a") as out:
            out.write(json.dumps(entry) + "\n")


class Seat:
    """One WebSocket of one player; records when each message id arrives."""

    def __init__(self, url: str, cookie: str | None, origin: str) -> None:
        self.url, self.cookie, self.origin = url, cookie, origin
        self.arrivals: dict[str, float] = {}
        self.frames: list[str] = []
        self.ws = None
        self.task: asyncio.Task | None = None
        self.on_frame = None

    async def open(self) -> None:
        headers = {"Cookie": f"sessionid={self.cookie}"} if self.cookie else None
        self.ws = await connect(
            self.url,
            origin=self.origin,
            additional_headers=headers,
            compression=None,
            open_timeout=30,
            ping_interval=None,
            max_size=None,
        )
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for message in self.ws:
                now = time.perf_counter()
                if self.on_frame is not None:
                    self.on_frame(self, message, now)
                else:
                    self.arrivals[json.loads(message)["id"]] = now
        except Exception:  # a closed socket ends the reader; the counts tell the story
            pass

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await self.task


async def open_all(seats: list[Seat], batch: int = 50) -> int:
    """Connect every seat, a batch at a time; returns how many failed."""
    failed = 0
    for start in range(0, len(seats), batch):
        results = await asyncio.gather(
            *(s.open() for s in seats[start : start + batch]), return_exceptions=True
        )
        failed += sum(isinstance(r, Exception) for r in results)
    return failed


async def run_baseline(kind: str, servers: list[Server], tables: int, seconds: float) -> Result:
    result = Result(kind, tables, len(servers))
    seats: list[list[Seat]] = []
    for t in range(tables):
        row = []
        for s in range(4):
            port = server_for(servers, t, s).port
            path = "ws/bench/echo/" if kind == "echo" else f"ws/bench/fanout/t{t}/"
            row.append(Seat(f"ws://127.0.0.1:{port}/{path}", None, f"http://127.0.0.1:{port}"))
        seats.append(row)
    result.errors += await open_all([s for row in seats for s in row])
    await asyncio.sleep(0.5)
    sent: dict[str, tuple[float, list[Seat], bool]] = {}
    start = time.perf_counter() + 0.2
    timed_from = start + WARMUP

    async def table_loop(t: int) -> None:
        k = 0
        pad = "x" * 200
        while (at := start + t / tables + k) < timed_from + seconds:
            await asyncio.sleep(max(0.0, at - time.perf_counter()))
            mover = seats[t][k % 4]
            mid = f"{t}-{k}"
            receivers = [mover] if kind == "echo" else seats[t]
            sent[mid] = (time.perf_counter(), receivers, at >= timed_from)
            try:
                await mover.ws.send(json.dumps({"id": mid, "pad": pad}))
            except Exception:
                result.errors += 1
            k += 1

    cpu = asyncio.ensure_future(cpu_when(servers, timed_from))
    with collector_paused():
        await asyncio.gather(*(table_loop(t) for t in range(tables)))
        await asyncio.sleep(2.0)
    measure(result, servers, await cpu, timed_from, seconds)
    for mid, (t0, receivers, timed) in sent.items():
        arrivals = [r.arrivals.get(mid) for r in receivers]
        if None in arrivals:
            result.errors += 1
        elif timed:
            result.latencies.append(max(arrivals) - t0)
    result.sent = len(sent)
    await asyncio.gather(*(s.close() for row in seats for s in row), return_exceptions=True)
    return result


def stolen_seconds() -> float:
    """The CPU seconds this machine's host has taken from its cores since it started
    ("steal" in /proc/stat; 0 where not told)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


@dataclass
class Start:
    """The servers' CPU seconds, those stolen from the machine, and the servers' own
    figures (None: unreadable), when timing began."""

    cpu: list[float]
    stolen: float
    served: server_metrics.Figures | None = None


async def cpu_when(servers: list[Server], at: float) -> Start:
    """The servers' CPU seconds at `at` (time.perf_counter); with --profile, py-spy
    starts sampling each server then (only the Python thread holding the GIL counts, so
    the profile shows where the server's CPU goes, not where it waits)."""
    await asyncio.sleep(max(0.0, at - time.perf_counter()))
    # Set by --profile (in the environment: the scenarios import this module anew).
    profile, seconds = os.environ.get("BENCH_PROFILE"), os.environ.get("BENCH_SECONDS", "15")
    if profile:
        for s in servers:
            out = Path(profile) / f"server-{s.port}.txt"
            cmd = ["py-spy", "record", "--gil", "--nonblocking", "-r", "250", "-f", "raw"]
            cmd += ["-d", str(int(float(seconds))), "-p", str(s.process.pid), "-o", str(out)]
            exe = Path(sys.executable).parent / "py-spy"
            cmd[0] = str(exe) if exe.exists() else cmd[0]
            s.profiler = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    start = Start([s.cpu_seconds() for s in servers], stolen_seconds())
    start.served = await asyncio.to_thread(read_served, servers)
    return start


def read_served(servers: list[Server]) -> server_metrics.Figures | None:
    """Every server's own figures (`/metrics`) added up; None if one cannot be read."""
    try:
        return server_metrics.read([s.port for s in servers])
    except (OSError, ValueError):
        return None


def measure(
    result: Result, servers: list[Server], start: Start, since: float, seconds: float
) -> None:
    """CPU (since `since`, as a share of one core) and memory of the servers, and the
    share of the machine stolen meanwhile: on a shared host, figures taken while it
    stole much are not comparable with others."""
    result.seconds = seconds
    used = sum(s.cpu_seconds() - c for s, c in zip(servers, start.cpu, strict=True))
    elapsed = time.perf_counter() - since
    result.cpu_percent = used * 100 / elapsed
    stolen = stolen_seconds() - start.stolen
    result.steal_percent = stolen * 100 / (elapsed * (os.cpu_count() or 1))
    result.rss_mb = sum(s.rss_mb() for s in servers)
    after = read_served(servers)
    if start.served is None or after is None:
        result.notes.append("servers' own count: their /metrics could not be read")
    else:
        result.served = server_metrics.between(start.served, after, seconds)
        result.notes.append(result.served.note())


def format_row(r: Result, fanout_p99: float | None) -> str:
    ratio = f"{r.p(0.99) / fanout_p99:5.1f}x" if fanout_p99 else "    -"
    return (
        f"{r.processes:>4} {r.tables:>6} {r.scenario:<8} {r.rate:>8.1f} {r.p(0.5):>8.1f} "
        f"{r.p(0.95):>8.1f} {r.p(0.99):>8.1f} {r.p(1.0):>8.1f} {r.errors:>6} "
        f"{r.cpu_percent:>6.0f}% {r.rss_mb:>7.0f} {ratio:>10} {r.steal_percent:>5.0f}%"
    )


HEADER = (
    f"{'proc':>4} {'tables':>6} {'scenario':<8} {'moves/s':>8} {'p50 ms':>8} {'p95 ms':>8} "
    f"{'p99 ms':>8} {'max ms':>8} {'errors':>6} {'cpu':>7} {'rss MB':>7} p99/fanout  steal"
)


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


def run_config(processes: int, tables: int, scenarios: list[str], seconds: float) -> dict:
    """Run `scenarios` against fresh servers; print and return their results by name."""
    from tests.bench import bot_load, table_load

    results = {}
    servers = [Server() for _ in range(processes)]
    try:
        for kind in scenarios:
            if kind == "table":
                results[kind] = asyncio.run(table_load.run_tables(servers, tables, seconds))
            elif kind != "bots":
                results[kind] = asyncio.run(run_baseline(kind, servers, tables, seconds))
    finally:
        for s in servers:
            s.stop()
    if "bots" in scenarios:
        # On servers of its own, alone: any other server's driver would play its bots too.
        results["bots"] = run_apart(
            processes, bot_load.SERVER_ENV, bot_load.run_bots, tables, seconds
        )
    fan = results.get("fanout")
    record({"run": [r.row() for r in results.values()]})
    for r in results.values():
        # The bots' figures are lateness, not a trip there and back: no ratio.
        ratio_to = fan.p(0.99) if fan and r.scenario != "bots" else None
        print(format_row(r, ratio_to), flush=True)
        for note in r.notes:
            print(f"       {note}")
    return results


def run_apart(processes: int, env: dict[str, str], scenario, tables: int, seconds: float) -> Result:
    """Run `scenario` against servers of its own, started with `env` added."""
    servers = [Server(env) for _ in range(processes)]
    try:
        return asyncio.run(scenario(servers, tables, seconds))
    finally:
        for s in servers:
            s.stop()


def search(processes: int, steps: list[int], seconds: float, limit_ms: float) -> int:
    """Step the table count up until the tables' p99 passes `limit_ms` (or errors appear);
    returns the largest count that kept within it (0: none did)."""
    best = 0
    for tables in steps:
        result = run_config(processes, tables, ["table"], seconds)["table"]
        if result.errors or not result.p(0.99) <= limit_ms:
            break
        best = tables
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="25,100,250")
    parser.add_argument("--processes", default="1")
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--scenarios", default="echo,fanout,table")
    parser.add_argument(
        "--search",
        action="store_true",
        help="for each process count, step the tables up (--steps) until p99 > --limit",
    )
    parser.add_argument("--steps", default="25,50,100,150,200,250,300,400,600")
    parser.add_argument("--limit", type=float, default=100.0, help="p99 limit in ms")
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample each server's timed seconds with py-spy into DIR (collapsed stacks)",
    )
    parser.add_argument(
        "--record", metavar="FILE", help="append each run's figures to FILE (for goals.py)"
    )
    parser.add_argument(
        "--route",
        choices=["table", "seat"],
        default="table",
        help="with several processes, a table's seats on one (as deployed) or spread",
    )
    args = parser.parse_args()
    os.environ["BENCH_ROUTE"] = args.route
    if args.record:
        os.environ["BENCH_RECORD"] = args.record
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        os.environ.update(BENCH_PROFILE=args.profile, BENCH_SECONDS=str(args.seconds))
    prepare_database()
    print(HEADER)
    if args.search:
        steps = list(map(int, args.steps.split(",")))
        found = {
            processes: search(processes, steps, args.seconds, args.limit)
            for processes in map(int, args.processes.split(","))
        }
        record({"search": {str(p): best for p, best in found.items()}, "limit": args.limit})
        for processes, best in found.items():
            print(
                f"largest table count with p99 <= {args.limit:.0f} ms and no errors, "
                f"{processes} process(es): {best or f'none of {steps[0]} or more'}"
            )
        return
    for processes in map(int, args.processes.split(",")):
        for tables in map(int, args.tables.split(",")):
            run_config(processes, tables, args.scenarios.split(","), args.seconds)


if __name__ == "__main__":
    main()

"""Which outside services the suite can reach: PostgreSQL, Redis, Chromium, the
server programs that fault tests start for themselves (redis-server, initdb and pg_ctl,
pg_dump and pg_restore), and what the drill of several hosts needs (network namespaces,
made as root with iproute2 and nftables; nginx; openssl for its certificate).

As a script (`python tests/services.py postgres redis`) it exits 0 when all are there.
When one is missing it exits 1 with a note (the suite skips that part), or, under
CI (`CI=true`), 2: there a missing service is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
POSTGRES_ADDR = ("127.0.0.1", 5432)
REDIS_ADDR = ("127.0.0.1", 6379)
#: PostgreSQL's server programs (initdb, pg_ctl) and its clients of the same version.
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
#: Programs a fault test runs, by the name the test requires.
PROGRAMS = {
    "redis-server": ["redis-server"],
    "postgres-cluster": [str(PG_BIN / "initdb"), str(PG_BIN / "pg_ctl")],
    "pg_dump": [str(PG_BIN / n) for n in ("pg_dump", "pg_restore", "createdb")],
    "nginx": ["nginx", "openssl"],
}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _listening(addr: tuple[str, int]) -> bool:
    try:
        with socket.create_connection(addr, timeout=1):
            return True
    except OSError:
        return False


def missing(name: str) -> str | None:
    """A sentence saying why `name` cannot be used here, or None when it can."""
    if name == "postgres":
        return None if _listening(POSTGRES_ADDR) else "PostgreSQL is not listening on 5432"
    if name == "redis":
        return None if _listening(REDIS_ADDR) else "Redis is not listening on 6379"
    if name == "chromium":
        found = os.path.exists(CHROMIUM) or shutil.which("chromium")
        return None if found else f"Chromium is not installed at {CHROMIUM}"
    if name == "namespaces":
        return _namespaces()
    if name in PROGRAMS:
        absent = [p for p in PROGRAMS[name] if shutil.which(p) is None]
        return f"{', '.join(absent)} not found" if absent else None
    raise ValueError(f"unknown service {name!r}")


def _namespaces() -> str | None:
    """Why no network namespace (with nftables) can be made here, or None."""
    absent = [p for p in ("ip", "nft") if shutil.which(p) is None]
    if absent:
        return f"{', '.join(absent)} not found (iproute2, nftables)"
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"fairway-probe-{os.getpid()}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True, text=True)
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    if made.returncode != 0:
        return f"no network namespace can be made here ({made.stderr.strip()})"
    tables = subprocess.run(["nft", "list", "tables"], capture_output=True, text=True)
    if tables.returncode != 0:
        return f"nftables does not answer here ({tables.stderr.strip()})"
    return None


def main(names: list[str]) -> int:
    problems = [p for p in map(missing, names) if p]
    if not problems:
        return 0
    for problem in problems:
        print(f"{'ERROR' if in_ci() else 'SKIPPED'}: {problem}.", file=sys.stderr)
    return 2 if in_ci() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Throwaway Redis and PostgreSQL servers that a fault test may stop and start at will.

Each runs on a free port of its own, never the shared instances, and is stopped (its
files removed) when the test ends. Locally a missing tool skips the test; under CI it
fails it (`tests.conftest.require`).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from tests.conftest import ROOT, free_port
from tests.services import PG_BIN


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


def _wait(predicate, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} within {seconds} s")


class RedisServer:
    """A redis-server without persistence: a restart comes back empty, as after a crash."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        self.log = ROOT / "var" / f"redis-{self.port}.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.log.parent.mkdir(exist_ok=True)
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        cmd += ["--save", "", "--appendonly", "no"]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(cmd, stdout=log, stderr=log)
        _wait(lambda: _listening(self.port), 10, "redis-server did not listen")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        _wait(lambda: not _listening(self.port), 10, "redis-server did not stop")


class PostgresCluster:
    """A PostgreSQL cluster in a temporary directory (initdb, pg_ctl), trusting local
    connections. PostgreSQL refuses to run as root: as root, it runs as `postgres`."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="fairway-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.dir, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def init(self) -> PostgresCluster:
        self._run(
            str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
            "--auth=trust", "-E", "UTF8", "--no-sync",
        )  # fmt: skip
        return self

    def start(self) -> PostgresCluster:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
            "-o", options, "-w", "start",
        )  # fmt: skip
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server: `fast` ends every session (their open transactions roll back),
        as a restart by an administrator or a supervisor does; `immediate` exits at once,
        as a crash, and the next start recovers."""
        if (self.data / "postmaster.pid").exists():
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def create_database(self, name: str) -> str:
        subprocess.run(
            [
                str(PG_BIN / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(self.port),
                "-U",
                "postgres",
                name,
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.url(name)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.dir, ignore_errors=True)


def copy_database(source_url: str, cluster: PostgresCluster, name: str) -> str:
    """Back up the database at `source_url` with pg_dump and restore it into a fresh
    database `name` of `cluster`, as the README's drill does: the new database's URL."""
    with tempfile.TemporaryDirectory() as work:
        dump = Path(work) / "fairway.dump"
        subprocess.run(
            [str(PG_BIN / "pg_dump"), "--format=custom", f"--file={dump}", source_url],
            check=True,
            capture_output=True,
            timeout=120,
        )
        url = cluster.create_database(name)
        subprocess.run(
            [str(PG_BIN / "pg_restore"), "--no-owner", f"--dbname={url}", str(dump)],
            check=True,
            capture_output=True,
            timeout=120,
        )
    return url

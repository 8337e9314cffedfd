"""The production start script (deploy/serve.sh): it reports each worker up only once
the worker's /readyz answers, and stops every worker when one never gets ready."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import database_url, free_port

ROOT = Path(__file__).resolve().parent.parent
SERVE = ROOT / "deploy" / "serve.sh"

pytestmark = pytest.mark.both_databases


def serve_env(tmp_path: Path, **more: str) -> dict[str, str]:
    return {
        **os.environ,
        "PY": sys.executable,
        "DATABASE_URL": database_url(),
        "DEBUG": "false",
        "SECRET_KEY": "serve-test-" + "s" * 50,
        "ALLOWED_HOSTS": "fairway.example.org",
        "STATIC_ROOT": str(tmp_path / "static"),
        "LOG_LEVEL": "WARNING",
        **more,
    }


def two_free_ports() -> int:
    """A port whose next one is free too."""
    for _ in range(20):
        port = free_port()
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port + 1))
            except OSError:
                continue
        return port
    raise RuntimeError("no two free ports in a row")


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def test_serve_reports_each_worker_up_once_it_is_ready(transactional_db, tmp_path):
    # Several workers need the shared channel layer (Redis); on SQLite alone, one.
    workers = 2 if os.environ.get("REDIS_URL") else 1
    base = two_free_ports()
    env = serve_env(tmp_path, WORKERS=str(workers), BASE_PORT=str(base))
    serve = subprocess.Popen(
        ["bash", str(SERVE)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        up = []
        deadline = time.monotonic() + 120
        while len(up) < workers and time.monotonic() < deadline:
            line = serve.stdout.readline()
            if not line:
                break
            if "is up" in line:
                up.append(line)
        assert len(up) == workers, up
        for port in range(base, base + workers):
            # Reported up: it is ready, by any address, however https is enforced.
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=10) as r:
                assert r.status == 200
    finally:
        serve.send_signal(signal.SIGTERM)
        serve.wait(timeout=60)
    for port in range(base, base + workers):
        assert not listening(port)


def test_serve_stops_every_worker_when_one_cannot_reach_the_channel_layer(
    transactional_db, tmp_path
):
    base = two_free_ports()
    env = serve_env(
        tmp_path,
        WORKERS="1",
        BASE_PORT=str(base),
        REDIS_URL="redis://127.0.0.1:1/0",  # nothing listens there
        READY_WAIT="6",
        FAIRWAY_READY_TIMEOUT="1",
    )
    done = subprocess.run(
        ["bash", str(SERVE)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 1
    assert "is not ready: stopping every worker" in done.stderr
    assert "is up" not in done.stdout
    assert not listening(base)

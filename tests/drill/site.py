"""The site on three hosts: two app hosts running Fairway as `deploy/serve.sh` does,
against this machine's PostgreSQL and Redis, and a front host running nginx.

`Site.open()` builds the hosts and starts every process without waiting for them;
`await site.ready()` waits until each worker answers `READY_PATH` itself and
`PAGE_PATH` loads through nginx. `site.close()` stops everything and takes the hosts down.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

from tests.conftest import ROOT
from tests.drill.hosts import (
    PAGE_PATH,
    READY_PATH,
    SITE,
    Host,
    Network,
    app_host_processes,
    make_certificate,
    nginx_main_conf,
    render_site_conf,
    worker_ports,
)

#: The app's secret key on every app host; the test signs its players' sessions with it.
SECRET_KEY = "drill-only-secret-key-" + "d" * 40
#: Seconds a bot waits before it acts, and a finished hole before the next deal.
BOT_DELAY = 0.3
HOLE_PAUSE = 1.0
#: What the app hosts' processes call themselves to PostgreSQL.
APPLICATION_NAME = "fairway-drill"
#: How long the processes get to start and answer.
START_SECONDS = 60


def app_env(network: Network, database_url: str, redis_url: str, static_root: Path) -> dict:
    """What an app host's processes read, as an operator sets it for deploy/serve.sh."""
    return {
        **os.environ,  # PATH, and the channel layer's prefix of this test run
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "false",
        "SECRET_KEY": SECRET_KEY,
        "ALLOWED_HOSTS": SITE,
        "CSRF_TRUSTED_ORIGINS": f"https://{SITE}",
        "BEHIND_PROXY": "true",
        "DATABASE_URL": f"{network.via_gateway(database_url)}?application_name={APPLICATION_NAME}",
        "REDIS_URL": network.via_gateway(redis_url),
        "STATIC_ROOT": str(static_root),
        "LOG_LEVEL": "WARNING",
        "FAIRWAY_BOT_DELAY": str(BOT_DELAY),
        "FAIRWAY_HOLE_PAUSE": str(HOLE_PAUSE),
        # A hole's reviews are tasks in the database: the dead host's task worker may die
        # in one, which the living host's worker runs again once its lease is over
        # (seconds here, not the production's minutes).
        "FAIRWAY_REVIEW_AFTER_HOLE": "true",
        "TASKS_BACKEND": "database",
        "FAIRWAY_TASK_LEASE_SECONDS": "5",
        "FAIRWAY_TASK_RECOVER_SECONDS": "1",
        # One playout an action: the drill asks that the reviews are worked out, not how well.
        "FAIRWAY_REVIEW_SAMPLES": "1",
    }


async def http_status(address: str, port: int, path: str, *, tls: ssl.SSLContext | None) -> int:
    """The status of GET `path` at address:port (0: no answer), asked as the proxy asks
    a worker (over HTTPS as far as the app knows) or, with `tls`, as a browser asks."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(address, port, ssl=tls, server_hostname=SITE if tls else None),
            timeout=2,
        )
    except (OSError, TimeoutError, ssl.SSLError):
        return 0
    try:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {SITE}\r\nX-Forwarded-Proto: https\r\n"
            "Connection: close\r\n\r\n"
        )
        writer.write(request.encode())
        line = await asyncio.wait_for(reader.readline(), timeout=5)
        parts = line.split()
        return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
    except (OSError, TimeoutError, ssl.SSLError):
        return 0
    finally:
        writer.close()


class Site:
    """Two app hosts and a front host (see the module's docstring)."""

    def __init__(self, database_url: str, redis_url: str) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="fairway-drill-"))
        self.directory.chmod(0o755)  # nginx's workers run as nobody
        # The processes' output, of the last drill only.
        self.logs = ROOT / "var" / "drill"
        shutil.rmtree(self.logs, ignore_errors=True)
        self.logs.mkdir(parents=True)
        self.network = Network(self.logs)
        self.database_url, self.redis_url = database_url, redis_url
        self.apps: list[Host] = []
        self.front: Host | None = None
        self.tls = ssl.create_default_context()
        self.started = time.monotonic()

    def open(self) -> None:
        static = self.directory / "static"
        env = app_env(self.network, self.database_url, self.redis_url, static)
        # serve.sh collects the static files before it starts the workers: they index
        # them as they start. One copy serves both app hosts here.
        collect = subprocess.Popen(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        ports = sorted({_port(self.database_url, 5432), _port(self.redis_url, 6379)})
        self.network.open(ports)
        self.apps = [self.network.add_host("app1"), self.network.add_host("app2")]
        self.front = self.network.add_host("front")
        cert, key = make_certificate(self.directory)
        self.tls.load_verify_locations(cafile=str(cert))
        site_conf = self.directory / "fairway.conf"
        site_conf.write_text(render_site_conf(self.workers(), cert, key))
        main_conf = self.directory / "nginx.conf"
        main_conf.write_text(nginx_main_conf(self.directory, site_conf))
        _, error = collect.communicate(timeout=START_SECONDS)
        assert collect.returncode == 0, f"collectstatic failed:\n{error.decode()[-2000:]}"
        for host in self.apps:
            for name, command in app_host_processes(host.address).items():
                host.start(name, command, env)
        nginx = ["nginx", "-p", str(self.directory), "-c", str(main_conf), "-g", "daemon off;"]
        self.front.start("nginx", nginx, dict(os.environ))

    def workers(self) -> list[str]:
        return [f"{host.address}:{port}" for host in self.apps for port in worker_ports()]

    def host_of(self, upstream: str) -> Host:
        """The app host of the worker that answered, as nginx names it (address:port,
        after those it tried first and failed, if any, and a comma)."""
        address = upstream.split(",")[-1].strip().rsplit(":", 1)[0]
        return next(host for host in self.apps if host.address == address)

    async def ready(self) -> None:
        """Wait until every worker answers READY_PATH with 200 when asked directly, and
        nginx PAGE_PATH; fail at once if a process exits."""
        deadline = time.monotonic() + START_SECONDS
        pending = [(host, port) for host in self.apps for port in worker_ports()]
        while pending:
            self.check_running()
            assert time.monotonic() < deadline, f"not ready in time: {pending} ({self.logs})"
            statuses = await asyncio.gather(
                *(http_status(h.address, port, READY_PATH, tls=None) for h, port in pending)
            )
            pending = [hp for hp, status in zip(pending, statuses, strict=True) if status != 200]
            if pending:
                await asyncio.sleep(0.2)
        while await http_status(self.front.address, 443, PAGE_PATH, tls=self.tls) != 200:
            self.check_running()
            assert time.monotonic() < deadline, f"nginx did not answer in time ({self.logs})"
            await asyncio.sleep(0.2)

    def check_running(self) -> None:
        for host in [*self.apps, self.front]:
            exited = host.exited()
            assert not exited, f"{host.namespace}: {exited} exited early; logs in {self.logs}"

    def connect_kwargs(self) -> dict:
        """How a client reaches the site: SITE's name for TLS and Host, the front
        host's address for the connection."""
        return {"host": self.front.address, "port": 443, "ssl": self.tls, "proxy": None}

    def close(self) -> list[str]:
        problems = self.network.close()
        shutil.rmtree(self.directory, ignore_errors=True)
        return problems


def _port(url: str, default: int) -> int:
    return urlsplit(url).port or default

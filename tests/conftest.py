"""Fixtures shared by the whole suite: outside services, a live daphne server, Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache

from tests import services

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def _own_channel_layer_names() -> None:
    """Keep this run's Redis channel names apart from every other run's.

    Redis's pub/sub channels ignore the database number, so two runs on one Redis (two
    xdist workers, two work trees) would hear each other's tables, whose ids repeat from
    one test database to the next. The prefix is this process's alone; daphne servers
    that a test starts inherit it through the environment.
    """
    config = settings.CHANNEL_LAYERS["default"].get("CONFIG")
    if config is None:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"test-{worker}-{uuid.uuid4().hex[:8]}"
    config["prefix"] = os.environ["REDIS_PREFIX"] = prefix


_own_channel_layer_names()


@pytest.fixture(autouse=True)
def _nothing_held_of_earlier_tables() -> Iterator[None]:
    """Each test starts with this process holding no table: rolled-back tests reuse the
    ids of tables that earlier tests played to higher versions."""
    from games import frames, loop_writes

    frames.forget()
    # Nor any count an earlier test left in the cache (the table-code box's guesses).
    cache.clear()
    yield
    # Nor any connection of a test's event loop, which would hold the test database.
    loop_writes.forget()


@pytest.fixture
def reviews_after_hole(settings, transactional_db) -> None:
    """Each finished hole's reviews are queued as a task once its end commits (run at
    once, by the suite's immediate backend, unless the test uses `task_workers`)."""
    settings.FAIRWAY_REVIEW_AFTER_HOLE = True


class TaskWorkers:
    """Real task workers (`manage.py db_worker`, each a process of its own, as in
    production) on the test database, for a test whose tasks go to the database."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen] = []
        self.logs: list[Path] = []

    def start(self, **env: str) -> subprocess.Popen:
        """A worker that polls every 0.1 s; `env` adds settings (FAIRWAY_TASK_...)."""
        log = ROOT / "var" / f"db-worker-{os.getpid()}-{len(self.logs)}.log"
        log.parent.mkdir(exist_ok=True)
        environment = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "TASKS_BACKEND": "database",
            "PYTHONUNBUFFERED": "1",
            **env,
        }
        cmd = [sys.executable, "manage.py", "db_worker", "--interval", "0.1"]
        cmd += ["--no-reload", "--no-startup-delay"]
        with open(log, "wb") as out:
            process = subprocess.Popen(cmd, cwd=ROOT, env=environment, stdout=out, stderr=out)
        self.processes.append(process)
        self.logs.append(log)
        return process

    def log(self) -> str:
        return "\n".join(log.read_text() for log in self.logs if log.exists())

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def task_workers(settings, transactional_db) -> Iterator[TaskWorkers]:
    """Tasks queued in the test database (the database backend), and real workers the
    test starts on it; each is stopped with the test."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    workers = TaskWorkers()
    yield workers
    workers.stop()


def require(name: str) -> None:
    """Skip the test when `name` is missing here; under CI, fail it instead."""
    problem = services.missing(name)
    if problem is None:
        return
    if services.in_ci():
        pytest.fail(f"{problem}: CI needs it.")
    pytest.skip(problem)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The URL of the database the tests use now (the test database, once created)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or "postgres"
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


class DaphneServer:
    """A real daphne process serving Fairway against the test database.

    It runs as its own program (not a fork of the test process), so it can be killed
    and started again like a server in production.
    """

    def __init__(self, port: int | None = None, extra_env: dict[str, str] | None = None):
        self.port = port or free_port()
        self.extra_env = extra_env or {}
        self.process: subprocess.Popen | None = None
        self.log = ROOT / "var" / f"daphne-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> DaphneServer:
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "DEBUG": "true",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            **self.extra_env,
        }
        self.log.parent.mkdir(exist_ok=True)
        cmd = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port)]
        cmd.append("config.asgi:application")
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited early:\n{self.log.read_text()[-3000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("daphne did not start listening within 30 s")

    def stop(self, sig: int | None = None) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        if sig is None:
            self.process.terminate()
        else:
            self.process.send_signal(sig)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def daphne_server(transactional_db) -> Iterator[DaphneServer]:
    """A live daphne server (HTTP and WebSockets) on the test database."""
    server = DaphneServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_browser():
    require("chromium")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in this thread; the ORM calls a browser
    # test makes between steps are still plain synchronous code.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=services.CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(playwright_browser):
    context = playwright_browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()

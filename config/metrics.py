"""The worker's figures for Prometheus, and who may read them (`config.ops` serves them).

Every daphne worker keeps its own figures in memory and answers `/metrics` with them;
Prometheus scrapes each worker on its own port, as it scrapes any service of several
processes, and adds them up across workers (`sum by (kind) (...)`). No directory is
shared between processes (prometheus-client's multiprocess mode): nothing to clear
when a worker restarts, no file written per move, and workers on several hosts are
scraped the same way.

Besides live play's own (`games.metrics`), a worker counts here:

- its open WebSockets by kind (table, board, event, arrivals, report) and the frames
  sent on them, at the ASGI layer (`count_sockets`), so that no consumer counts;
- Django's requests (method and status, and how long each took: `request_metrics`,
  the first middleware) and database queries (how many, how long, how many failed, by
  database alias: `instrument_database`, an execute wrapper on every connection);
- the task queue's depth and the age of its oldest task, read when scraped
  (`queue_backlog`).

`/metrics` answers only clients whose address is in METRICS_ALLOW (networks, loopback
by default) and that did not come through a proxy: a request carrying X-Forwarded-For
is refused, as daphne (`--proxy-headers`) would take its address from that header.
"""

from __future__ import annotations

import ipaddress
import time

from asgiref.sync import iscoroutinefunction
from django.conf import settings
from django.db.backends.signals import connection_created
from django.utils.decorators import sync_and_async_middleware
from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.core import GaugeMetricFamily

from games import tasks
from games.metrics import MOVE_BUCKETS

# --- WebSockets ----------------------------------------------------------------------

#: A socket's kind by the first part of its path after /ws/ (each routing module's).
SOCKET_KINDS = {
    "tables": "table",
    "board": "board",
    "events": "event",
    "nights": "arrivals",
    "report": "report",
}

sockets_open = Gauge("fairway_sockets_open", "WebSockets open on this worker.", ["kind"])
frames_sent = Counter("fairway_frames_sent", "WebSocket frames this worker sent.", ["kind"])
#: Children bound once per kind (and "other"), so a frame costs no label lookup.
_SOCKETS = {kind: sockets_open.labels(kind) for kind in [*SOCKET_KINDS.values(), "other"]}
_FRAMES = {kind: frames_sent.labels(kind) for kind in [*SOCKET_KINDS.values(), "other"]}


def socket_kind(path: str) -> str:
    """The kind of the socket at `path` ("other" for any path not routed to one)."""
    parts = path.split("/", 3)
    if len(parts) > 2 and parts[1] == "ws":
        return SOCKET_KINDS.get(parts[2], "other")
    return "other"


def count_sockets(app):
    """The WebSocket ASGI `app`, its connections counted open from their acceptance to
    their end and each frame sent counted, by kind."""

    async def counted(scope, receive, send):
        if scope["type"] != "websocket":
            return await app(scope, receive, send)
        kind = socket_kind(scope.get("path", ""))
        gauge, frames = _SOCKETS[kind], _FRAMES[kind]
        accepted = False

        async def counting_send(message):
            nonlocal accepted
            what = message["type"]
            if what == "websocket.send":
                frames.inc()
            elif what == "websocket.accept" and not accepted:
                accepted = True
                gauge.inc()
            await send(message)

        try:
            return await app(scope, receive, counting_send)
        finally:
            if accepted:
                gauge.dec()

    return counted


# --- Django's requests and queries ---------------------------------------------------

REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}

requests = Counter("django_http_requests", "HTTP requests Django answered.", ["method", "status"])
request_seconds = Histogram(
    "django_http_request_seconds",
    "Time Django took to answer a request, its middleware included.",
    ["method"],
    buckets=REQUEST_BUCKETS,
)


def _observe(request, status: int, started: float) -> None:
    method = request.method if request.method in METHODS else "other"
    requests.labels(method, str(status)).inc()
    request_seconds.labels(method).observe(time.perf_counter() - started)


@sync_and_async_middleware
def request_metrics(get_response):
    """Count each request Django answers (the first middleware: it times the rest)."""
    if iscoroutinefunction(get_response):

        async def middleware(request):
            started = time.perf_counter()
            response = await get_response(request)
            _observe(request, response.status_code, started)
            return response

    else:

        def middleware(request):
            started = time.perf_counter()
            response = get_response(request)
            _observe(request, response.status_code, started)
            return response

    return middleware


queries = Counter("django_db_queries", "Database queries Django ran.", ["alias"])
query_errors = Counter("django_db_query_errors", "Database queries that failed.", ["alias"])
query_seconds = Histogram(
    "django_db_query_seconds", "Time a database query took.", ["alias"], buckets=MOVE_BUCKETS
)
connections_opened = Counter(
    "django_db_connections_opened",
    "Database connections Django opened (or took from its pool).",
    ["alias"],
)


class _QueryTimer:
    """An execute wrapper (Django's documented hook) that counts and times a
    connection's queries."""

    def __init__(self, alias: str) -> None:
        self.count = queries.labels(alias)
        self.errors = query_errors.labels(alias)
        self.seconds = query_seconds.labels(alias)

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        except Exception:
            self.errors.inc()
            raise
        finally:
            self.count.inc()
            self.seconds.observe(time.perf_counter() - started)


def _instrument(sender, connection, **kwargs) -> None:
    connections_opened.labels(connection.alias).inc()
    if not any(isinstance(w, _QueryTimer) for w in connection.execute_wrappers):
        connection.execute_wrappers.insert(0, _QueryTimer(connection.alias))


def instrument_database() -> None:
    """Count and time the queries of every database connection opened from now on."""
    connection_created.connect(_instrument, dispatch_uid="fairway_metrics")


# --- the task queue ------------------------------------------------------------------


def queue_backlog() -> tuple[int, float]:
    """The work waiting off the request path: how many tasks wait or run, and the seconds
    the oldest has waited. Site-wide (every worker reports the same figure: take the
    max, not the sum); called off the event loop (`config.ops`), as it asks the database."""
    return tasks.backlog()


class QueueCollector:
    """The task queue's figures, read when Prometheus scrapes."""

    def describe(self):
        return []

    def collect(self):
        depth, oldest = queue_backlog()
        yield GaugeMetricFamily(
            "fairway_task_queue_depth", "Tasks waiting or running.", value=depth
        )
        yield GaugeMetricFamily(
            "fairway_task_queue_oldest_seconds",
            "Seconds the oldest task waiting or running has waited (0: none).",
            value=oldest,
        )


REGISTRY.register(QueueCollector())


# --- who may read them ----------------------------------------------------------------


def may_read(scope) -> bool:
    """Whether the client of the ASGI `scope` may read the metrics: its address is in
    METRICS_ALLOW and it did not come through a proxy."""
    if any(name == b"x-forwarded-for" for name, _ in scope.get("headers", ())):
        return False
    client = scope.get("client")
    if not client:
        return False
    try:
        address = ipaddress.ip_address(client[0])
    except ValueError:
        return False
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in settings.METRICS_ALLOW)

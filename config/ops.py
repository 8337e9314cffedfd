"""The operator's endpoints, answered in front of Django on each worker's own port:

- `/healthz`: the process answers (its event loop runs);
- `/readyz`: the worker can serve (`config.health`): 200, or 503 naming the checks
  that failed;
- `/metrics`: the worker's figures in Prometheus's text format (`config.metrics`), for
  the addresses METRICS_ALLOW names; 403 for any other.

They sit before Django's middleware, so that a load balancer's or Prometheus's call
reaches them over plain HTTP by any address of the worker: no redirect to https
(SECURE_SSL_REDIRECT), no host check (ALLOWED_HOSTS), no session, no CSRF, no
log-in limits, no Content-Security-Policy, and no query for `/healthz`. Their bodies say
a status and nothing else: no version, no host, no error text.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from config import health, metrics

JSON = b"application/json"
#: The thread that writes the metrics' page.
SCRAPES = ThreadPoolExecutor(max_workers=1, thread_name_prefix="metrics")
NO_STORE = [(b"cache-control", b"no-store")]


async def _respond(send, status: int, body: bytes, content_type: bytes, head: bool) -> None:
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        *NO_STORE,
    ]
    if status == 405:
        headers.append((b"allow", b"GET, HEAD"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})


def _json(status: str, **more) -> bytes:
    return json.dumps({"status": status, **more}).encode()


async def healthz(scope) -> tuple[int, bytes, bytes]:
    return 200, _json("ok"), JSON


async def readyz(scope) -> tuple[int, bytes, bytes]:
    checks = await health.readiness()
    failing = [name for name, passed in checks.items() if not passed]
    if failing:
        return 503, _json("not ready", failing=failing), JSON
    return 200, _json("ready"), JSON


async def metrics_page(scope) -> tuple[int, bytes, bytes]:
    if not metrics.may_read(scope):
        return 403, _json("forbidden"), JSON
    # Collectors may read the database (the task queue): off the event loop, on a thread
    # of their own, so that a database the readiness checks wait for holds no scrape.
    body = await health.off_the_loop(generate_latest, REGISTRY, thread=SCRAPES)
    return 200, body, CONTENT_TYPE_LATEST.encode()


ENDPOINTS = {"/healthz": healthz, "/readyz": readyz, "/metrics": metrics_page}


def operator_endpoints(app):
    """The HTTP ASGI `app` (Django) with the operator's endpoints answered before it."""

    async def answered(scope, receive, send):
        endpoint = ENDPOINTS.get(scope.get("path")) if scope["type"] == "http" else None
        if endpoint is None:
            return await app(scope, receive, send)
        method = scope.get("method")
        if method not in ("GET", "HEAD"):
            return await _respond(send, 405, _json("method not allowed"), JSON, False)
        status, body, content_type = await endpoint(scope)
        await _respond(send, status, body, content_type, method == "HEAD")

    return answered

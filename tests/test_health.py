"""The operator's health endpoints: /healthz answers while the process runs, /readyz
only while the database answers with every migration applied and the channel layer
carries a message to this process and back; both over plain HTTP by any address of
the worker, and saying nothing but a status."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from config.asgi import application
from tests.conftest import DaphneServer

#: A Redis nothing listens on: the channel layer cannot reach it.
UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


async def get(path: str, method: str = "GET", headers=()) -> tuple[int, dict, bytes]:
    communicator = HttpCommunicator(application, method, path, headers=list(headers))
    response = await communicator.get_response(timeout=10)
    return response["status"], dict(response["headers"]), response["body"]


async def test_healthz_answers_without_the_database_the_host_check_or_a_redirect(settings):
    settings.DEBUG = False
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["fairway.example.org"]
    # No database access is allowed in this test: a query would fail it.
    status, headers, body = await get("/healthz", headers=[(b"host", b"10.0.0.7:8001")])
    assert status == 200
    assert json.loads(body) == {"status": "ok"}
    assert headers[b"cache-control"] == b"no-store"
    assert b"set-cookie" not in headers


async def test_health_endpoints_take_get_and_head_only():
    status, headers, body = await get("/healthz", method="HEAD")
    assert (status, body) == (200, b"")
    status, headers, _ = await get("/healthz", method="POST")
    assert status == 405
    assert headers[b"allow"] == b"GET, HEAD"


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
async def test_readyz_is_ready_when_the_database_migrations_and_channel_layer_answer():
    status, _, body = await get("/readyz")
    assert (status, json.loads(body)) == (200, {"status": "ready"})


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
async def test_readyz_leaves_no_channel_of_its_own_behind():
    """Each check ends the channel it made (on Redis, its subscription): a load
    balancer asking every few seconds must not grow the worker's memory."""
    for _ in range(3):
        status, _, _ = await get("/readyz")
        assert status == 200
    layer = get_channel_layer()
    # The pub/sub layer keeps its channels per event loop; the in-memory one, itself.
    channels = layer._get_layer().channels if hasattr(layer, "_get_layer") else layer.channels
    assert not [name for name in channels if "readyz." in name]


def _unapply_last(app_label: str) -> tuple[str, str]:
    recorder = MigrationRecorder(connection)
    key = max(k for k in recorder.applied_migrations() if k[0] == app_label)
    recorder.record_unapplied(*key)
    return key


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
async def test_readyz_is_not_ready_with_a_migration_unapplied():
    from channels.db import database_sync_to_async

    key = await database_sync_to_async(_unapply_last)("games")
    try:
        status, _, body = await get("/readyz")
    finally:
        await database_sync_to_async(MigrationRecorder(connection).record_applied)(*key)
    assert (status, json.loads(body)) == (503, {"status": "not ready", "failing": ["migrations"]})
    status, _, _ = await get("/readyz")
    assert status == 200


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
async def test_readyz_is_not_ready_when_the_channel_layer_cannot_reach_redis(settings):
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.seams.PubSubChannelLayer",
            "CONFIG": {"hosts": [UNREACHABLE_REDIS], "prefix": "readyz-test"},
        }
    }
    settings.FAIRWAY_READY_TIMEOUT = 1.0
    status, _, body = await get("/readyz")
    assert status == 503
    # Nothing but the failing check's name: no host, no error text.
    assert json.loads(body) == {"status": "not ready", "failing": ["channel_layer"]}


@pytest.mark.both_databases
def test_a_production_worker_answers_health_checks_over_plain_http(transactional_db):
    """A worker with https enforced, reached by an address that is not the site's host
    name, as a load balancer reaches it: the checks answer, the pages redirect."""
    server = DaphneServer(
        extra_env={
            "DEBUG": "false",
            "SECRET_KEY": "health-test-" + "k" * 50,
            "ALLOWED_HOSTS": "fairway.example.org",
            "SECURE_SSL_REDIRECT": "true",
        }
    ).start()
    try:
        for path, expected in (("/healthz", "ok"), ("/readyz", "ready")):
            with urllib.request.urlopen(server.url + path, timeout=10) as response:
                assert response.status == 200
                assert json.loads(response.read()) == {"status": expected}
        request = urllib.request.Request(server.url + "/", headers={"Host": "fairway.example.org"})
        opener = urllib.request.build_opener(_NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as redirect:
            opener.open(request, timeout=10)
        assert redirect.value.code == 301
        assert redirect.value.headers["Location"].startswith("https://")
    finally:
        server.stop()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

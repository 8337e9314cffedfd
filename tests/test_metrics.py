"""The worker's metrics: who may read them, Django's requests and queries counted, the
task queue and the reviews, and a real worker serving them to its own host only."""

from __future__ import annotations

import ipaddress
import urllib.error
import urllib.request
from datetime import timedelta

import pytest
from channels.testing import HttpCommunicator
from django.db import connection
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from config import metrics
from config.asgi import application
from games import lobby, reviews
from games.models import Move, Seat
from tests import driving
from tests.conftest import DaphneServer
from tests.factories import make_player


def figure(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def scope(address: str, *headers: tuple[bytes, bytes]) -> dict:
    return {"type": "http", "client": (address, 40000), "headers": list(headers)}


def test_metrics_answer_loopback_only_by_default(settings):
    assert metrics.may_read(scope("127.0.0.1"))
    assert metrics.may_read(scope("::1"))
    assert metrics.may_read(scope("::ffff:127.0.0.1"))
    assert not metrics.may_read(scope("10.1.2.3"))
    assert not metrics.may_read(scope("203.0.113.9"))
    assert not metrics.may_read({"type": "http", "headers": []})


def test_metrics_answer_the_networks_the_operator_allows(settings):
    settings.METRICS_ALLOW = [ipaddress.ip_network("10.0.0.0/8")]
    assert metrics.may_read(scope("10.1.2.3"))
    assert not metrics.may_read(scope("127.0.0.1"))
    assert not metrics.may_read(scope("192.168.1.1"))


def test_metrics_refuse_whatever_came_through_a_proxy():
    """daphne takes a proxied request's address from X-Forwarded-For, which anyone can
    write: such a request is refused, whatever address it names."""
    assert not metrics.may_read(scope("127.0.0.1", (b"x-forwarded-for", b"127.0.0.1")))


async def test_the_endpoint_refuses_an_address_outside_the_list():
    communicator = HttpCommunicator(application, "GET", "/metrics")
    communicator.scope["client"] = ("198.51.100.7", 50000)
    response = await communicator.get_response(timeout=10)
    assert response["status"] == 403
    assert b"fairway" not in response["body"]


@pytest.mark.django_db(transaction=True)
def test_a_request_and_its_queries_are_counted(client):
    metrics.instrument_database()
    connection.close()  # the next query opens a connection, which is instrumented
    requests = figure("django_http_requests_total", method="GET", status="200")
    timed = figure("django_http_request_seconds_count", method="GET")
    queries = figure("django_db_queries_total", alias="default")
    assert client.get("/rules/").status_code == 200
    make_player()
    assert figure("django_http_requests_total", method="GET", status="200") == requests + 1
    assert figure("django_http_request_seconds_count", method="GET") == timed + 1
    assert figure("django_db_queries_total", alias="default") > queries


def test_socket_kinds_come_from_the_routes():
    assert metrics.socket_kind("/ws/tables/12/") == "table"
    assert metrics.socket_kind("/ws/board/abc/") == "board"
    assert metrics.socket_kind("/ws/events/3/") == "event"
    assert metrics.socket_kind("/ws/nights/4/arrivals/") == "arrivals"
    assert metrics.socket_kind("/ws/report/K7P2QX/") == "report"
    assert metrics.socket_kind("/ws/anything-else/") == "other"
    assert metrics.socket_kind("/tables/12/") == "other"


@pytest.mark.django_db
def test_the_queue_figures_are_the_tasks_waiting_or_running(settings):
    """Two tasks queued, the older 30 s ago: depth 2, oldest 30 s; one of them running
    still counts; once both are done the queue is empty."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    assert figure("fairway_task_queue_depth") == 0
    assert figure("fairway_task_queue_oldest_seconds") == 0
    older = reviews.review_seats.enqueue(0, [0])
    reviews.review_seats.enqueue(0, [1])
    DBTaskResult.objects.filter(pk=older.id).update(
        enqueued_at=timezone.now() - timedelta(seconds=30), status=TaskResultStatus.RUNNING
    )
    assert figure("fairway_task_queue_depth") == 2
    assert 30 <= figure("fairway_task_queue_oldest_seconds") < 35
    DBTaskResult.objects.update(status=TaskResultStatus.SUCCESSFUL)
    assert figure("fairway_task_queue_depth") == 0
    assert figure("fairway_task_queue_oldest_seconds") == 0


@pytest.mark.django_db
def test_a_review_worked_out_is_counted_once():
    host = make_player()
    table = lobby.create_table(
        host=host, variant="golf-4", seat_count=3, bots={0: "greedy", 1: "greedy", 2: "greedy"}
    )
    lobby.start_match(table=table, by=host)
    driving.play_out(table_id=table.pk)
    Seat.objects.filter(table=table, position=0).update(player=make_player())
    Move.objects.filter(hole__table=table, seat=0).update(by_bot=False)
    hole = table.holes.get(number=1)
    before = figure("fairway_reviews_worked_out_total")
    reviews.review_hole(hole=hole, position=0, samples=1)
    reviews.review_hole(hole=hole, position=0, samples=1)  # stored already: not again
    assert figure("fairway_reviews_worked_out_total") == before + 1


@pytest.mark.both_databases
def test_a_worker_serves_its_metrics_to_its_own_host_and_no_one_else(transactional_db):
    server = DaphneServer().start()
    try:
        with urllib.request.urlopen(server.url + "/metrics", timeout=10) as response:
            assert response.status == 200
            text = response.read().decode()
        names = {family.name for family in text_string_to_metric_families(text)}
        for name in (
            "fairway_sockets_open",
            "fairway_frames_sent",
            "fairway_moves",
            "fairway_move_seconds",
            "fairway_task_queue_depth",
            "fairway_task_queue_oldest_seconds",
            "fairway_reviews_worked_out",
            "django_http_requests",
            "django_db_queries",
        ):
            assert name in names, name
        proxied = urllib.request.Request(
            server.url + "/metrics", headers={"X-Forwarded-For": "127.0.0.1"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(proxied, timeout=10)
        assert refused.value.code == 403
    finally:
        server.stop()
    narrow = DaphneServer(extra_env={"METRICS_ALLOW": "192.0.2.0/24"}).start()
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(narrow.url + "/metrics", timeout=10)
        assert refused.value.code == 403
    finally:
        narrow.stop()

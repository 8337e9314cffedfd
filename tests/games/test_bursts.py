"""Bursts of requests: every one is answered, none with a 500, on either database.

Served by a real daphne process; on SQLite a file-based database, as `make run` serves
it (an in-memory one would hide how SQLite's locks behave).
"""

from __future__ import annotations

import re
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.test import Client

from games.models import Table
from tests.factories import make_player

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 12


def signed_in(server, user) -> tuple[str, str]:
    """`user`'s cookies for `server` (session and CSRF) and the lobby form's token."""
    client = Client()
    client.force_login(user)
    session = f"sessionid={client.cookies['sessionid'].value}"
    request = urllib.request.Request(server.url + "/play/", headers={"Cookie": session})
    with urllib.request.urlopen(request, timeout=30) as response:
        page = response.read().decode()
        csrf = re.search(r"csrftoken=([^;]+)", response.headers["Set-Cookie"]).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return f"{session}; csrftoken={csrf}", token


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def burst(server, user, path: str, fields: dict) -> list[int]:
    """`BURST` posts at once to `path`; the status of each answer (redirects not
    followed)."""
    cookies, token = signed_in(server, user)
    opener = urllib.request.build_opener(NoRedirect())
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()

    def post(_: int) -> int:
        request = urllib.request.Request(
            server.url + path,
            data=data,
            headers={"Referer": server.url + "/play/", "Cookie": cookies},
        )
        try:
            return opener.open(request, timeout=60).status
        except urllib.error.HTTPError as error:
            return error.code

    with ThreadPoolExecutor(BURST) as pool:
        return list(pool.map(post, range(BURST)))


NEW_TABLE = {
    "variant": "play-nine",
    "seat_count": "2",
    "seat_1": "greedy",
    "is_public": "1",
    "turn_timer": "0",
}


def test_a_burst_of_new_tables_gets_answers_and_the_host_limit(daphne_server):
    ana = make_player("ana")
    statuses = burst(daphne_server, ana, "/play/new/", NEW_TABLE)
    assert 500 not in statuses, statuses
    limit = settings.FAIRWAY_MAX_HOSTED_TABLES
    assert Table.objects.filter(host=ana).count() == limit
    assert sorted(statuses) == [302] * limit + [400] * (BURST - limit)


def test_a_burst_of_play_now_gets_answers_and_the_host_limit(daphne_server):
    ben = make_player("ben")
    statuses = burst(daphne_server, ben, "/play/now/", {})
    assert 500 not in statuses, statuses
    assert Table.objects.filter(host=ben).count() == settings.FAIRWAY_MAX_HOSTED_TABLES
    assert set(statuses) == {302}

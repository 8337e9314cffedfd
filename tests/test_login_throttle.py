"""Log-in lockouts: per username and per address, in the database every process shares."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from daphne.utils import parse_x_forwarded_for
from django.urls import reverse

from leagues.accounts.logins import lockout_message
from tests.factories import PASSWORD, make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

WRONG = "not-the-password"
REFUSED = "correct username and password"


def log_in(client, username: str, password: str, address: str = "10.0.0.1", url: str = ""):
    data = {"username": username, "password": password}
    return client.post(url or reverse("login"), data, REMOTE_ADDR=address)


def through_proxy(client, forwarded_for: str, username: str, password: str):
    """A log-in as daphne run with --proxy-headers (deploy/serve.sh) hands it to Django,
    behind a proxy on this machine that passes X-Forwarded-For on."""
    headers = {b"x-forwarded-for": [forwarded_for.encode()]}
    (address, _port), _scheme = parse_x_forwarded_for(headers, original_addr=["127.0.0.1", 0])
    data = {"username": username, "password": password}
    return client.post(
        reverse("login"), data, REMOTE_ADDR=address, HTTP_X_FORWARDED_FOR=forwarded_for
    )


def assert_locked_out(response, client) -> None:
    assert response.status_code == 429
    assert lockout_message() in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_five_failures_refuse_even_the_right_password_with_a_clear_message(client):
    make_player("ana")
    for _ in range(4):
        assert REFUSED in log_in(client, "ana", WRONG).content.decode()
    # Below the limit the right password still works.
    assert log_in(client, "ana", PASSWORD).status_code == 302
    client.logout()
    assert_locked_out(log_in(client, "ana", WRONG), client)
    # From anywhere, with the right password.
    assert_locked_out(log_in(client, "ana", PASSWORD, address="10.0.0.2"), client)
    assert lockout_message() == "Too many failed log-in attempts. Try again in 15 minutes."
    # Another player is not locked out by Ana's failures.
    make_player("ben")
    assert log_in(client, "ben", PASSWORD, address="10.0.0.2").status_code == 302


@pytest.mark.parametrize(
    ("account", "failing", "then"),
    [
        ("victim", "victim", "\uff56ictim"),  # a fullwidth v: NFKC reads it as "v"
        ("victim", "\uff56\uff49\uff43\uff54\uff49\uff4d", "victim"),
        ("fiona", "fiona", "\ufb01ona"),  # the "fi" ligature
    ],
)
def test_another_spelling_of_a_locked_username_is_locked_too(client, account, failing, then):
    make_player(account)
    # Django's log-in reads every spelling as the account's name.
    assert log_in(client, then, PASSWORD, address="10.0.0.3").status_code == 302
    client.logout()
    for _ in range(5):
        log_in(client, failing, WRONG)
    assert_locked_out(log_in(client, then, PASSWORD, address="10.0.0.2"), client)


def test_failures_from_one_address_across_usernames_are_refused(client, settings):
    make_player("ana")
    for n in range(settings.LOGIN_FAILURES_PER_ADDRESS - 1):
        assert REFUSED in log_in(client, f"guess{n}", WRONG).content.decode()
    assert_locked_out(log_in(client, "guess-last", WRONG), client)
    assert_locked_out(log_in(client, "ana", PASSWORD), client)
    assert log_in(client, "ana", PASSWORD, address="10.0.0.9").status_code == 302


def test_behind_the_proxy_a_forged_forwarded_address_resets_nothing(client, settings):
    settings.BEHIND_PROXY = True
    make_player("ana")
    # The client sends its own X-Forwarded-For; a proxy that appends (nginx's
    # $proxy_add_x_forwarded_for) puts the address it saw last.
    for n in range(settings.LOGIN_FAILURES_PER_ADDRESS):
        through_proxy(client, "203.0.113.7, 127.0.0.1", f"guess{n}", WRONG)
    assert_locked_out(through_proxy(client, "203.0.113.8, 127.0.0.1", "ana", PASSWORD), client)
    assert_locked_out(through_proxy(client, "127.0.0.1", "ana", PASSWORD), client)
    # A proxy that overwrites the header (deploy/nginx.conf) names another client.
    assert through_proxy(client, "198.51.100.4", "ana", PASSWORD).status_code == 302


def test_without_the_proxy_the_forwarded_header_is_ignored(client, settings):
    settings.BEHIND_PROXY = False
    make_player("ana")
    for n in range(settings.LOGIN_FAILURES_PER_ADDRESS):
        client.post(
            reverse("login"),
            {"username": f"guess{n}", "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
    response = client.post(
        reverse("login"),
        {"username": "ana", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.4",
    )
    assert_locked_out(response, client)


@pytest.mark.parametrize("forwarded_for", ["nonsense", "", "10.0.0.300", "1.2.3.4, "])
def test_a_forwarded_header_that_is_no_address_counts_the_connection_s(
    client, settings, forwarded_for
):
    settings.BEHIND_PROXY = True
    make_player("ana")
    for _ in range(5):
        response = client.post(
            reverse("login"),
            {"username": "ana", "password": WRONG},
            REMOTE_ADDR="10.0.0.1",
            HTTP_X_FORWARDED_FOR=forwarded_for,
        )
        assert response.status_code in {200, 429}
    assert_locked_out(log_in(client, "ana", PASSWORD), client)


def test_the_admin_log_in_is_refused_too(client):
    make_player("boss", is_staff=True, is_superuser=True)
    url = reverse("admin:login")
    for _ in range(4):
        assert log_in(client, "boss", WRONG, url=url).status_code == 200
    assert_locked_out(log_in(client, "boss", WRONG, url=url), client)
    assert_locked_out(log_in(client, "boss", PASSWORD, url=url), client)
    # The site's log-in counts the same failures.
    assert_locked_out(log_in(client, "boss", PASSWORD), client)


@pytest.mark.django_db(transaction=True)
def test_a_lockout_counted_by_one_process_holds_in_another(daphne_server, client):
    """Failures made here lock the account on a separate daphne process."""
    make_player("ana")
    for _ in range(5):
        log_in(client, "ana", WRONG)

    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = daphne_server.url + "/accounts/login/"
    page = opener.open(url, timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": "ana", "password": PASSWORD}
    ).encode()
    request = urllib.request.Request(url, data=data, headers={"Referer": url})
    with pytest.raises(urllib.error.HTTPError) as refused:
        opener.open(request, timeout=30)
    assert refused.value.code == 429
    assert lockout_message() in refused.value.read().decode()


def test_the_example_proxy_writes_the_address_it_saw_and_the_workers_read_it():
    root = Path(__file__).resolve().parent.parent
    nginx = root.joinpath("deploy", "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx
    assert "$proxy_add_x_forwarded_for" not in nginx
    assert (
        "export BEHIND_PROXY=${BEHIND_PROXY:-true}"
        in root.joinpath("deploy", "serve.sh").read_text()
    )

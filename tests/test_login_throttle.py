"""Log-in attempts are throttled per username and per address, in the shared cache."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from leagues.forms import LOGIN_FAILURES_PER_ADDRESS, TOO_MANY_LOGINS
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clean_cache(settings):
    # Dozens of log-ins: a quick hasher keeps the test quick (the counting is the point).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def log_in(client, username: str, password: str, address: str = "10.0.0.1", url: str = ""):
    data = {"username": username, "password": password}
    return client.post(url or reverse("login"), data, REMOTE_ADDR=address)


def test_five_failures_refuse_even_the_right_password_with_a_clear_message(client):
    make_player("ana")
    for _ in range(4):
        response = log_in(client, "ana", "wrong")
        assert "correct username and password" in response.content.decode()
    # Below the limit the right password still works.
    assert log_in(client, "ana", PASSWORD).status_code == 302
    client.logout()
    for _ in range(5):
        log_in(client, "ana", "wrong")
    response = log_in(client, "ANA", PASSWORD, address="10.0.0.2")
    assert response.status_code == 200
    assert TOO_MANY_LOGINS in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another player is not locked out by Ana's failures.
    make_player("ben")
    assert log_in(client, "ben", PASSWORD, address="10.0.0.2").status_code == 302


def test_failures_from_one_address_across_usernames_are_throttled(client):
    make_player("ana")
    for n in range(LOGIN_FAILURES_PER_ADDRESS):
        log_in(client, f"guess{n}", "wrong")
    response = log_in(client, "ana", PASSWORD)
    assert TOO_MANY_LOGINS in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert log_in(client, "ana", PASSWORD, address="10.0.0.9").status_code == 302


def test_the_admin_log_in_is_throttled_too(client):
    make_player("boss", is_staff=True, is_superuser=True)
    url = reverse("admin:login")
    for _ in range(5):
        log_in(client, "boss", "wrong", url=url)
    response = log_in(client, "boss", PASSWORD, url=url)
    assert TOO_MANY_LOGINS in response.content.decode()
    assert "_auth_user_id" not in client.session

"""Usernames equal but for case or Unicode form name one account, on every database."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from leagues.models import Player
from leagues.usernames import username_key
from tests.factories import make_player

pytestmark = pytest.mark.django_db

PASSWORD = "a long enough password 42"


def sign_up(client, username: str):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ärger", "ärger"), ("ÄRGER", "ärger"), ("Straße", "STRASSE"), ("ﬁsh", "FISH"), ("Ω", "ω")],
)
def test_a_name_equal_but_for_case_or_form_is_taken(client, first, second):
    assert sign_up(client, first).status_code == 302
    client.logout()
    response = sign_up(client, second)
    assert response.status_code == 200
    assert "That username is taken" in response.content.decode()
    assert Player.objects.count() == 1


def test_the_database_holds_one_account_per_key():
    make_player("Ärger")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_player("ärger")


def test_an_organiser_adds_a_member_by_any_case_of_their_name(client):
    from tests.factories import make_club

    olive = make_player("olive")
    club = make_club(organiser=olive)
    member = make_player("Örjan")
    client.force_login(olive)
    client.post(
        reverse("leagues:member_add", args=[club.slug]), {"username": "örjan", "role": "player"}
    )
    assert club.members.filter(pk=member.pk).exists()


def test_a_key_follows_a_change_of_username():
    ana = make_player("Ana")
    ana.username = "Ånа"
    ana.save(update_fields=["username"])
    ana.refresh_from_db()
    assert ana.username_key == username_key("Ånа")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_accounts_that_clashed_signing_in(client):
    before = [("leagues", "0010_league_stand_in_level")]
    after = [("leagues", "0011_player_username_key")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    Old = executor.loader.project_state(before).apps.get_model("leagues", "Player")
    first = Old.objects.create(username="Ärger", password="x")
    second = Old.objects.create(username="ärger", password="x")
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    keys = dict(Player.objects.values_list("pk", "username_key"))
    assert keys == {first.pk: "ärger", second.pk: f"ärger#{second.pk}"}
    # Both go on: a save keeps the marked key, a log-in works.
    later = Player.objects.get(pk=second.pk)
    later.set_password(PASSWORD)
    later.save()
    response = client.post(reverse("login"), {"username": "ärger", "password": PASSWORD})
    assert response.status_code == 302


def test_the_admin_refuses_a_rename_to_a_name_taken_but_for_case(client):
    boss = make_player("boss", is_staff=True, is_superuser=True)
    make_player("Ärger")
    other = make_player("zed")
    client.force_login(boss)
    url = reverse("admin:leagues_player_change", args=[other.pk])
    page = client.get(url).content.decode()
    assert "zed" in page
    data = {
        "username": "ärger",
        "display_name": "",
        "email": "",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
        "is_active": "on",
        "email_reminders": "on",
        "email_results": "on",
    }
    response = client.post(url, data)
    assert "That username is taken" in response.content.decode()
    other.refresh_from_db()
    assert other.username == "zed"

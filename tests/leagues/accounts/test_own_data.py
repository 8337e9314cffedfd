"""A member's own data: what the site holds about them, downloaded as JSON and CSV; and
their account closed on their password, their results left under a neutral name."""

from __future__ import annotations

import csv
import io
import json
from datetime import date

import pytest
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from games.models import ChatMessage, Hole, HoleReview, Scorecard
from leagues.models import Invitation, Membership, Player
from leagues.standings.selectors import season_standings
from tests.factories import (
    PASSWORD,
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def history():
    olive = make_player("olive", display_name="Olive")
    ann = make_player("ann", display_name="Ann Example", email="ann@example.org")
    bea = make_player("bea", display_name="Bea")
    club = make_club("Fairway", organiser=olive, members=[ann, bea])
    season = make_season(make_league(club))
    night = make_night(season, date(2026, 3, 3))
    night_table = played_table(night, [ann, bea], even_holes(30, 40))
    return ann, bea, season, night_table


def test_the_json_download_holds_the_account_memberships_scorecards_and_ratings(client, history):
    ann, _, _, night_table = history
    client.force_login(ann)
    response = client.get(reverse("account_data_json"))
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["account"]["username"] == "ann" and data["account"]["email"] == "ann@example.org"
    assert data["memberships"] == [
        {"club": "Fairway", "role": "player", "joined_at": data["memberships"][0]["joined_at"]}
    ]
    (card,) = data["scorecards"]
    assert card["table"] == night_table.table_id and card["total"] == 30 and card["place"] == 1
    assert len(card["holes"]) == 9
    assert data["ratings"] and data["ratings"][0]["matches"] == 1
    assert data["reviews"] == []


def test_the_csv_download_has_the_same_and_nobody_elses(client, history):
    ann, _, _, _ = history
    client.force_login(ann)
    rows = list(csv.reader(io.StringIO(client.get(reverse("account_data_csv")).content.decode())))
    assert rows[0] == ["section", "record", "field", "value"]
    assert ["account", "1", "email", "ann@example.org"] in rows
    assert ["scorecards", "1", "total", "30"] in rows
    assert not any("Bea" in cell for row in rows for cell in row)


def test_a_review_of_ones_own_seat_is_in_the_download_and_no_one_elses(client, history):
    ann, _, _, night_table = history
    hole = Hole.objects.create(table=night_table.table, number=1, dealer=0, seat_positions=[0, 1])
    card = Scorecard.objects.get(player=ann)
    HoleReview.objects.create(hole=hole, position=card.position, given_away=1.5, samples=1)
    HoleReview.objects.create(hole=hole, position=1 - card.position, given_away=9.0, samples=1)
    client.force_login(ann)
    data = json.loads(client.get(reverse("account_data_json")).content)
    assert [r["strokes_given_away"] for r in data["reviews"]] == [1.5]


def test_the_downloads_need_a_log_in(client):
    for name in ("account_data_json", "account_data_csv", "account_close"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response.url


def test_closing_an_account_leaves_its_results_under_a_neutral_name_and_nothing_personal(
    client, history
):
    ann, bea, season, night_table = history
    ChatMessage.objects.create(table=night_table.table, author=ann, text="my phone is 555-0100")
    Invitation.objects.create(club=Membership.objects.get(player=ann).club, email="ANN@example.org")
    client.force_login(ann)
    session = client.session.session_key
    points_before = {row.player.pk: row.points for row in season_standings(season)}

    response = client.post(reverse("account_close"), {"password": PASSWORD})
    assert response.status_code == 302
    ann.refresh_from_db()
    former = f"Former member {ann.pk}"
    assert ann.name == former and ann.username == f"former-member-{ann.pk}"
    assert ann.email == "" and ann.first_name == "" and ann.last_name == ""
    assert not ann.is_active and not ann.has_usable_password()
    assert not ann.email_reminders and not ann.email_results and ann.calendar_token is None
    assert ann.turn_mail == "never"
    assert not Membership.objects.filter(player=ann).exists()
    assert not ChatMessage.objects.filter(author=ann).exists()
    assert not Invitation.objects.exists()
    assert Scorecard.objects.get(player=ann).name == former
    assert not Player.objects.filter(username="ann").exists()
    # The standings keep the results, under the neutral name.
    rows = {row.player.pk: row for row in season_standings(season)}
    assert rows[ann.pk].points == points_before[ann.pk] and rows[ann.pk].player.name == former
    assert rows[bea.pk].points == points_before[bea.pk]
    # The session ends: the next page asks for a log-in.
    assert not Session.objects.filter(session_key=session).exists()
    assert client.get(reverse("account")).status_code == 302


def test_every_other_session_of_a_closed_account_ends(client, history):
    ann, _, _, _ = history
    phone = Client()
    phone.force_login(ann)
    assert phone.get(reverse("account")).status_code == 200
    client.force_login(ann)
    client.post(reverse("account_close"), {"password": PASSWORD})
    assert phone.get(reverse("account")).status_code == 302


@pytest.mark.parametrize("password", ["", "wrong"])
def test_a_wrong_password_closes_nothing(client, history, password):
    ann, _, _, _ = history
    client.force_login(ann)
    page = client.post(reverse("account_close"), {"password": password})
    assert page.status_code == 400
    ann.refresh_from_db()
    assert ann.is_active and ann.username == "ann" and ann.email == "ann@example.org"


def test_the_last_organiser_of_a_club_names_another_first(client, history):
    olive = Player.objects.get(username="olive")
    client.force_login(olive)
    page = client.post(reverse("account_close"), {"password": PASSWORD})
    assert page.status_code == 400 and "last organiser of Fairway" in page.content.decode()
    olive.refresh_from_db()
    assert olive.is_active

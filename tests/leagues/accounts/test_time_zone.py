"""A player's time zone in their profile: chosen on the account page from the IANA
zones (their browser's offered while they chose none, nonsense refused), kept by each new
seat of theirs at a turn-based table over their browser's, so that the playing hours
follow it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.urls import reverse

from games import lobby, pace
from games.models import Table
from leagues.models import Player
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db

DAY = 86400
FORM = {"display_name": "Ana", "email": "ana@example.com", "turn_mail": "now"}


def test_the_account_page_offers_the_browsers_zone_while_none_is_chosen(client):
    ana = make_player("ana", display_name="Ana")
    client.force_login(ana)
    client.cookies["tz"] = "Asia/Tokyo"
    page = client.get(reverse("account")).content.decode()
    assert '<option value="Asia/Tokyo" selected>Asia/Tokyo</option>' in page
    assert '<option value="America/New_York">America/New York</option>' in page
    assert 'data-zone-for="id_time_zone"' in page
    # A zone chosen stands over the browser's.
    Player.objects.filter(pk=ana.pk).update(time_zone="Europe/Paris")
    page = client.get(reverse("account")).content.decode()
    assert '<option value="Europe/Paris" selected>' in page
    assert '<option value="Asia/Tokyo" selected>' not in page


def test_the_account_page_keeps_a_zone_refuses_nonsense_and_clears_it(client):
    ana = make_player("ana", display_name="Ana", time_zone="Europe/Paris")
    client.force_login(ana)
    for nonsense in ("Mars/Olympus_Mons", "europe/paris", "x" * 300):
        page = client.post(reverse("account"), {**FORM, "time_zone": nonsense})
        assert page.status_code == 400
        assert "is no time zone we know" in page.content.decode()
        assert Player.objects.get(pk=ana.pk).time_zone == "Europe/Paris"
    assert (
        client.post(reverse("account"), {**FORM, "time_zone": "America/New_York"}).status_code
        == 302
    )
    assert Player.objects.get(pk=ana.pk).time_zone == "America/New_York"
    # A form without the field (an older page) leaves the zone as it was.
    assert client.post(reverse("account"), FORM).status_code == 302
    assert Player.objects.get(pk=ana.pk).time_zone == "America/New_York"
    assert client.post(reverse("account"), {**FORM, "time_zone": ""}).status_code == 302
    ana.refresh_from_db()
    assert ana.time_zone == "" and ana.zone.key == "UTC"


def test_a_new_seat_keeps_the_profiles_zone_over_the_browsers(client):
    ana = make_player("ana", time_zone="America/New_York")
    client.force_login(ana)
    client.cookies["tz"] = "Asia/Tokyo"
    data = {"variant": "play-nine", "seat_count": "3", "is_public": "1", "turn_timer": "0"}
    client.post(
        reverse("games:new_table"), {**data, "move_time": str(DAY), "playing_hours": "9-21"}
    )
    table = Table.objects.get()
    assert table.clocks == {"0": {"zone": "America/New_York"}}
    # Ben chose none: his browser's holds. Cy chose one: hers, whatever her browser says.
    for name, chosen, position in (("ben", "", 1), ("cy", "Australia/Sydney", 2)):
        client.force_login(make_player(name, time_zone=chosen))
        client.post(reverse("games:join", args=[table.pk]), {"position": str(position)})
    table.refresh_from_db()
    assert [table.clocks[p]["zone"] for p in "012"] == [
        "America/New_York",
        "Asia/Tokyo",
        "Australia/Sydney",
    ]


def test_a_leagues_players_seats_keep_each_ones_profile_zone_and_the_hours_follow_it():
    ana = make_player("ana", time_zone="America/New_York")
    ben = make_player("ben", time_zone="Europe/Paris")
    table = lobby.create_table(
        host=None,
        variant="play-nine",
        seat_count=2,
        players=[ana, ben],
        move_time=3600,
        playing_hours=(9, 21),
        seats_assigned=True,
    )
    assert table.clocks == {"0": {"zone": "America/New_York"}, "1": {"zone": "Europe/Paris"}}
    # 21:30 in Paris is 15:30 in New York: Ben's move waits for his morning, Ana's does not.
    start = datetime(2026, 12, 8, 20, 30, tzinfo=UTC)
    assert pace.seat_deadline(table, 0, start) == datetime(2026, 12, 8, 21, 30, tzinfo=UTC)
    assert pace.seat_deadline(table, 1, start) == datetime(2026, 12, 9, 8, 0, tzinfo=UTC)


def test_the_zone_is_in_the_players_data_and_goes_with_a_closed_account(client):
    ana = make_player("ana", time_zone="Europe/Paris")
    client.force_login(ana)
    assert client.get(reverse("account_data_json")).json()["account"]["time_zone"] == "Europe/Paris"
    assert client.post(reverse("account_close"), {"password": PASSWORD}).status_code == 302
    assert Player.objects.get(pk=ana.pk).time_zone == ""

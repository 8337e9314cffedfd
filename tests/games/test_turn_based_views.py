"""The pages of turn-based play: a table set up from the lobby, a break asked for, the
"Your games" list and its count in the title, the home page's short list."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import lobby
from games.models import Table
from tests.driving import render_frame
from tests.factories import make_player

pytestmark = pytest.mark.django_db

DAY = 86400


def form(**fields) -> dict:
    return {
        "variant": "play-nine",
        "seat_count": "2",
        "is_public": "1",
        "turn_timer": "0",
        **fields,
    }


def test_the_lobby_sets_up_a_turn_based_table_in_the_hosts_time_zone(client):
    ana = make_player("ana")
    client.force_login(ana)
    client.cookies["tz"] = "Asia/Tokyo"
    data = form(move_time=str(DAY * 2), playing_hours="9-21", away_days="4")
    response = client.post(reverse("games:new_table"), data)
    table = Table.objects.get()
    assert response.status_code == 302
    assert (table.move_time, table.playing_from, table.playing_until, table.away_days) == (
        2 * DAY,
        9,
        21,
        4,
    )
    assert table.clocks == {"0": {"zone": "Asia/Tokyo"}}
    # A joining player's browser zone is kept too; one that is no zone is not.
    ben = make_player("ben")
    client.force_login(ben)
    client.cookies["tz"] = "Nowhere/Atlantis"
    client.post(reverse("games:join", args=[table.pk]), {"position": ""})
    table.refresh_from_db()
    assert table.seats.get(position=1).player == ben
    assert "1" not in table.clocks


def test_a_turn_based_table_with_a_turn_timer_is_refused_with_a_reason(client):
    client.force_login(make_player("ana"))
    response = client.post(reverse("games:new_table"), form(move_time=str(DAY), turn_timer="30"))
    assert response.status_code == 400 and b"has a time per move" in response.content
    assert not Table.objects.exists()


def started(move_time=DAY, **fields):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana,
        variant="play-nine",
        seat_count=2,
        players=[ana, ben],
        move_time=move_time,
        **fields,
    )
    return lobby.start_match(table=table, by=ana), ana, ben


def test_a_break_past_the_tables_limit_is_refused_with_a_clear_message(client):
    table, ana, ben = started(away_days=2)
    client.force_login(ben)
    deadline = table.turn_deadline
    response = client.post(reverse("games:take_break", args=[table.pk]), {"days": "3"}, follow=True)
    assert b"This table allows 2 days away in a match; you have 2 left" in response.content
    table.refresh_from_db()
    assert table.turn_deadline == deadline and table.clocks == {}
    response = client.post(reverse("games:take_break", args=[table.pk]), {"days": "2"}, follow=True)
    assert b"You are away until" in response.content
    table.refresh_from_db()
    assert table.turn_deadline >= timezone.now() + timedelta(days=3, minutes=-1)
    assert table.clocks["1"]["away_days"] == 2
    # A watcher has no clock to pause.
    client.force_login(make_player("cy"))
    response = client.post(reverse("games:take_break", args=[table.pk]), {"days": "1"}, follow=True)
    assert b"You have no seat at this table." in response.content


def test_your_games_count_those_waiting_for_you_in_the_title_and_on_the_home_page(client):
    table, ana, ben = started()
    live = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=live, by=ana)
    client.force_login(ana)
    page = client.get(reverse("games:your_games")).content.decode()
    assert "<title>(1) Your games" in page
    assert '<li class="your-turn">' in page and "<strong>your turn</strong>" in page
    assert f"table {live.pk}" not in page  # a live table is not a turn-based game
    home = client.get(reverse("home")).content.decode()
    assert "<title>(1) Welcome" in home and "1 waiting for you" in home


def test_a_turn_based_tables_frame_shows_the_deadline_as_a_time_not_a_countdown():
    table, ana, ben = started()
    frame = render_frame(table.pk, ana)
    assert 'id="turn-deadline"' in frame and "Move due by" in frame
    assert table.turn_deadline.strftime("%a %d %b, %H:%M") in frame
    assert "turn-timer" not in frame

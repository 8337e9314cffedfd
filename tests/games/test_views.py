"""The play pages: lobby, table, replay and rules, through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services, views
from games.models import Table
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_open_public_tables_and_hides_private_ones(client):
    ana = make_player(display_name="Ana")
    public = services.create_table(host=ana, variant="golf-6", seat_count=3, players=[ana])
    private = services.create_table(
        host=ana, variant="golf-6", seat_count=3, players=[ana], is_public=False
    )
    client.force_login(make_player())
    html = client.get(reverse("games:lobby_tables")).content.decode()
    assert f"Open table {public.pk}" in html and f"Open table {private.pk}" not in html
    assert "1 of 3 taken" in html
    # A private table opens only through its invite link.
    assert client.get(private.get_absolute_url()).status_code == 404
    client.get(reverse("games:invite", args=[private.invite_code]))
    assert client.get(private.get_absolute_url()).status_code == 200


def test_creating_a_table_from_the_lobby_seats_the_host_and_the_chosen_bots(client):
    ana = make_player()
    client.force_login(ana)
    data = {
        "variant": "play-nine",
        "seat_count": "3",
        "is_public": "1",
        "turn_timer": "60",
        "seat_1": "expert",
        "seat_2": "open",
    }
    response = client.post(reverse("games:new_table"), data)
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.turn_timer == 60
    assert [(s.player, s.bot_level) for s in table.seats.order_by("position")] == [
        (ana, ""),
        (None, "expert"),
        (None, ""),
    ]


def test_a_seat_count_outside_the_game_s_range_is_refused(client):
    client.force_login(make_player())
    data = {"variant": "golf-4", "seat_count": "2", "is_public": "1", "turn_timer": "0"}
    response = client.post(reverse("games:new_table"), data)
    assert response.status_code == 400 and b"3 to 7 players" in response.content
    assert not Table.objects.exists()


def test_the_table_page_shows_face_down_cards_only_as_face_down(client):
    ana = make_player()
    table = services.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    services.start_match(table=table, by=ana)
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    assert html.count('aria-label="face down"') == 12
    assert f'ws-connect="/ws/tables/{table.pk}/"' in html
    assert "Tee off" in html


def test_the_replay_steps_through_a_finished_hole_as_a_spectator_saw_it(client):
    host = make_player()
    table = services.create_table(
        host=host, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    services.start_match(table=table, by=host)
    services.play_out(table_id=table.pk)
    client.force_login(make_player())
    url = reverse("games:replay", args=[table.pk, 1])
    deal = client.get(url).content.decode()
    assert deal.count('aria-label="face down"') == 12  # nothing turned up at the deal
    assert "Move 0 of" in deal
    last = int(re.search(r"Move 0 of (\d+)", deal).group(1))
    end = client.get(url, {"move": last}).content.decode()
    assert 'aria-label="face down"' not in end  # the hole's end: all cards up
    middle = client.get(url, {"move": 1}).content.decode()
    assert "teed off" in middle


def test_the_rules_page_explains_every_game(client):
    html = client.get(reverse("games:rules")).content.decode()
    for key in ("play-nine", "golf-6", "golf-4", "golf-9", "golf-9-3deck"):
        assert f'id="{key}"' in html
    assert "Hole-in-One" in html and "knock" in html


def test_the_seats_of_one_version_share_one_read_and_a_new_version_is_read_again(
    django_assert_max_num_queries,
):
    ana, bea = make_player(), make_player()
    table = services.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, bea])
    services.start_match(table=table, by=ana)
    version = Table.objects.get(pk=table.pk).version
    views.render_frame(table.pk, ana, version=version)
    with django_assert_max_num_queries(0):
        html = views.render_frame(table.pk, bea, version=version)
    assert f'data-version="{version}"' in html
    _table, hole, state = current(table.pk)
    seat = next_actor(state)
    player = [ana, bea][hole.seat_positions[seat]]
    services.apply_move(
        table_id=table.pk, player=player, action=quick_action(state, seat), version=version
    )
    # Without the announced version the frame asks the database, and finds the move; the
    # seats and scorecard of the hole in play are not read again.
    with django_assert_max_num_queries(4):
        assert f'data-version="{version + 1}"' in views.render_frame(table.pk, ana)

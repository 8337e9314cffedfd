"""A table before and after its match (`games.lobby`): opened, joined, left, started,
rematched."""

from __future__ import annotations

import pytest

from games import lobby, selectors, services
from games.models import Scorecard, Table
from tests import driving
from tests.factories import make_player
from tests.games.helpers import two_player_table

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_create_table_fills_seats_in_order_and_places_bots():
    ana, ben = make_player(), make_player()
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=4, bots={1: "greedy"}, players=[ana, ben]
    )
    seats = list(table.seats.order_by("position"))
    assert [s.player for s in seats] == [ana, None, ben, None]
    assert [s.bot_level for s in seats] == ["", "greedy", "", ""]
    assert table.status == Table.Status.OPEN


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "chess", "seat_count": 2}, "games on offer"),
        ({"variant": "golf-4", "seat_count": 2}, "3 to 7 players"),
        ({"variant": "play-nine", "seat_count": 2, "bots": {5: "greedy"}}, "no seat 6"),
        ({"variant": "play-nine", "seat_count": 2, "bots": {1: "genius"}}, "levels"),
        ({"variant": "play-nine", "seat_count": 2, "turn_timer": 7}, "timer"),
    ],
)
def test_create_table_refuses_what_cannot_be_played(kwargs, message):
    with pytest.raises(services.GameError, match=message):
        lobby.create_table(host=make_player(), **kwargs)
    assert not Table.objects.exists()


def test_join_leave_and_start_follow_the_seats():
    ana, ben, cy = make_player(), make_player(), make_player()
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana])
    with pytest.raises(services.GameError, match="every seat"):
        lobby.start_match(table=table, by=ana)
    seat = lobby.join_table(table=table, player=ben)
    assert seat.position == 1
    with pytest.raises(services.GameError, match="full"):
        lobby.join_table(table=table, player=cy)
    with pytest.raises(services.GameError, match="already"):
        lobby.join_table(table=table, player=ben)
    with pytest.raises(services.GameError, match="host"):
        lobby.start_match(table=table, by=ben)
    lobby.leave_table(table=table, player=ben)
    lobby.join_table(table=table, player=cy, position=1)
    lobby.start_match(table=table, by=ana)
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING and table.started_at is not None
    assert table.holes.get().number == 1
    assert Scorecard.objects.filter(table=table).count() == 2
    with pytest.raises(services.GameError, match="started"):
        lobby.leave_table(table=table, player=cy)


def test_a_player_hosts_at_most_the_set_number_of_tables_open_or_in_play(settings):
    settings.FAIRWAY_MAX_HOSTED_TABLES = 3
    ana, ben = make_player(), make_player()
    waiting = lobby.create_table(host=ana, variant="golf-6", seat_count=2, players=[ana])
    lobby.quick_start(player=ana)
    bots_only = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=bots_only, by=ana)
    message = "You already have 3 tables open or in play. Finish one, or leave it, before"
    for attempt in (
        lambda: lobby.create_table(host=ana, variant="golf-6", seat_count=2, players=[ana]),
        lambda: lobby.quick_start(player=ana),
    ):
        with pytest.raises(services.GameError, match=message):
            attempt()
    assert Table.objects.count() == 3
    # Another player's limit is their own.
    lobby.quick_start(player=ben)

    # A finished match frees its place.
    driving.play_out(table_id=bots_only.pk)
    assert Table.objects.get(pk=bots_only.pk).status == Table.Status.FINISHED
    lobby.quick_start(player=ana)
    with pytest.raises(services.GameError, match=message):
        lobby.quick_start(player=ana)
    # So does a waiting table its host leaves empty: it closes.
    lobby.leave_table(table=waiting, player=ana)
    assert Table.objects.get(pk=waiting.pk).status == Table.Status.ABANDONED
    lobby.quick_start(player=ana)
    # A league's tables, seated by its organiser, are not the organiser's to play.
    lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, players=[ben, make_player()], seats_assigned=True
    )


def test_a_host_who_leaves_a_table_others_sit_at_keeps_it_open():
    ana, ben = make_player(), make_player()
    table = lobby.create_table(host=ana, variant="golf-6", seat_count=3, players=[ana, ben])
    lobby.leave_table(table=table, player=ana)
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN


def test_a_host_who_leaves_hands_the_table_to_the_next_person_seated_after_them():
    dan, ana, ben, cy = (make_player(name) for name in ("dan", "ana", "ben", "cy"))
    # Seats: Dan, Ana (the host), a bot, Ben; a free one.
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=5, players=[dan, ana, ben], bots={2: "greedy"}
    )
    lobby.leave_table(table=table, player=ana)
    table.refresh_from_db()
    # The bot after Ana's seat is passed over; Dan, before it, comes round last.
    assert (table.status, table.host_id) == (Table.Status.OPEN, ben.pk)
    lobby.join_table(table=table, player=cy)
    lobby.join_table(table=table, player=ana)
    for someone in (ana, dan):
        with pytest.raises(services.GameError, match="Only the host"):
            lobby.start_match(table=table, by=someone)
    lobby.start_match(table=table, by=ben)
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_the_table_goes_round_to_the_first_seat_and_closes_when_no_person_is_left():
    ana, ben = make_player(), make_player()
    table = lobby.create_table(
        host=ben, variant="golf-6", seat_count=3, players=[ana, ben], bots={2: "greedy"}
    )
    lobby.leave_table(table=table, player=ben)
    table.refresh_from_db()
    assert (table.status, table.host_id) == (Table.Status.OPEN, ana.pk)
    lobby.leave_table(table=table, player=ana)
    table.refresh_from_db()
    assert (table.status, table.host_id) == (Table.Status.ABANDONED, ana.pk)


def test_rematch_seats_the_same_players_at_a_new_table():
    host = make_player()
    table = lobby.create_table(
        host=host, variant="golf-6", seat_count=2, bots={1: "greedy"}, players=[host]
    )
    lobby.start_match(table=table, by=host)
    with pytest.raises(services.GameError, match="after the match"):
        lobby.rematch(table=table, by=host)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    table.refresh_from_db()
    new = lobby.rematch(table=table, by=host)
    assert new.rematch_of == table and new.status == Table.Status.PLAYING
    assert [(s.player, s.bot_level) for s in new.seats.order_by("position")] == [
        (host, ""),
        (None, "greedy"),
    ]
    assert lobby.rematch(table=table, by=host) == new


def test_a_rematch_seats_a_player_who_had_left_in_person_again():
    table, ana, ben = two_player_table()
    services.leave_match(table=table, player=ana)
    services.leave_match(table=table, player=ben)
    driving.play_out(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    new = lobby.rematch(table=table, by=ben)
    assert [(s.player, s.bot_level) for s in new.seats.order_by("position")] == [
        (ana, ""),
        (ben, ""),
    ]


def test_quick_start_deals_a_two_seat_play_nine_table_against_a_greedy_bot():
    ana = make_player()
    table = lobby.quick_start(player=ana)
    assert table.status == Table.Status.PLAYING and table.variant == "play-nine"
    assert [(s.player, s.bot_level) for s in table.seats.order_by("position")] == [
        (ana, ""),
        (None, "greedy"),
    ]
    assert table.holes.count() == 1


def test_a_quick_start_is_a_practice_game_no_one_is_offered_to_watch():
    ana = make_player()
    table = lobby.quick_start(player=ana)
    assert not table.is_public
    assert table not in selectors.watchable_tables()
    assert table in selectors.my_tables(ana)

"""The play pages: lobby, table, replay and rules, through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import idle, lobby, selectors, services
from games.models import Table
from tests import driving
from tests.factories import make_player
from tests.games.helpers import current, finish_hole, next_actor, quick_action

pytestmark = pytest.mark.django_db


def test_the_lobby_lists_open_public_tables_and_hides_private_ones(client):
    ana = make_player(display_name="Ana")
    public = lobby.create_table(host=ana, variant="golf-6", seat_count=3, players=[ana])
    private = lobby.create_table(
        host=ana, variant="golf-6", seat_count=3, players=[ana], is_public=False
    )
    client.force_login(make_player())
    html = client.get(reverse("games:lobby_tables")).content.decode()
    assert f"Open table {public.pk}" in html and f"Open table {private.pk}" not in html
    assert "1 of 3<" in html and "Ana<" in html  # seats taken, and the host
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
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    lobby.start_match(table=table, by=ana)
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    assert html.count('aria-label="face down"') == 12
    assert f'ws-connect="/ws/tables/{table.pk}/"' in html
    assert "Tee off" in html


def test_the_replay_steps_through_a_finished_hole_as_a_spectator_saw_it(client):
    host = make_player()
    table = lobby.create_table(
        host=host, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=table, by=host)
    driving.play_out(table_id=table.pk)
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
    # A move that is no number is refused with the reason, at the deal.
    for bad in ("²", "-1", "１", "x"):
        refused = client.get(url, {"move": bad})
        assert refused.status_code == 400, bad
        assert "Choose a move by its number" in refused.content.decode()


def test_the_rules_page_explains_every_game(client):
    html = client.get(reverse("games:rules")).content.decode()
    for key in ("play-nine", "golf-6", "golf-4", "golf-9", "golf-9-3deck"):
        assert f'id="{key}"' in html
    assert "Hole-in-One" in html and "knock" in html


def test_the_seats_of_one_version_share_one_read_and_a_new_version_is_read_again(
    django_assert_max_num_queries,
):
    ana, bea = make_player(), make_player()
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, bea])
    lobby.start_match(table=table, by=ana)
    version = Table.objects.get(pk=table.pk).version
    driving.render_frame(table.pk, ana, version=version)
    with django_assert_max_num_queries(0):
        html = driving.render_frame(table.pk, bea, version=version)
    assert f'data-version="{version}"' in html
    _table, hole, state = current(table.pk)
    seat = next_actor(state)
    player = [ana, bea][hole.seat_positions[seat]]
    services.apply_move(
        table_id=table.pk, player=player, action=quick_action(state, seat), version=version
    )
    # Without the announced version the frame asks the database, and finds the move; the
    # scorecard of the hole in play is not read again, only its totals checked.
    with django_assert_max_num_queries(6):
        assert f'data-version="{version + 1}"' in driving.render_frame(table.pk, ana)


def _seated_table(**extra) -> tuple[Table, object, object]:
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, players=[ana, ben], **extra
    )
    lobby.start_match(table=table, by=ana)
    return table, ana, ben


def test_the_player_a_leaving_host_hands_the_table_to_sees_they_host_it(client):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, players=[ana], is_public=False
    )
    lobby.join_table(table=table, player=ben)
    assert 'id="start-button"' not in driving.render_frame(table.pk, ben)
    client.force_login(ana)
    response = client.post(reverse("games:leave", args=[table.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = driving.render_frame(table.pk, ben)
    assert 'Ben <span class="chip">host</span>' in html
    assert 'id="start-button"' in html and "every seat is taken" in html
    # Ana, gone, may no longer see the private table she opened.
    assert client.get(table.get_absolute_url()).status_code == 404


def test_the_turn_timer_s_deadline_is_rendered_as_seconds_left(client):
    table, ana, _ = _seated_table(turn_timer=60)
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    seconds = int(re.search(r'class="countdown turn-timer" data-seconds="(\d+)"', html).group(1))
    assert 55 <= seconds <= 60
    assert f"{seconds} s left" in html and "js/table.js" in html
    # Without a timer nobody is hurried.
    plain = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={1: "greedy"}, players=[ana]
    )
    lobby.start_match(table=plain, by=ana)
    assert "s left" not in client.get(plain.get_absolute_url()).content.decode()


def test_the_end_of_a_hole_shows_each_seat_s_strokes_and_the_next_deal(client, settings):
    settings.FAIRWAY_HOLE_PAUSE = 4
    table, ana, ben = _seated_table()
    finish_hole(table.pk, {0: ana, 1: ben})
    hole = table.holes.get(number=1)
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    a, b = hole.scores[hole.seat_positions.index(0)], hole.scores[hole.seat_positions.index(1)]
    assert f"Hole 1 over: Ana {a}, Ben {b}." in html
    assert "Next hole in" in html and 'class="countdown" data-seconds="' in html
    assert "Deal next hole" in html
    assert 'aria-label="face down"' not in html  # every card is up


def test_the_final_results_show_places_the_winner_a_rematch_and_the_lobby(client):
    table, ana, ben = _seated_table()
    services.leave_match(table=table, player=ana)
    services.leave_match(table=table, player=ben)
    driving.play_out(table_id=table.pk)
    table.refresh_from_db()
    winner = table.scorecards.get(place=1)
    client.force_login(ben)
    html = client.get(table.get_absolute_url()).content.decode()
    assert "Final results" in html
    assert f"{winner.name}</strong> wins with {winner.total} strokes" in html
    assert f"Match over. {winner.name} wins" in html
    assert "Rematch" in html and "Back to the lobby" in html
    assert "Leave the match" not in html and "keeping your seat" not in html


def test_the_lobby_lists_a_player_s_finished_matches_with_their_result_and_house_rules(client):
    table, ana, ben = _seated_table()
    casual = lobby.create_table(
        host=ana, variant="golf-6", house_rules=["last-turns"], seat_count=2, players=[ana, ben]
    )
    lobby.start_match(table=casual, by=ana)
    for finished in (table, casual):
        services.leave_match(table=finished, player=ana)
        services.leave_match(table=finished, player=ben)
        driving.play_out(table_id=finished.pk)
    carl = make_player("carl", display_name="Carl")
    client.force_login(ben)
    html = client.get(reverse("games:lobby")).content.decode()
    recent = html.split('id="recent-matches-title"')[1].split("</section>")[0]
    for finished in (table, casual):
        card = finished.scorecards.get(player=ben)
        assert f"table {finished.pk}</a>" in recent
        strokes = "stroke" if card.total == 1 else "strokes"
        assert f"{card.total} {strokes}, place {card.place} of 2" in recent
        assert reverse("games:replay", args=[finished.pk, 1]) in recent
    # Newest first; only the casual match with house rules is marked.
    assert recent.index(f"table {casual.pk}") < recent.index(f"table {table.pk}")
    assert recent.count("casual, house rules") == 1
    client.force_login(carl)
    assert "Your recent matches" not in client.get(reverse("games:lobby")).content.decode()


def test_leaving_mid_match_and_taking_the_seat_back_from_the_page(client):
    table, ana, _ = _seated_table()
    client.force_login(ana)
    assert "Leave the match" in client.get(table.get_absolute_url()).content.decode()
    client.post(reverse("games:leave_match", args=[table.pk]))
    html = client.get(table.get_absolute_url()).content.decode()
    assert "(bot for Ana)" in html and "Take my seat back" in html
    client.post(reverse("games:return", args=[table.pk]))
    assert table.seats.get(player=ana).bot_level == ""
    assert "(bot for Ana)" not in client.get(table.get_absolute_url()).content.decode()


def test_play_now_deals_a_table_against_a_bot_in_one_click(client):
    ana = make_player()
    client.force_login(ana)
    assert "Play now against a bot" in client.get(reverse("home")).content.decode()
    response = client.post(reverse("games:quick_start"))
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    assert table.status == Table.Status.PLAYING
    assert client.get(reverse("games:quick_start")).status_code == 405


def test_the_home_page_lists_the_player_s_tables_in_progress(client):
    table, ana, _ = _seated_table()
    client.force_login(ana)
    html = client.get(reverse("home")).content.decode()
    assert f'href="{table.get_absolute_url()}"' in html and "in play" in html
    client.force_login(make_player())
    assert "No tables in play" in client.get(reverse("home")).content.decode()


def test_an_open_table_offers_its_invite_link_with_a_copy_button(client):
    ana = make_player()
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, players=[ana], is_public=False
    )
    client.force_login(ana)
    html = client.get(table.get_absolute_url()).content.decode()
    assert f"/play/invite/{table.invite_code}/" in html
    assert 'data-copy="invite-link"' in html and '<button type="button"' in html


def test_the_lobby_explains_an_empty_list_and_knows_each_game_s_seat_range(client):
    client.force_login(make_player())
    html = client.get(reverse("games:lobby")).content.decode()
    assert "No one is waiting for players right now." in html
    assert '"golf-4": [3, 7]' in html and "js/lobby.js" in html


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ("²", "Choose a seat by its number."),
        ("①", "Choose a seat by its number."),
        ("１", "Choose a seat by its number."),
        ("٣", "Choose a seat by its number."),
        ("-1", "Choose a seat by its number."),
        ("1.0", "Choose a seat by its number."),
        ("x", "Choose a seat by its number."),
        ("9", "There is no such seat at this table."),
    ],
)
def test_a_seat_that_is_not_one_of_the_table_s_is_refused_clearly_and_changes_nothing(
    client, position, message
):
    ana = make_player()
    table = lobby.create_table(host=ana, variant="golf-6", seat_count=3, players=[ana])
    before = table.version
    client.force_login(make_player())
    url = reverse("games:join", args=[table.pk])
    response = client.post(url, {"position": position}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and message in response.content.decode()
    # Without htmx the same sentence comes back with the table page.
    response = client.post(url, {"position": position}, follow=True)
    assert response.status_code == 200 and message in response.content.decode()
    table.refresh_from_db()
    assert table.version == before
    assert [s.player for s in table.seats.order_by("position")] == [ana, None, None]


def test_a_plain_seat_number_or_none_at_all_takes_a_seat(client):
    ana = make_player()
    table = lobby.create_table(host=ana, variant="golf-6", seat_count=3, players=[ana])
    ben, cy = make_player(), make_player()
    client.force_login(ben)
    client.post(reverse("games:join", args=[table.pk]), {"position": "2"})
    client.force_login(cy)
    client.post(reverse("games:join", args=[table.pk]))
    assert [s.player for s in table.seats.order_by("position")] == [ana, cy, ben]


def test_play_now_and_the_lobby_form_say_when_the_player_hosts_enough_tables(client, settings):
    settings.FAIRWAY_MAX_HOSTED_TABLES = 1
    ana = make_player()
    client.force_login(ana)
    first = client.post(reverse("games:quick_start"))
    assert first.status_code == 302
    message = "You already have 1 table open or in play. Finish one, or leave it"
    response = client.post(reverse("games:quick_start"), follow=True)
    assert response.status_code == 200 and message in response.content.decode()
    data = {"variant": "golf-6", "seat_count": "2", "is_public": "1", "turn_timer": "0"}
    response = client.post(reverse("games:new_table"), data)
    assert response.status_code == 400 and message in response.content.decode()
    assert Table.objects.count() == 1


def test_an_abandoned_match_says_so_and_offers_no_move(client, settings):
    settings.FAIRWAY_IDLE_HOURS = 1
    ana = make_player()
    table = lobby.quick_start(player=ana)
    Table.objects.filter(pk=table.pk).update(
        turn_started_at=table.turn_started_at.replace(year=2000)
    )
    assert idle.abandon_idle_tables() == [table.pk]
    client.force_login(ana)
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Match abandoned" in page
    assert 'ws-send><input type="hidden" name="type" value="tee_off"' not in page
    assert 'id="tee-off-button"' not in page and 'id="draw-pile"' not in page


def test_bots_go_by_short_golf_names_with_their_level_as_a_chip(client):
    """A bot's name fits a scorecard's row; how well it plays is a chip beside it."""
    ana = make_player(display_name="Ana")
    table = lobby.create_table(
        host=ana, variant="golf-4", seat_count=3, players=[ana], bots={1: "greedy", 2: "expert"}
    )
    client.force_login(ana)
    waiting = client.get(table.get_absolute_url()).content.decode()
    assert 'Bogey <span class="chip bot">greedy bot</span>' in waiting
    assert 'Eagle <span class="chip bot">expert bot</span>' in waiting
    lobby.start_match(table=table, by=ana)
    assert [card.name for card in table.scorecards.order_by("position")] == [
        "Ana",
        "Bogey",
        "Eagle",
    ]
    page = client.get(table.get_absolute_url()).content.decode()
    assert re.search(r'<span class="seat-name">Bogey</span><span class="chip bot">greedy bot', page)
    assert re.search(r'<span class="seat-name">Eagle</span><span class="chip bot">expert bot', page)
    assert "(greedy)" not in page and "(expert)" not in page


def test_the_host_of_a_quick_game_may_let_others_watch_it(client):
    ana, ben = make_player(), make_player()
    table = lobby.quick_start(player=ana)
    url = reverse("games:open_to_watchers", args=[table.pk])
    client.force_login(ben)
    assert client.post(url, HTTP_HX_REQUEST="true").status_code == 404  # private: not his
    client.force_login(ana)
    assert 'id="open-to-watchers-button"' in client.get(table.get_absolute_url()).content.decode()
    assert client.get(url).status_code == 405
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.is_public
    assert list(selectors.watchable_tables()) == [table]
    page = client.get(table.get_absolute_url()).content.decode()
    assert 'id="open-to-watchers-button"' not in page
    version = table.version
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert "Anyone can watch this table already." in response.content.decode()
    table.refresh_from_db()
    assert table.version == version
    client.force_login(ben)
    assert client.get(table.get_absolute_url()).status_code == 200
    response = client.post(url, HTTP_HX_REQUEST="true")
    assert "Only the host can open the table to watchers." in response.content.decode()


def test_a_league_table_is_never_opened_to_watchers():
    ana, ben = make_player(), make_player()
    table = lobby.create_table(
        host=ana,
        variant="play-nine",
        seat_count=2,
        players=[ana, ben],
        is_public=False,
        seats_assigned=True,
    )
    with pytest.raises(services.GameError, match="league night"):
        lobby.open_to_watchers(table=table, by=ana)
    table.refresh_from_db()
    assert not table.is_public and table.version == 0

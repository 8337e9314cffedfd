"""The count of turn-based tables waiting on a player, in every page's tab: the title's
"(N) " and the icon's badge (drawn by turn-count.js from the count the page carries),
read in one query whatever the player's history, and asked again at a small JSON
address that a visitor who is not signed in is refused."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import lobby, selectors, services
from games.models import Table
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

DAY = 86400


def turn_based(*players, move_time=DAY) -> Table:
    table = lobby.create_table(
        host=players[0],
        variant="play-nine",
        seat_count=len(players),
        players=list(players),
        move_time=move_time,
    )
    return lobby.start_match(table=table, by=players[0])


def tee_off(table: Table, player) -> None:
    """`player` tees off at `table` (the tee off waits on every player at once)."""
    table_now, hole, state = current(table.pk)
    seat = hole.seat_positions.index(table.seats.get(player=player).position)
    services.apply_move(
        table_id=table.pk,
        player=player,
        action=quick_action(state, seat),
        version=table_now.version,
    )


@pytest.fixture
def two_waiting():
    """Ana: two turn-based tables waiting on her, one waiting on Ben alone, a live table
    in play and a finished turn-based match."""
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    turn_based(ana, ben)
    turn_based(ana, ben)
    bens = turn_based(ana, ben)
    tee_off(bens, ana)
    lobby.start_match(
        table=lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben]),
        by=ana,
    )
    over = turn_based(ana, ben)
    Table.objects.filter(pk=over.pk).update(status=Table.Status.FINISHED, turn_deadline=None)
    return ana, ben, bens


def test_the_count_is_of_the_turn_based_tables_waiting_on_the_player(two_waiting):
    ana, ben, bens = two_waiting
    assert selectors.turns_waiting(ana) == 2
    assert selectors.turns_waiting(ben) == 3
    assert selectors.turns_waiting(make_player("cy")) == 0
    # Ben tees off at the third table: it waits on whoever plays first.
    tee_off(bens, ben)
    _, hole, state = current(bens.pk)
    first = hole.seat_positions[next_actor(state)]
    assert selectors.turns_waiting(ana) == 2 + (first == 0)
    assert selectors.turns_waiting(ben) == 2 + (first == 1)


def test_every_page_carries_the_count_in_its_title_and_none_at_zero(two_waiting, client):
    ana = two_waiting[0]
    client.force_login(ana)
    for url in (reverse("leagues:index"), reverse("games:rules"), reverse("account")):
        page = client.get(url).content.decode()
        assert "<title>(2) " in page
        assert '<meta name="turns-waiting" content="2"' in page
        assert 'src="/static/js/turn-count.js"' in page
    client.force_login(make_player("cy"))
    page = client.get(reverse("leagues:index")).content.decode()
    assert "<title>(" not in page and '<meta name="turns-waiting" content="0"' in page
    client.logout()
    page = client.get(reverse("home")).content.decode()
    assert "<title>(" not in page and "turns-waiting" not in page and "turn-count.js" not in page


def test_the_home_page_and_your_games_ask_again_every_minute(two_waiting, client):
    client.force_login(two_waiting[0])
    for url in (reverse("home"), reverse("games:your_games")):
        page = client.get(url).content.decode()
        assert "<title>(2) " in page and "(2) (2)" not in page
        assert 'data-every="60"' in page
    assert 'data-every=""' in client.get(reverse("games:rules")).content.decode()


def counting(sql: str) -> bool:
    """Whether `sql` is the count's query."""
    return sql.startswith('SELECT "games_seat"."position"') and '"turn_deadline" IS NOT' in sql


def test_the_count_is_one_query_that_does_not_grow_with_history(two_waiting, client):
    ana, ben, _ = two_waiting
    with CaptureQueriesContext(connection) as few:
        assert selectors.turns_waiting(ana) == 2
    # Twenty finished matches more, and twenty tables waiting on others.
    for _ in range(20):
        over = turn_based(ana, ben)
        Table.objects.filter(pk=over.pk).update(status=Table.Status.FINISHED, turn_deadline=None)
        tee_off(turn_based(ana, ben), ana)
    with CaptureQueriesContext(connection) as many:
        assert selectors.turns_waiting(ana) == 2
    assert len(few) == len(many) == 1
    assert "turn_deadline" in many[0]["sql"]
    # A page reads it once, however often it shows it; a fragment with no head, never.
    client.force_login(ana)
    with CaptureQueriesContext(connection) as page:
        client.get(reverse("games:rules"))
    assert sum(counting(q["sql"]) for q in page) == 1
    with CaptureQueriesContext(connection) as fragment:
        client.get(reverse("games:lobby_tables"))
    assert fragment.captured_queries and not any(counting(q["sql"]) for q in fragment)


def test_the_json_address_gives_the_count_and_refuses_a_visitor(two_waiting, client):
    url = reverse("games:turns_waiting")
    refused = client.get(url)
    assert refused.status_code == 403 and refused.json() == {"error": "Sign in to see your games."}
    client.force_login(two_waiting[0])
    answer = client.get(url)
    assert answer.status_code == 200 and answer.json() == {"waiting": 2}
    assert "no-cache" in answer["Cache-Control"]
    assert client.post(url).status_code == 405

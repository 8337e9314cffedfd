"""House rules at a table: chosen in the lobby, kept by the table, followed in live play."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import engine, lobby, services
from games.forms import CreateTableForm
from games.models import Table, house_rule_choices
from tests import driving
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action
from tests.games.test_frames import _held_and_fresh, _versions_stay_fresh  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_table_keeps_its_house_rules_in_the_game_s_order():
    ana = make_player()
    table = lobby.create_table(
        host=ana,
        variant="golf-6",
        seat_count=2,
        players=[ana],
        bots={1: "greedy"},
        house_rules=["kings-minus-2", "last-turns"],
    )
    table.refresh_from_db()
    assert table.house_rules == ["last-turns", "kings-minus-2"]
    assert table.rules is engine.with_house_rules("golf-6", ["last-turns", "kings-minus-2"])
    assert str(table) == f"Table {table.pk} (6-card Golf (last turns, Kings -2))"


@pytest.mark.parametrize(
    ("variant", "house_rules", "message"),
    [
        ("golf-6", ["no-skip"], "6-card Golf has no house rule 'no-skip'"),
        ("play-nine", ["no-skip", "no-skip"], "Choose each house rule once"),
        ("play-nine", "no-skip", "list of their keys"),
    ],
)
def test_a_house_rule_the_game_does_not_offer_is_refused_and_no_table_made(
    variant, house_rules, message
):
    ana = make_player()
    with pytest.raises(services.GameError, match=message):
        lobby.create_table(
            host=ana, variant=variant, seat_count=2, players=[ana], house_rules=house_rules
        )
    assert not Table.objects.exists()


def test_a_rematch_plays_the_same_house_rules():
    ana = make_player()
    table = lobby.create_table(
        host=ana,
        variant="golf-4",
        seat_count=3,
        players=[ana],
        bots={1: "greedy", 2: "random"},
        house_rules=["no-first-knock"],
    )
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    table.refresh_from_db()
    again = lobby.rematch(table=table, by=ana)
    assert again.house_rules == ["no-first-knock"]


def _lobby_data(**extra) -> dict:
    data = {"variant": "golf-6", "seat_count": "2", "is_public": "1", "turn_timer": "0"}
    data["seat_1"] = "greedy"
    data.update(extra)
    return data


def test_house_rules_chosen_in_the_lobby_reach_the_table_page_and_the_lists(client):
    ana = make_player()
    client.force_login(ana)
    response = client.post(
        reverse("games:new_table"), _lobby_data(house_rules=["last-turns", "jokers"])
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert table.house_rules == ["last-turns", "jokers"]
    page = client.get(table.get_absolute_url()).content.decode()
    assert "House rules" in page
    for rule in table.rules.house_rules:
        assert rule.text in page
    lobby = client.get(reverse("games:lobby")).content.decode()
    assert "6-card Golf (last turns, jokers), table" in lobby
    assert "casual, house rules" in lobby
    assert 'value="last-turns"' in lobby  # the form offers them
    home = client.get(reverse("home")).content.decode()
    assert "casual, house rules" in home


def test_a_table_without_house_rules_is_not_marked(client):
    ana = make_player()
    client.force_login(ana)
    client.post(reverse("games:new_table"), _lobby_data())
    table = Table.objects.get()
    assert table.house_rules == []
    assert "House rules" not in client.get(table.get_absolute_url()).content.decode()
    assert "casual, house rules" not in client.get(reverse("games:lobby")).content.decode()


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        (["no-skip"], "“No skip” is not a house rule of 6-card Golf: choose only that game"),
        (["bogus"], "not one of the available choices"),
    ],
)
def test_the_lobby_refuses_a_house_rule_of_another_game(client, rules, message):
    client.force_login(make_player())
    response = client.post(reverse("games:new_table"), _lobby_data(house_rules=rules))
    assert response.status_code == 400 and message in response.content.decode().replace(
        "&#x27;", "'"
    )
    assert not Table.objects.exists()


def test_each_house_rule_box_names_its_games_apart_and_once():
    """Each box says which games offer its rule (the page narrows the boxes to the game
    chosen by them); a game whose name holds a comma does not read as a repeat."""
    form = CreateTableForm()
    html = str(form["house_rules"])
    assert 'value="no-skip" id="id_house_rules_0" data-games="play-nine"' in html
    assert 'data-games="golf-6 golf-4 golf-9 golf-9-3deck"' in html
    labels = dict(house_rule_choices())
    assert labels["kings-minus-2"] == (
        "Kings -2 (6-card Golf; 4-card Golf (knocking); 9-card Golf; "
        "9-card Golf, three decks with jokers)"
    )


def test_the_rules_page_lists_every_house_rule_of_every_game(client):
    page = client.get(reverse("games:rules")).content.decode()
    assert 'id="house-rules"' in page
    for variant in engine.VARIANTS.values():
        assert f'id="house-rules-{variant.key}"' in page
        for rule in variant.house_rule_options:
            assert rule.text in page


def test_a_live_match_with_a_house_rule_follows_it_in_every_frame(django_assert_num_queries):
    """6-card Golf with last turns, played through services: every hole is dealt under
    the rule, going out leads to last turns (never in plain 6-card Golf), and each frame
    made from news equals a fresh read."""
    ana, ben = make_player("ana"), make_player("ben")
    table = lobby.create_table(
        host=ana,
        variant="golf-6",
        seat_count=2,
        players=[ana, ben],
        house_rules=["last-turns"],
    )
    lobby.start_match(table=table, by=ana)
    people = {0: ana, 1: ben}
    viewers = [ana, ben, make_player("cy")]
    driving.render_frame(table.pk, ana)
    phases = set()
    for hole_number in (1, 2):
        while True:
            db_table, hole, state = current(table.pk)
            assert state.variant == "golf-6+last-turns" and hole.number == hole_number
            seat = next_actor(state)
            result = services.apply_move(
                table_id=table.pk,
                player=people[hole.seat_positions[seat]],
                action=quick_action(state, seat),
                version=db_table.version,
            )
            _held_and_fresh(table, viewers, result, django_assert_num_queries)
            phases.add(current(table.pk)[2].phase)
            if result.hole_over:
                break
        if hole_number == 1:
            result = services.next_hole(table_id=table.pk, version=result.version)
            _held_and_fresh(table, viewers, result, django_assert_num_queries)
    assert engine.FINAL_TURNS in phases

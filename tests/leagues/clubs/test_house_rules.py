"""A league's house rules: every table of its nights plays them, and ratings count them."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import scorecards
from games.engine import card_text, new_hole
from games.models import Table
from leagues.duplicate import sheets
from leagues.models import League, NightTable, Rating
from leagues.ratings.services import rebuild_ratings
from leagues.seating.services import seat_night
from tests.factories import even_holes, make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.django_db


def _league_with_rules(*rules: str) -> tuple[League, list, object]:
    organiser = make_player("olive")
    players = [make_player(f"p{n}") for n in range(6)]
    league = make_league(make_club(organiser=organiser, members=players), variant="golf-6")
    league.house_rules = list(rules)
    league.full_clean()
    league.save()
    return league, players, organiser


@pytest.mark.parametrize("kind", [Table.Kind.LIVE, Table.Kind.PAPER])
def test_every_table_of_a_night_plays_the_league_s_house_rules(kind):
    league, players, organiser = _league_with_rules("kings-minus-2", "last-turns")
    assert league.house_rules == ["last-turns", "kings-minus-2"]
    night = make_night(make_season(league), date(2026, 3, 1))
    night.players.set(players)
    tables = seat_night(night=night, by=organiser, seats_per_table=3, kind=kind)
    assert len(tables) == 2
    for night_table in tables:
        assert night_table.table.rules is league.rules
        assert not night_table.table.casual_house_rules or kind == Table.Kind.PAPER


def test_a_league_refuses_a_house_rule_its_game_does_not_offer():
    league = make_league(make_club(), variant="golf-6")
    league.house_rules = ["no-skip"]
    with pytest.raises(ValidationError, match="no house rule"):
        league.full_clean()


def test_the_league_form_takes_house_rules_and_refuses_another_game_s(client):
    organiser = make_player("olive")
    club = make_club(organiser=organiser)
    client.force_login(organiser)
    url = reverse("leagues:league_create", args=[club.slug])
    form = {"name": "Tuesday", "variant": "golf-6", "points_per_place": "6,4,2,0"}
    response = client.post(url, {**form, "house_rules": ["no-skip"]})
    assert response.status_code == 400
    page = response.content.decode()
    assert "“No skip” is not a house rule of 6-card Golf" in page
    assert page.count('class="errors"') == 1
    assert not club.leagues.exists()
    client.post(url, {**form, "house_rules": ["jokers", "last-turns"]})
    league = club.leagues.get()
    assert league.house_rules == ["last-turns", "jokers"]
    page = client.get(league.get_absolute_url()).content.decode()
    assert "6-card Golf (last turns, jokers)" in page


def _played(night, players, totals, house_rules):
    table = scorecards.open_paper_table(variant="golf-6", players=players, house_rules=house_rules)
    number = night.tables.count() + 1
    night_table = NightTable.objects.create(night=night, table=table, number=number)
    scorecards.record_paper_results(table=table, hole_scores=even_holes(*totals))
    return night_table


def test_ratings_count_only_matches_on_the_league_s_rules():
    league, players, _organiser = _league_with_rules("last-turns")
    ann, bea, cat = players[:3]
    night = make_night(make_season(league), date(2026, 3, 1))
    _played(night, [ann, bea], (20, 30), ["last-turns"])
    # Played before the league chose its rules: not the league's rules, not rated.
    _played(night, [ann, cat], (40, 10), [])
    assert rebuild_ratings(league=league).matches == 1
    assert {r.player for r in Rating.objects.filter(league=league)} == {ann, bea}
    league.house_rules = []
    league.save()
    assert rebuild_ratings(league=league).matches == 1
    assert {r.player for r in Rating.objects.filter(league=league)} == {ann, cat}


def test_a_paper_table_s_deal_sheet_deals_from_the_house_rules_deck(client):
    """With jokers in the deck, the sheet deals what the engine deals under those rules."""
    league, players, organiser = _league_with_rules("jokers")
    night = make_night(make_season(league), date(2026, 3, 1), duplicate_deals=True)
    night.players.set(players)
    paper = seat_night(night=night, by=organiser, seats_per_table=3, kind=Table.Kind.PAPER)[0]
    table = paper.table
    dealer = sheets.first_dealer(table)
    state = new_hole(table.rules, 3, seed=table.hole_seed(1), dealer=dealer)
    sheet = sheets.deal_sheet(paper)
    shown = [[card for row in seat.rows for card in row] for seat in sheet[0].seats]
    assert shown == [[card_text(table.rules, card) for card in layout] for layout in state.layouts]
    client.force_login(organiser)
    page = client.get(reverse("leagues:deal_sheet", args=[paper.pk])).content.decode()
    assert "6-card Golf (jokers)" in page

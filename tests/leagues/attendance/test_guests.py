"""A guest who plays a member's seat is named once, and named wherever the night's
results are: "Walt (guest) for Ann", not Ann alone."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from games import scorecards
from games.models import Table
from leagues.attendance import services as attendance
from leagues.attendance.selectors import RATED_RULE, absence_rule
from leagues.handicaps import selectors as handicaps
from leagues.models import League, Rating, Substitute
from leagues.results.services import enter_night_results
from leagues.seating.services import seat_night
from tests.factories import even_holes, make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.django_db

PLAYED = "Walt (guest) for Ann"


@pytest.fixture
def guest_night():
    """A duplicate night of two paper tables of two; Walt, a guest, plays Ann's seat."""
    organiser = make_player("olive", display_name="Olive")
    ann, bea, cat, dan = (
        make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat", "Dan")
    )
    league = make_league(make_club(organiser=organiser, members=[ann, bea, cat, dan]))
    night = make_night(make_season(league), date(2026, 3, 3), duplicate_deals=True)
    night.players.set([bea, cat, dan])
    # The organiser types the mark in the name: it is shown once all the same.
    sub = attendance.set_substitute(
        night=night, member=ann, guest_name="Walt (guest)", by=organiser
    )
    assert sub.guest_name == "Walt" and sub.name == "Walt (guest)"
    seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.PAPER)
    return organiser, ann, night


def test_a_guest_is_marked_once_however_the_name_was_typed():
    assert Substitute(guest_name="Walt (guest)").name == "Walt (guest)"
    assert Substitute(guest_name="Walt (Guest) ").name == "Walt (guest)"
    assert Substitute(guest_name="Walt").name == "Walt (guest)"


def test_the_deal_sheet_and_results_entry_name_the_guest_who_plays(client, guest_night):
    organiser, ann, night = guest_night
    night_table = night.tables.get(table__seats__player=ann)
    client.force_login(organiser)
    for name in ("deal_sheet", "table_results"):
        html = client.get(reverse(f"leagues:{name}", args=[night_table.pk])).content.decode()
        assert PLAYED in html, name
        assert "(guest) (guest)" not in html


def test_the_nights_results_name_the_guest_who_played(client, guest_night):
    organiser, ann, night = guest_night
    for night_table in night.tables.all():
        scorecards.record_paper_results(table=night_table.table, hole_scores=even_holes(30, 40))
    client.force_login(organiser)
    pages = {
        "night": client.get(night.get_absolute_url()),
        "comparison": client.get(reverse("leagues:night_deals", args=[night.pk])),
        "csv": client.get(reverse("leagues:night_scorecards_csv", args=[night.pk])),
        "standings": client.get(night.season.get_absolute_url()),
    }
    for name, response in pages.items():
        text = response.content.decode()
        assert response.status_code == 200, name
        assert PLAYED in text, name
        assert "(guest) (guest)" not in text, name


def test_the_members_page_says_a_guest_played_their_seat(client, guest_night):
    organiser, ann, night = guest_night
    for night_table in night.tables.all():
        scorecards.record_paper_results(table=night_table.table, hole_scores=even_holes(30, 40))
    client.force_login(organiser)
    league = night.season.league
    html = client.get(reverse("leagues:player", args=[league.pk, ann.pk])).content.decode()
    assert "played by Walt (guest)" in html


@pytest.mark.parametrize("rule", list(League.SubstituteCounts.values))
def test_a_guests_result_moves_neither_the_members_rating_nor_handicap(guest_night, rule):
    """Whatever the league counts a guest's result for, it was not Ann who played: her
    rating and her next handicap stay as if she had not been at the table. Walt's table
    then has one rated player, too few for a rated match; the other table is rated.
    The rule is stated."""
    organiser, ann, night = guest_night
    league = night.season.league
    league.substitute_counts = rule
    league.save()
    for night_table in night.tables.all():
        enter_night_results(night_table=night_table, hole_scores=even_holes(20, 40), by=organiser)
    rated = set(Rating.objects.filter(league=league).values_list("player__username", flat=True))
    other = night.tables.exclude(table__seats__player=ann).get()
    assert rated == set(other.table.seats.values_list("player__username", flat=True))
    assert "ann" not in rated
    assert handicaps.worked_out(league, [ann.pk])[ann.pk] == 0
    assert RATED_RULE in absence_rule(league)

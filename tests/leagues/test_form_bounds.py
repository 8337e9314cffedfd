"""Every number a league's forms take is bound to what makes sense, with a clear message,
and nothing is saved past it: a season then closes whatever its points."""

from __future__ import annotations

import pytest
from django.urls import reverse

from leagues.bounds import MAX_POINTS
from leagues.models import League
from leagues.results.services import enter_night_results
from leagues.standings.services import rebuild_figures
from tests.factories import even_holes, make_club, make_player

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


@pytest.fixture
def organiser_club(client):
    olive = make_player("olive")
    club = make_club(organiser=olive)
    client.force_login(olive)
    return club


def create(client, club, **fields):
    data = {"name": "Thursdays", "variant": "play-nine", "points_per_place": "6,4,2,0", **fields}
    return client.post(reverse("leagues:league_create", args=[club.slug]), data)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"points_per_place": f"{HUGE},4,2"}, f"A place earns {MAX_POINTS} points at most."),
        ({"points_per_place": f"{MAX_POINTS + 1}"}, f"A place earns {MAX_POINTS} points at most."),
        ({"points_per_place": ",".join(["1"] * 31)}, "at most 60 characters"),
        ({"absence_points": "fixed", "absence_fixed_points": HUGE}, "Points go up to"),
        ({"bye_points": "fixed", "bye_fixed_points": "40000"}, "Points go up to"),
        ({"bye_points": "fixed", "bye_fixed_points": str(MAX_POINTS + 1)}, "Points go up to"),
    ],
)
def test_points_past_their_bound_are_refused_and_nothing_is_saved(
    client, organiser_club, fields, message
):
    response = create(client, organiser_club, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not League.objects.exists()


def test_points_at_their_bound_are_taken(client, organiser_club):
    response = create(
        client,
        organiser_club,
        points_per_place=",".join([str(MAX_POINTS)] * 12),
        bye_points="fixed",
        bye_fixed_points=str(MAX_POINTS),
    )
    assert response.status_code == 302
    assert League.objects.get().bye_fixed_points == MAX_POINTS


def test_the_admin_refuses_them_too(client):
    boss = make_player("boss", is_staff=True, is_superuser=True)
    club = make_club(organiser=boss)
    client.force_login(boss)
    response = client.post(
        reverse("admin:leagues_league_add"),
        {
            "club": club.pk,
            "name": "Thursdays",
            "variant": "play-nine",
            "points_per_place": HUGE,
            "night_points": "place",
            "points_from": "gross",
            "absence_points": "nothing",
            "absence_fixed_points": "0",
            "bye_points": "average",
            "bye_fixed_points": "70000",
            "substitute_counts": "member",
            "stand_in_counts": "member",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert f"A place earns {MAX_POINTS} points at most." in page
    assert "Points go up to" in page
    assert not League.objects.exists()


def test_a_season_of_points_saved_before_the_bound_stays_open_saying_why(client, club_night):
    """Points saved before they were bound (30 digits a place) no longer crash the close:
    it is refused with what to change, and the season stays open."""
    cn = club_night
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    League.objects.filter(pk=cn.league.pk).update(points_per_place=f"{HUGE},1")
    # Scored again as the repair tool (and the migration that stored the figures) does.
    rebuild_figures(league=cn.league)
    client.force_login(cn.organiser)
    response = client.post(reverse("leagues:season_close", args=[cn.season.pk]), follow=True)
    assert "too large to keep" in response.content.decode()
    cn.season.refresh_from_db()
    assert not cn.season.is_closed


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"table_kind": "live", "paper_tables": "40000"}, "0 to 50 tables a round play on paper."),
        ({"table_kind": "live", "paper_tables": "51"}, "0 to 50 tables a round play on paper."),
        ({"seats_per_table": HUGE}, "A table seats 2 to 8."),
        ({"rounds": "40000"}, "An event has 1 to 20 rounds."),
        ({"format": "knockout", "rounds": "40000"}, "An event has 1 to 20 rounds."),
        ({"advance": "40000"}, "1 to 7 go through from a table."),
    ],
)
def test_the_event_form_bounds_every_number_and_saves_nothing_past_it(
    client, organiser_club, fields, message
):
    from leagues.models import Event
    from tests.leagues.events.test_event_pages import form_data

    response = client.post(
        reverse("leagues:event_create", args=[organiser_club.slug]), form_data(**fields)
    )
    assert response.status_code == 400 and message in response.content.decode()
    assert not Event.objects.exists()


def test_the_event_services_bound_what_the_form_bounds(organiser_club):
    from django.core.exceptions import ValidationError

    from tests.leagues.events_helpers import new_event

    olive = organiser_club.memberships.get().player
    with pytest.raises(ValidationError, match="0 to 50 tables a round play on paper"):
        new_event(organiser_club, olive, table_kind="live", paper_tables=40000)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"team_size": "40000"}, "A team has 2 to 4 members (0: not a team league)."),
        (
            {"team_score": "best", "team_size": "4", "team_counted": HUGE},
            "The best n counts 1 to 4",
        ),
    ],
)
def test_the_team_rules_form_bounds_its_numbers(client, organiser_club, fields, message):
    league = League.objects.create(club=organiser_club, name="Thursdays")
    data = {"team_size": "2", "team_score": "sum", "team_counted": "2", **fields}
    response = client.post(reverse("leagues:team_rules", args=[league.pk]), data)
    assert response.status_code == 400 and message in response.content.decode()
    league.refresh_from_db()
    assert (league.team_size, league.team_counted) == (0, 2)

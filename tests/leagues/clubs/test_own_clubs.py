"""A club of one's own: a player makes a club and organises it, names other organisers
and removes members (never the last organiser); a club waiting for approval or
suspended says so on its pages and refuses its writes."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import RequestFactory
from django.urls import reverse

from leagues.clubs.services import add_member, create_club, create_league, remove_member
from leagues.models import Club, Membership
from leagues.roles import role_in
from tests.factories import make_club, make_player

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_a_player_makes_a_club_and_is_its_first_organiser(client):
    olive = make_player("olive")
    client.force_login(olive)
    response = client.post(reverse("leagues:club_create"), {"name": "  The  Tuesday Club "})
    club = Club.objects.get()
    assert response.url == club.get_absolute_url()
    assert club.name == "The Tuesday Club" and club.slug == "the-tuesday-club"
    assert club.is_active
    assert role_in(olive, club) == Membership.Role.ORGANISER
    olive.refresh_from_db()
    assert olive.is_staff  # the admin opens for an organiser, scoped to their clubs


def test_two_clubs_of_one_name_get_addresses_of_their_own_and_none_is_new():
    olive = make_player("olive")
    first = create_club(name="Fairway", by=olive)
    second = create_club(name="Fairway", by=olive)
    odd = create_club(name="New", by=olive)
    assert (first.slug, second.slug) == ("fairway", "fairway-2")
    assert odd.slug != "new"  # "new" is the address of the page that makes a club


@pytest.mark.parametrize("name", ["", "   ", "!!!", "x" * 81])
def test_a_club_needs_a_name_that_reads(client, name):
    client.force_login(make_player("olive"))
    response = client.post(reverse("leagues:club_create"), {"name": name})
    assert response.status_code == 400
    assert not Club.objects.exists()


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.post(reverse("leagues:club_create"), {"name": "Sneaky"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert not Club.objects.exists()


def test_with_approval_on_a_new_club_waits_and_refuses_writes_until_approved(client, settings):
    settings.FAIRWAY_CLUBS_NEED_APPROVAL = True
    olive = make_player("olive")
    club = create_club(name="Waiting Room", by=olive)
    assert club.status == Club.Status.PENDING
    with pytest.raises(PermissionDenied, match="approval"):
        create_league(club=club, name="Mondays", variant="play-nine", by=olive)
    client.force_login(olive)
    page = client.get(club.get_absolute_url())
    assert "waiting for the site&#x27;s approval" in page.content.decode()
    club.status = Club.Status.ACTIVE
    club.save()
    assert create_league(club=club, name="Mondays", variant="play-nine", by=olive).pk


def test_a_suspended_clubs_pages_say_so_and_its_writes_are_refused(client):
    olive, mia = make_player("olive"), make_player("mia")
    club = make_club("Closed Shop", organiser=olive, members=[mia])
    club.status = Club.Status.SUSPENDED
    club.save()
    client.force_login(olive)
    page = client.get(club.get_absolute_url())
    assert page.status_code == 200 and "suspended by the site" in page.content.decode()
    response = client.post(
        reverse("leagues:league_create", args=[club.slug]),
        {"name": "Mondays", "variant": "play-nine", "points_per_place": "6,4,2,0"},
    )
    assert response.status_code == 403
    assert "suspended" in response.content.decode()
    assert not club.leagues.exists()
    with pytest.raises(PermissionDenied):
        remove_member(club=club, player=mia, by=olive)


def test_superusers_suspend_and_approve_clubs_in_the_admin():
    root = make_player("root", is_superuser=True, is_staff=True)
    olive = make_player("olive")
    club = make_club("Wild Bunch", organiser=olive)
    admin = site._registry[Club]
    request = RequestFactory().post("/admin/")
    request.user = root
    request._messages = type("M", (), {"add": lambda *a, **k: None})()
    admin.suspend(request, Club.objects.filter(pk=club.pk))
    club.refresh_from_db()
    assert club.status == Club.Status.SUSPENDED
    admin.approve(request, Club.objects.filter(pk=club.pk))
    club.refresh_from_db()
    assert club.status == Club.Status.ACTIVE


def test_an_organiser_neither_suspends_nor_changes_a_held_club_in_the_admin():
    olive = make_player("olive")
    club = make_club("Wild Bunch", organiser=olive)
    olive.refresh_from_db()
    admin = site._registry[Club]
    request = RequestFactory().get("/admin/")
    request.user = olive
    assert "suspend" not in admin.get_actions(request)
    assert "status" in admin.get_readonly_fields(request, club)
    assert admin.has_change_permission(request, club)
    club.status = Club.Status.SUSPENDED
    club.save()
    assert admin.has_view_permission(request, club)
    assert not admin.has_change_permission(request, club)


def _role(client, club, membership, role):
    return client.post(
        reverse("leagues:member_role", args=[club.slug, membership.pk]), {"role": role}
    )


def test_an_organiser_names_another_organiser_and_the_first_may_then_step_down(client):
    olive, mia = make_player("olive"), make_player("mia")
    club = make_club("Fairway", organiser=olive, members=[mia])
    client.force_login(olive)
    _role(client, club, Membership.objects.get(player=mia), "organiser")
    assert role_in(mia, club) == "organiser"
    _role(client, club, Membership.objects.get(player=olive), "player")
    assert role_in(olive, club) == "player"


def test_the_last_organiser_can_be_neither_demoted_nor_removed(client):
    olive, mia = make_player("olive"), make_player("mia")
    club = make_club("Fairway", organiser=olive, members=[mia])
    own = Membership.objects.get(player=olive)
    client.force_login(olive)
    page = client.post(
        reverse("leagues:member_role", args=[club.slug, own.pk]), {"role": "player"}, follow=True
    )
    assert "last organiser" in page.content.decode()
    client.post(reverse("leagues:member_remove", args=[club.slug, own.pk]))
    assert role_in(olive, club) == "organiser"
    with pytest.raises(ValidationError, match="last organiser"):
        remove_member(club=club, player=olive, by=olive)
    with pytest.raises(ValidationError, match="last organiser"):
        add_member(club=club, player=olive, role="player", by=olive)


def test_an_organiser_removes_a_member(client):
    olive, mia = make_player("olive"), make_player("mia")
    club = make_club("Fairway", organiser=olive, members=[mia])
    client.force_login(olive)
    client.post(
        reverse("leagues:member_remove", args=[club.slug, Membership.objects.get(player=mia).pk])
    )
    assert role_in(mia, club) is None


def test_a_plain_member_may_not_change_roles_or_remove_anyone(client):
    olive, mia, noah = make_player("olive"), make_player("mia"), make_player("noah")
    club = make_club("Fairway", organiser=olive, members=[mia, noah])
    client.force_login(mia)
    target = Membership.objects.get(player=noah)
    assert _role(client, club, target, "organiser").status_code == 403
    remove = reverse("leagues:member_remove", args=[club.slug, target.pk])
    assert client.post(remove).status_code == 403
    assert role_in(noah, club) == "player"


def test_another_clubs_organiser_sees_nothing_and_changes_nothing(client):
    olive, mia, rival = make_player("olive"), make_player("mia"), make_player("rival")
    club = make_club("Fairway", organiser=olive, members=[mia])
    other = make_club("Rough", organiser=rival)
    client.force_login(rival)
    target = Membership.objects.get(player=mia)
    assert _role(client, club, target, "organiser").status_code == 404
    # A membership of one club named under another club's address is not found either.
    assert _role(client, other, target, "organiser").status_code == 404
    assert role_in(mia, club) == "player"


def test_a_role_that_is_not_one_changes_nothing(client):
    olive, mia = make_player("olive"), make_player("mia")
    club = make_club("Fairway", organiser=olive, members=[mia])
    client.force_login(olive)
    page = _role(client, club, Membership.objects.get(player=mia), "emperor")
    assert page.status_code == 302
    assert role_in(mia, club) == "player"

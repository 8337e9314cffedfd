"""Events that fill up: entries past the cap wait in order, a withdrawal lets the first
in (told by mail), the organiser moves people on the list, and nonsense is refused."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse

from leagues.events import services
from leagues.models import EventEntry, EventWaiting
from tests.factories import make_club, make_player
from tests.leagues.events_helpers import club_with, new_event

pytestmark = pytest.mark.django_db


def waiting_names(event) -> list[str]:
    return [w.player.username for w in event.waiting.select_related("player")]


def entered_names(event) -> set[str]:
    return set(event.entries.values_list("player__username", flat=True))


@pytest.fixture
def full():
    """An event capped at 2, entered by p0 and p1; p2, p3, p4 waiting in that order."""
    club, olive, people = club_with(5)
    for person in people:
        person.email = f"{person.username}@example.com"
        person.save()
    event = new_event(club, olive, seats_per_table=2, max_entries=2)
    results = [services.enter_event(event=event, player=p) for p in people]
    assert [type(r) for r in results] == [EventEntry] * 2 + [EventWaiting] * 3
    return event, olive, people


def test_entries_past_the_cap_wait_in_order_and_entering_again_changes_nothing(full):
    event, _, people = full
    services.enter_event(event=event, player=people[3])
    assert entered_names(event) == {"p0", "p1"}
    assert waiting_names(event) == ["p2", "p3", "p4"]


def test_a_withdrawal_lets_the_first_waiting_in_and_tells_them_by_mail(
    full, django_capture_on_commit_callbacks
):
    event, _, people = full
    with django_capture_on_commit_callbacks(execute=True):
        assert services.withdraw(event=event, player=people[0])
    assert entered_names(event) == {"p1", "p2"}
    assert waiting_names(event) == ["p3", "p4"]
    assert [m.to for m in mail.outbox] == [["p2@example.com"]]
    assert "a place is yours" in mail.outbox[0].subject
    # Leaving the waiting list lets nobody in: the event is still full.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.withdraw(event=event, player=people[3])
    assert entered_names(event) == {"p1", "p2"} and waiting_names(event) == ["p4"]
    assert len(mail.outbox) == 1


def test_the_organiser_moves_lets_in_and_removes(full, django_capture_on_commit_callbacks):
    event, olive, people = full
    ids = {w.player.username: w.pk for w in event.waiting.select_related("player")}
    services.change_waiting(event=event, waiting_id=ids["p4"], action="up", by=olive)
    assert waiting_names(event) == ["p2", "p4", "p3"]
    services.change_waiting(event=event, waiting_id=ids["p2"], action="down", by=olive)
    assert waiting_names(event) == ["p4", "p2", "p3"]
    with pytest.raises(ValidationError, match="first on the waiting list already"):
        services.change_waiting(event=event, waiting_id=ids["p4"], action="up", by=olive)
    with pytest.raises(ValidationError, match="last on the waiting list already"):
        services.change_waiting(event=event, waiting_id=ids["p3"], action="down", by=olive)
    with django_capture_on_commit_callbacks(execute=True):
        services.change_waiting(event=event, waiting_id=ids["p3"], action="promote", by=olive)
    assert entered_names(event) == {"p0", "p1", "p3"}  # past the cap: the organiser's call
    services.change_waiting(event=event, waiting_id=ids["p2"], action="remove", by=olive)
    assert waiting_names(event) == ["p4"]
    with pytest.raises(ValidationError, match="no longer on the waiting list"):
        services.change_waiting(event=event, waiting_id=ids["p2"], action="remove", by=olive)
    with pytest.raises(ValidationError, match="Choose to let in"):
        services.change_waiting(event=event, waiting_id=ids["p4"], action="shuffle", by=olive)
    assert waiting_names(event) == ["p4"]


def test_only_the_events_organisers_move_the_list(full, client):
    event, olive, people = full
    wait = event.waiting.first()
    url = reverse("leagues:event_waiting", args=[event.pk, wait.pk])
    # A plain member: refused.
    with pytest.raises(PermissionDenied):
        services.change_waiting(event=event, waiting_id=wait.pk, action="remove", by=people[0])
    client.force_login(people[0])
    assert client.post(url, {"action": "promote"}).status_code == 403
    # Another club's organiser: the club is not theirs to see.
    other = make_player("otto")
    make_club("Other Club", organiser=other)
    client.force_login(other)
    assert client.post(url, {"action": "promote"}).status_code == 404
    assert waiting_names(event) == ["p2", "p3", "p4"]
    client.force_login(olive)
    response = client.post(url, {"action": "promote"})
    assert response.status_code == 302 and "p2" in entered_names(event)
    assert client.post(url, {"action": "promote"}).status_code == 400  # gone from the list


@pytest.mark.parametrize("cap", [0, 1, -3, 1001])
def test_a_nonsense_cap_is_refused(cap):
    club, olive, _ = club_with(2)
    with pytest.raises(ValidationError, match="cap is at"):
        new_event(club, olive, max_entries=cap)


def test_the_create_form_refuses_a_cap_that_is_not_a_number(client):
    club, olive, _ = club_with(2)
    client.force_login(olive)
    response = client.post(
        reverse("leagues:event_create", args=[club.slug]),
        {"name": "Open", "format": "swiss", "variant": "play-nine", "max_entries": "lots"},
    )
    assert response.status_code == 400 and "Enter a whole number" in response.content.decode()


def test_the_page_shows_the_member_their_place_and_the_organiser_the_buttons(full, client):
    event, olive, people = full
    client.force_login(people[3])
    page = client.get(event.get_absolute_url()).content.decode()
    assert "you are number 2 on its waiting list" in page and "Let in" not in page
    client.force_login(olive)
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Waiting list (3)" in page and 'aria-label="Let P2 in"' in page


def test_a_waiting_member_cannot_check_in(full):
    event, _, people = full
    with pytest.raises(ValidationError, match="has not entered"):
        services.check_in(event=event, player=people[2], by=people[2])


def test_an_organiser_adding_a_waiting_member_takes_them_off_the_list(full):
    event, olive, people = full
    services.add_entry(event=event, player=people[4], by=olive)
    assert "p4" in entered_names(event) and waiting_names(event) == ["p2", "p3"]

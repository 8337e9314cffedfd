"""An event's pages: who may open and change what, and bad input that changes nothing
and says why."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from leagues.events import selectors, services
from leagues.models import Event, EventApart, EventEntry, EventRound
from tests.factories import make_player
from tests.leagues.events_helpers import club_with, entered, new_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting():
    club, olive, people = club_with(4)
    return club, olive, people, new_event(club, olive, seats_per_table=2, rounds=2)


def form_data(**changes) -> dict:
    now = timezone.localtime()
    data = {
        "name": "Autumn Cup",
        "format": "swiss",
        "variant": "play-nine",
        "seats_per_table": "4",
        "rounds": "3",
        "advance": "2",
        "table_kind": "hand",
        "paper_tables": "",
        "starts_at": (now + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
        "entry_closes_at": (now + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
    }
    data.update(changes)
    return data


def test_only_organisers_create_an_event_and_bad_settings_are_named(client, setting):
    club, olive, people, _ = setting
    url = reverse("leagues:event_create", args=[club.slug])
    client.force_login(people[0])
    assert client.post(url, form_data()).status_code == 403
    client.force_login(olive)
    response = client.post(url, form_data(seats_per_table="9", name="Too big"))
    assert response.status_code == 400
    assert "Play Nine is played at tables of 2 to 6." in response.content.decode()
    response = client.post(url, form_data(variant="golf-6", house_rules=["golf4-no-knock-first"]))
    assert response.status_code == 400
    assert not Event.objects.filter(name__in=["Too big", "Autumn Cup"]).exists()
    response = client.post(url, form_data())
    event = Event.objects.get(name="Autumn Cup")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert event.club == club and event.created_by == olive


def test_the_event_form_sets_the_live_tables_turn_timer_off_unless_chosen(client, setting):
    club, olive, _people, _event = setting
    client.force_login(olive)
    form = client.get(reverse("leagues:events", args=[club.slug])).content.decode()
    assert "Turn timer at live tables" in form and 'name="turn_timer"' in form
    url = reverse("leagues:event_create", args=[club.slug])
    client.post(url, form_data(name="Timed", table_kind="live", turn_timer="60"))
    client.post(url, form_data(name="Untimed", table_kind="live"))
    timers = dict(Event.objects.values_list("name", "turn_timer"))
    assert timers["Timed"] == Table.Timer.S60 and timers["Untimed"] == Table.Timer.OFF
    response = client.post(url, form_data(name="Odd", table_kind="live", turn_timer="45"))
    assert response.status_code == 400 and not Event.objects.filter(name="Odd").exists()
    page = client.get(Event.objects.get(name="Timed").get_absolute_url()).content.decode()
    assert "turn timer: 60 seconds" in page


def test_members_open_the_event_outsiders_do_not(client, setting):
    club, olive, people, event = setting
    url = event.get_absolute_url()
    assert client.get(url).status_code == 302  # to log in
    client.force_login(make_player("outsider"))
    assert client.get(url).status_code == 404
    assert client.get(reverse("leagues:events", args=[club.slug])).status_code == 404
    client.force_login(people[0])
    page = client.get(url).content.decode()
    assert "Enter Spring Open" in page and "Start and seat round 1" not in page
    assert f'ws-connect="/ws/events/{event.pk}/"' in page
    assert (
        "Create event"
        not in client.get(reverse("leagues:events", args=[club.slug])).content.decode()
    )


def test_a_member_enters_checks_in_and_withdraws_themselves(client, setting):
    club, olive, people, event = setting
    client.force_login(people[0])
    client.post(reverse("leagues:event_enter", args=[event.pk]))
    assert EventEntry.objects.filter(event=event, player=people[0]).exists()
    client.post(reverse("leagues:event_check_in", args=[event.pk]))
    assert EventEntry.objects.get(event=event, player=people[0]).checked_in_at is not None
    # Checking someone else in is the organisers'.
    services.enter_event(event=event, player=people[1])
    other = EventEntry.objects.get(event=event, player=people[1])
    response = client.post(reverse("leagues:event_check_in", args=[event.pk]), {"entry": other.pk})
    assert response.status_code == 403
    for bad in ("x", "0", "²", "１", "-1"):
        response = client.post(reverse("leagues:event_check_in", args=[event.pk]), {"entry": bad})
        assert response.status_code == 400 and "No such entrant." in response.content.decode()
    client.post(reverse("leagues:event_withdraw", args=[event.pk]))
    assert not EventEntry.objects.filter(event=event, player=people[0]).exists()


def test_entering_after_the_cut_off_changes_nothing_and_says_why(client, setting):
    club, olive, people, event = setting
    event.entry_closes_at = timezone.now() - timedelta(minutes=1)
    event.save()
    client.force_login(people[0])
    response = client.post(reverse("leagues:event_enter", args=[event.pk]))
    assert response.status_code == 400
    assert (
        "closed at" in response.content.decode() and "ask an organiser" in response.content.decode()
    )
    assert not event.entries.exists()


def test_only_organisers_start_close_and_enter_results(client, setting):
    club, olive, people, event = setting
    entered(event, people)
    client.force_login(people[0])
    assert client.post(reverse("leagues:event_start", args=[event.pk])).status_code == 403
    assert not EventRound.objects.exists()
    client.force_login(olive)
    assert client.post(reverse("leagues:event_start", args=[event.pk])).status_code == 302
    table = selectors.round_tables(selectors.current_round(event))[0]
    client.force_login(people[0])
    results = reverse("leagues:event_table_results", args=[table.pk])
    assert client.get(results).status_code == 403
    close = reverse("leagues:event_close_round", args=[event.pk])
    assert client.post(close, {"round": "1"}).status_code == 403
    assert selectors.current_round(event).closed_at is None


def test_results_with_a_mistake_save_nothing_and_good_ones_seat_the_next_round(client, setting):
    club, olive, people, event = setting
    entered(event, people)
    services.start_event(event=event, by=olive)
    client.force_login(olive)
    tables = selectors.round_tables(selectors.current_round(event))
    url = reverse("leagues:event_table_results", args=[tables[0].pk])
    assert client.get(url).status_code == 200
    bad = {f"h{n}_s{p}": "3" for n in range(1, 10) for p in range(2)}
    bad["h4_s1"] = "x"
    response = client.post(url, bad)
    assert response.status_code == 400 and "must be a whole number" in response.content.decode()
    # The form's template comment stays a comment: never printed on the page.
    assert "{#" not in response.content.decode()
    assert "hole by hole, as the results form takes them" not in response.content.decode()
    assert Table.objects.get(pk=tables[0].table_id).status == Table.Status.PLAYING
    for event_table in tables:
        good = {f"h{n}_s{p}": str(3 + p) for n in range(1, 10) for p in range(2)}
        response = client.post(reverse("leagues:event_table_results", args=[event_table.pk]), good)
        assert response.status_code == 302
    assert selectors.current_round(event).number == 2
    page = client.get(event.get_absolute_url()).content.decode()
    assert "Round 2 in play" in page and "Strokes per hole" in page
    assert "1 for 1st" in page and "opponents" in page
    # The order is stated in words, bye included.
    assert "fewest strokes per hole played" in page and "a bye counts as" in page


def test_closing_a_round_needs_its_number_and_answers_htmx_with_a_reload(client, setting):
    club, olive, people, event = setting
    entered(event, people)
    services.start_event(event=event, by=olive)
    client.force_login(olive)
    close = reverse("leagues:event_close_round", args=[event.pk])
    for bad in ("first", "²", "１", "-1", ""):
        response = client.post(close, {"round": bad})
        assert response.status_code == 400, bad
        assert "Say which round to close." in response.content.decode()
    assert selectors.current_round(event).number == 1
    response = client.post(close, {"round": "1"}, HTTP_HX_REQUEST="true")
    assert response["HX-Redirect"] == event.get_absolute_url()
    assert selectors.current_round(event).number == 2
    # The same button pressed again on a page not yet redrawn: refused, said why.
    response = client.post(close, {"round": "1"})
    assert response.status_code == 400
    assert "Round 1 is closed already" in response.content.decode()
    assert selectors.current_round(event).number == 2


def test_keeping_a_player_apart_from_themselves_is_refused(client, setting):
    club, olive, people, event = setting
    entered(event, people)
    client.force_login(olive)
    url = reverse("leagues:event_apart", args=[event.pk])
    response = client.post(url, {"first": people[0].pk, "second": people[0].pk})
    assert (
        response.status_code == 400 and "Choose two different players." in response.content.decode()
    )
    assert not EventApart.objects.exists()
    assert client.post(url, {"first": people[1].pk, "second": people[0].pk}).status_code == 302
    assert selectors.apart_pairs(event) == {frozenset((people[0].pk, people[1].pk))}
    client.force_login(people[2])
    assert client.post(url, {"first": people[2].pk, "second": people[3].pk}).status_code == 403


def test_the_home_page_reminds_a_member_of_an_event_they_entered(client, setting):
    club, olive, people, event = setting
    services.enter_event(event=event, player=people[0])
    client.force_login(people[0])
    page = client.get(reverse("home")).content.decode()
    assert "Your events" in page and event.get_absolute_url() in page


def test_the_admin_shows_an_organiser_their_own_club_s_events_only(client, setting):
    club, olive, people, event = setting
    rival, rex, _ = club_with(1, prefix="r")
    new_event(rival, rex, name="Rival Open")
    entered(event, people)
    services.start_event(event=event, by=olive)
    client.force_login(olive)
    html = client.get("/admin/leagues/event/").content.decode()
    assert "Spring Open" in html and "Rival Open" not in html
    page = client.get(f"/admin/leagues/event/{event.pk}/change/")
    assert page.status_code == 200 and "P0" in page.content.decode()
    assert client.get("/admin/leagues/eventround/").status_code == 200


def test_starting_says_who_was_dropped_for_not_checking_in(client, setting):
    club, olive, people, event = setting
    entered(event, people[:2])
    entered(event, people[2:], check_in=False)
    client.force_login(olive)
    response = client.post(reverse("leagues:event_start", args=[event.pk]), follow=True)
    page = response.content.decode()
    assert "Round 1 is seated. Dropped, not checked in: P2 and P3." in page
    # On the page of the event in play, no entry section and the apart form below it all.
    assert 'id="event-entry"' not in page and "Withdraw" not in page
    assert page.index('id="event-live"') < page.index('id="event-apart"')

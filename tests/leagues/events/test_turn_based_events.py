"""Turn-based events: rounds played over days at turn-based tables, each round with a
deadline. The organiser's form refuses a pace that cannot be run; a round is seated
with turn-based tables; its last table finishing seats the next round; at the deadline
its unfinished tables are played out by the bot, and the next round is seated once."""

from __future__ import annotations

import html
import threading
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games.management.commands.db_worker import _recover_every
from games.models import Scorecard, Table
from leagues.events import deadlines, selectors, services
from leagues.events.forms import EventForm
from leagues.models import Event, EventRound
from tests import driving
from tests.factories import make_player
from tests.leagues.events.test_event_pages import form_data
from tests.leagues.events_helpers import club_with, entered, new_event

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

DAY = Table.MoveTime.D1


def turn_based_event(players: int = 4, **settings):
    club, olive, people = club_with(players)
    fields = {
        "seats_per_table": 2,
        "rounds": 3,
        "table_kind": Event.TableKind.LIVE,
        "move_time": DAY,
        "round_days": 7,
    }
    fields.update(settings)
    event = new_event(club, olive, **fields)
    entered(event, people)
    return club, olive, people, event


def round_tables(event: Event, number: int) -> list[Table]:
    event_round = EventRound.objects.get(event=event, number=number)
    return [Table.objects.get(pk=t.table_id) for t in selectors.round_tables(event_round)]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"table_kind": "hand"}, "move_time", "Turn-based rounds are played at live tables"),
        ({"paper_tables": "1"}, "paper_tables", "A turn-based event plays every table live"),
        ({"turn_timer": "60"}, "turn_timer", "not a turn timer"),
        ({"round_days": ""}, "round_days", "Give each round's length in days (1 to 60)"),
        ({"round_days": "61"}, "round_days", "A round lasts 1 to 60 days."),
        ({"round_days": "0"}, "round_days", "A round lasts 1 to 60 days."),
        (
            {"move_time": str(Table.MoveTime.D3), "round_days": "2"},
            "round_days",
            "A round is shorter than one move's time: give it at least 3 days.",
        ),
        ({"move_time": "", "round_days": "7"}, "round_days", "is for turn-based rounds"),
        ({"move_time": "999"}, "move_time", "Select a valid choice"),
    ],
)
def test_the_event_form_refuses_a_pace_that_cannot_be_run_and_says_why(changes, field, message):
    club, _olive, _people = club_with(0)
    good = {"table_kind": "live", "move_time": str(DAY), "round_days": "7"}
    form = EventForm(form_data(**{**good, **changes}), club=club)
    assert not form.is_valid()
    assert any(message in error for error in form.errors[field]), form.errors
    assert EventForm(form_data(**good), club=club).is_valid()


def test_a_bad_pace_posted_creates_no_event_and_a_good_one_is_shown(client):
    club, olive, _people = club_with(0)
    client.force_login(olive)
    url = reverse("leagues:event_create", args=[club.slug])
    bad = form_data(table_kind="live", move_time=str(DAY), round_days="", name="Slow")
    response = client.post(url, bad)
    assert response.status_code == 400
    assert "Give each round&#x27;s length in days" in response.content.decode()
    assert not Event.objects.filter(name="Slow").exists()
    good = form_data(table_kind="live", move_time=str(DAY), round_days="7", name="Slow")
    assert client.post(url, good).status_code == 302
    event = Event.objects.get(name="Slow")
    assert (event.move_time, event.round_days, event.turn_based) == (DAY, 7, True)
    page = html.unescape(client.get(event.get_absolute_url()).content.decode())
    assert "turn-based: 1 day a move, 7 days a round" in page


def test_services_refuse_a_turn_based_event_at_paper_tables():
    club, olive, _people = club_with(0)
    with pytest.raises(services.ValidationError) as refused:
        new_event(club, olive, move_time=DAY, round_days=7)
    assert "live tables" in str(refused.value.message_dict["move_time"])
    assert not Event.objects.exists()


def test_a_turn_based_round_is_seated_at_turn_based_tables_with_deadlines():
    _club, olive, people, event = turn_based_event()
    first = services.start_event(event=event, by=olive)
    assert first.deadline == first.seated_at + timedelta(days=7)
    tables = round_tables(event, 1)
    assert len(tables) == 2
    for table in tables:
        assert table.turn_based and table.move_time == DAY and table.turn_timer == 0
        assert table.status == Table.Status.PLAYING and table.seats_assigned
        # Every player tees off at once: each has a day from the seating.
        assert table.turn_deadline == table.turn_started_at + timedelta(days=1)


def test_the_last_table_finishing_seats_the_next_turn_based_round(
    django_capture_on_commit_callbacks,
):
    _club, olive, _people, event = turn_based_event()
    services.start_event(event=event, by=olive)
    first, last = round_tables(event, 1)
    with django_capture_on_commit_callbacks(execute=True):
        driving.play_out(table_id=first.pk)
    assert selectors.current_round(event).number == 1
    with django_capture_on_commit_callbacks(execute=True):
        driving.play_out(table_id=last.pk)
    round_one = EventRound.objects.get(event=event, number=1)
    assert round_one.closed_at is not None and round_one.closed_by is None
    second = selectors.current_round(event)
    assert second.number == 2 and second.deadline == second.seated_at + timedelta(days=7)
    assert all(t.turn_based and t.turn_deadline for t in round_tables(event, 2))


def test_at_the_deadline_unfinished_tables_are_played_out_and_the_next_round_seated_once(
    django_capture_on_commit_callbacks,
):
    _club, olive, _people, event = turn_based_event()
    first = services.start_event(event=event, by=olive)
    finished, _unfinished = round_tables(event, 1)
    with django_capture_on_commit_callbacks(execute=True):
        driving.play_out(table_id=finished.pk)
    # Before the deadline nothing is due.
    assert deadlines.close_rounds_due(now=first.deadline - timedelta(minutes=1)) == 0
    assert selectors.current_round(event).number == 1
    with django_capture_on_commit_callbacks(execute=True):
        assert deadlines.close_rounds_due(now=first.deadline) == 1
    tables = round_tables(event, 1)
    assert [t.status for t in tables] == [Table.Status.FINISHED] * 2
    # Played out to the end: nine holes on every card, places given, so points counted.
    cards = Scorecard.objects.filter(table__in=tables)
    assert all(card.holes.count() >= 9 and card.place for card in cards)
    assert sum(selectors.tally(event).points.values()) == 2
    first.refresh_from_db()
    assert first.closed_at is not None and first.closed_by is None
    second = selectors.current_round(event)
    assert second.number == 2 and second.deadline > first.deadline
    # Again: round 1 is closed, and round 2 has its own week from its seating.
    assert deadlines.close_rounds_due(now=second.deadline - timedelta(minutes=1)) == 0
    assert EventRound.objects.filter(event=event).count() == 2


def test_the_play_deadlines_command_closes_a_round_past_its_deadline():
    _club, olive, _people, event = turn_based_event()
    first = services.start_event(event=event, by=olive)
    EventRound.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    call_command("play_deadlines", stdout=open("/dev/null", "w"))  # noqa: SIM115
    first.refresh_from_db()
    assert first.closed_at is not None
    assert selectors.current_round(event).number == 2


@pytest.mark.django_db(transaction=True)
def test_a_task_worker_keeps_the_round_deadlines_too():
    """A deployment runs task workers whether or not it runs `play_deadlines`: each
    worker's periodic thread closes the rounds past their deadline."""
    _club, olive, _people, event = turn_based_event()
    first = services.start_event(event=event, by=olive)
    EventRound.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    stop = threading.Event()
    stop.set()  # one round of the worker's thread, then it stops
    _recover_every(60, stop)
    first.refresh_from_db()
    assert first.closed_at is not None
    assert selectors.current_round(event).number == 2


def test_the_last_rounds_deadline_ends_the_event():
    _club, olive, _people, event = turn_based_event(rounds=1)
    first = services.start_event(event=event, by=olive)
    assert deadlines.close_rounds_due(now=first.deadline) == 1
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert len(selectors.champions(event)) >= 1


def test_the_event_page_shows_the_deadline_each_tables_hole_and_a_players_own_table(client):
    _club, olive, people, event = turn_based_event()
    first = services.start_event(event=event, by=olive)
    mine = next(t for t in round_tables(event, 1) if t.seats.filter(player=people[0]).exists())
    client.force_login(people[0])
    page = client.get(event.get_absolute_url()).content.decode()
    assert f'datetime="{timezone.localtime(first.deadline).isoformat()}"' in page
    assert page.count("Hole 1 of 9") == 2
    assert page.count("Play at your table") == 1
    assert f'class="button small" href="{mine.get_absolute_url()}"' in page
    client.force_login(make_player("stranger"))  # not a member: no page
    assert client.get(event.get_absolute_url()).status_code == 404

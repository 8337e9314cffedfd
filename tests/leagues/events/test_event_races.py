"""Events at the same moment on PostgreSQL, in real threads: players entering at once,
two organisers closing a round at once, a table's results racing the close, and two
deadline sweeps at a turn-based round's deadline. Each holds the event's row, so they go
one after the other and answer as after each other."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from games.models import Scorecard, Table
from leagues.events import deadlines, selectors, services
from leagues.models import Event, EventRound, EventTable, Membership
from tests.factories import even_holes, make_player
from tests.leagues.events_helpers import club_with, default_skill, entered, new_event
from tests.races import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


def test_players_entering_at_once_are_each_entered_once():
    club, olive, people = club_with(8)
    event = new_event(club, olive, seats_per_table=2)
    calls = [lambda p=p: services.enter_event(event=event, player=p) for p in people]
    calls += [lambda: services.enter_event(event=event, player=people[0])]
    results = at_once(*calls)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert event.entries.count() == 8


def test_two_withdrawals_at_once_let_in_the_first_two_waiting_once_each():
    club, olive, people = club_with(6)
    event = new_event(club, olive, seats_per_table=2, max_entries=2)
    for person in people:
        services.enter_event(event=event, player=person)
    results = at_once(
        lambda: services.withdraw(event=event, player=people[0]),
        lambda: services.withdraw(event=event, player=people[1]),
    )
    assert results == [True, True], results
    entered = set(event.entries.values_list("player_id", flat=True))
    assert entered == {people[2].pk, people[3].pk}
    waiting = list(event.waiting.order_by("position").values_list("player_id", flat=True))
    assert waiting == [people[4].pk, people[5].pk]


def test_two_organisers_closing_a_round_at_once_seat_the_next_round_once():
    club, olive, people = club_with(4)
    otto = make_player("otto")
    Membership.objects.create(club=club, player=otto, role=Membership.Role.ORGANISER)
    event = new_event(club, olive, seats_per_table=2, rounds=3)
    entered(event, people)
    services.start_event(event=event, by=olive)
    results = at_once(
        lambda: services.close_round(event=event, number=1, by=olive),
        lambda: services.close_round(event=event, number=1, by=otto),
    )
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 1 and "Round 1 is closed already" in str(refused[0])
    assert [r.number for r in EventRound.objects.filter(event=event)] == [1, 2]
    assert EventTable.objects.filter(round__event=event, round__number=2).count() == 2


def test_the_last_results_racing_the_close_count_or_are_refused_never_both():
    club, olive, people = club_with(4)
    event = new_event(club, olive, seats_per_table=2, rounds=3)
    entered(event, people)
    services.start_event(event=event, by=olive)
    first, last = selectors.round_tables(selectors.current_round(event))
    skill = default_skill(event)

    def holes(event_table):
        return even_holes(*[skill[k] for k in selectors.seated(event_table)])

    services.enter_event_results(event_table=first, hole_scores=holes(first), by=olive)
    last = EventTable.objects.select_related("round__event", "table").get(pk=last.pk)
    results = at_once(
        lambda: services.enter_event_results(event_table=last, hole_scores=holes(last), by=olive),
        lambda: services.close_round(event=event, number=1, by=olive),
    )
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), results
    # Either the results came first (they closed the round; the close is refused) or the
    # close did (the table is forfeited; its results are refused): one round 2 either way.
    assert [r.number for r in EventRound.objects.filter(event=event)] == [1, 2]
    counted = selectors.tally(event)
    assert sum(counted.points.values()) in (1, 2)


def test_two_sweeps_at_a_rounds_deadline_play_it_out_and_seat_the_next_round_once():
    club, olive, people = club_with(4)
    event = new_event(
        club,
        olive,
        seats_per_table=2,
        rounds=3,
        table_kind=Event.TableKind.LIVE,
        move_time=Table.MoveTime.D1,
        round_days=7,
    )
    entered(event, people)
    first = services.start_event(event=event, by=olive)
    results = at_once(
        lambda: deadlines.close_rounds_due(now=first.deadline),
        lambda: deadlines.close_rounds_due(now=first.deadline),
    )
    assert sorted(results) == [0, 1], results
    assert [r.number for r in EventRound.objects.filter(event=event)] == [1, 2]
    assert EventTable.objects.filter(round__event=event, round__number=2).count() == 2
    tables = [t.table_id for t in EventTable.objects.filter(round=first)]
    assert set(Table.objects.filter(pk__in=tables).values_list("status", flat=True)) == {
        Table.Status.FINISHED
    }
    # Each match played out once: nine holes (and playoff holes, if any) a card, not more.
    for card in Scorecard.objects.filter(table__in=tables):
        numbers = list(card.holes.values_list("number", flat=True))
        assert sorted(numbers) == list(range(1, len(numbers) + 1)) and len(numbers) >= 9

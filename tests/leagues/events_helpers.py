"""Shared steps of the event tests: an event of a club, entered and checked in by its
players, and its paper tables played with strokes that rank the players the same way
every round."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.models import Table
from leagues.events import selectors, services
from leagues.models import Event, EventTable
from tests.factories import even_holes, make_club, make_player


def club_with(count: int, prefix: str = "p"):
    """A club with an organiser (Olive) and `count` members."""
    olive = make_player(f"{prefix}olive", display_name="Olive")
    people = [make_player(f"{prefix}{n}", display_name=f"P{n}") for n in range(count)]
    return make_club(organiser=olive, members=people), olive, people


def new_event(club, olive, **settings) -> Event:
    now = timezone.now()
    fields = {
        "name": "Spring Open",
        "format": Event.Format.SWISS,
        "variant": "play-nine",
        "seats_per_table": 4,
        "rounds": 3,
        "starts_at": now + timedelta(days=1),
        "entry_closes_at": now + timedelta(hours=20),
    }
    fields.update(settings)
    return services.create_event(club=club, by=olive, **fields)


def full_event(club, olive, people) -> Event:
    """The Summer Cup, of two seats at most, entered by `people` in order: the first two
    are in, the rest wait in line."""
    now = timezone.now()
    event = new_event(
        club,
        olive,
        name="Summer Cup",
        seats_per_table=2,
        max_entries=2,
        starts_at=now + timedelta(days=3),
        entry_closes_at=now + timedelta(days=2),
    )
    entered(event, people, check_in=False)
    return event


def entered(event: Event, people, *, check_in: bool = True) -> None:
    for player in people:
        services.enter_event(event=event, player=player)
        if check_in:
            services.check_in(event=event, player=player, by=player)


def default_skill(event: Event) -> dict[int, int]:
    """Each entrant's total at every table: the earlier made, the better they play."""
    keys = sorted(event.entries.values_list("player_id", flat=True))
    return {key: 20 + index for index, key in enumerate(keys)}


def play_paper_round(event: Event, olive, skill: dict[int, int] | None = None) -> int:
    """Enter every unfinished paper table of the current round; how many were entered."""
    event.refresh_from_db()
    skill = skill or default_skill(event)
    current = selectors.current_round(event)
    done = 0
    for event_table in selectors.unfinished(selectors.round_tables(current)):
        if event_table.table.kind != Table.Kind.PAPER:
            continue  # a live table is played, not entered
        event_table = EventTable.objects.select_related("round__event").get(pk=event_table.pk)
        seats = event_table.table.seats.select_related("player").order_by("position")
        totals = [skill[seat.player_id] for seat in seats]
        services.enter_event_results(
            event_table=event_table, hole_scores=even_holes(*totals), by=olive
        )
        done += 1
    return done


def play_to_the_end(event: Event, olive, skill=None, limit: int = 30) -> Event:
    for _ in range(limit):
        event.refresh_from_db()
        if event.status == Event.Status.FINISHED:
            return event
        play_paper_round(event, olive, skill)
    raise AssertionError("The event did not end.")

"""Reads of events: the pairs kept apart, each finished table's points, the standings
(with their tie-breaks) or the bracket, and an event as its page shows it.

Points per table go by place: at a table of N seats, 1st earns N-1, 2nd N-2 and so on to
0 for last; players sharing a place share the points of the places they cover. A bye
earns what a win at a full table earns, with no strokes. A table that was not finished
when its round was closed is forfeited: it earns nobody anything (its meeting counts).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from fractions import Fraction

from django.db.models import Count, Max, Q, QuerySet, Sum

from games.engine.match import HOLES
from games.models import Hole, Scorecard, Table

from ..models import Event, EventEntry, EventRound, EventTable, Player
from ..teams.selectors import teammate_pairs
from . import pairing

TIE_BREAKS = (
    "Most points; then most opponents' points (the points of everyone met, once per "
    "meeting; a bye counts as a full table of opponents holding the player's own points, "
    "as a chess Swiss counts a round not played); then fewest strokes per hole played "
    "(not in total, so a bye neither helps nor hurts). Players level on all three share "
    "a place, listed by name."
)


def apart_pairs(event: Event) -> set[frozenset[int]]:
    """The pairs of players kept apart at this event's tables (family, the organiser's
    list; and teammates, when the event is its team league's), as frozensets of two
    player ids."""
    pairs = {frozenset(pair) for pair in event.apart.values_list("first_id", "second_id")}
    if event.league_id is not None:
        entrants = event.entries.values_list("player_id", flat=True)
        pairs |= teammate_pairs(event.league, entrants)
    return pairs


def active_entries(event: Event) -> QuerySet[EventEntry]:
    """The entrants who play: not dropped as a no-show."""
    return event.entries.filter(dropped=False).select_related("player")


def place_points(places: dict[int, int | None], seats: int) -> dict[int, float]:
    """Points by place at a table of `seats`: N-1 for 1st down to 0, a shared place
    sharing the points of the places it covers."""
    counts = Counter(p for p in places.values() if p is not None)
    points = {}
    for key, place in places.items():
        if place is None:
            points[key] = 0.0
            continue
        covered = [max(seats - p, 0) for p in range(place, place + counts[place])]
        points[key] = sum(covered) / len(covered)
    return points


def bye_points(event: Event) -> float:
    return float(event.seats_per_table - 1)


@dataclass(frozen=True)
class TableResult:
    """One finished table of an event: each player's place, nine-hole strokes (and the
    holes they cover) and points."""

    event_table: EventTable
    places: dict[int, int | None]
    strokes: dict[int, int]
    points: dict[int, float]
    holes: dict[int, int] = field(default_factory=dict)


def table_results(tables: list[EventTable]) -> dict[int, TableResult]:
    """The results of the finished tables among `tables`, by event table id."""
    finished = [t for t in tables if t.table.status == Table.Status.FINISHED]
    cards = (
        Scorecard.objects.filter(table__in=[t.table_id for t in finished])
        .exclude(player=None)
        .annotate(
            nine=Sum("holes__strokes", filter=Q(holes__number__lte=HOLES)),
            played=Count("holes", filter=Q(holes__number__lte=HOLES)),
        )
        .values_list("table_id", "player_id", "place", "nine", "played")
    )
    by_table: dict[int, list] = {}
    for table_id, player_id, place, nine, played in cards:
        by_table.setdefault(table_id, []).append((player_id, place, nine or 0, played))
    results = {}
    for event_table in finished:
        rows = by_table.get(event_table.table_id, [])
        places = {player: place for player, place, _, _ in rows}
        results[event_table.pk] = TableResult(
            event_table,
            places,
            {player: nine for player, _, nine, _ in rows},
            place_points(places, len(rows)),
            {player: played for player, _, _, played in rows},
        )
    return results


def event_tables(event: Event) -> list[EventTable]:
    return list(
        EventTable.objects.filter(round__event=event)
        .select_related("table", "round")
        .order_by("round__number", "number")
    )


def seated(event_table: EventTable) -> list[int]:
    """The player ids at a table, by seat."""
    return list(
        event_table.table.seats.order_by("position")
        .exclude(player=None)
        .values_list("player_id", flat=True)
    )


def seated_at(tables: list[EventTable]) -> dict[int, list[int]]:
    """The player ids at each of `tables`, by seat (`seated`), by event table id: one
    query for them all."""
    by_table: dict[int, list[int]] = {table.table_id: [] for table in tables}
    seats = (
        Table.objects.filter(pk__in=by_table, seats__player__isnull=False)
        .order_by("pk", "seats__position")
        .values_list("pk", "seats__player_id")
    )
    for table_id, player_id in seats:
        by_table[table_id].append(player_id)
    return {table.pk: by_table[table.table_id] for table in tables}


@dataclass
class Tally:
    """What the rounds so far add up to: points, strokes (and the holes they cover),
    byes, the tables played (as strokes by player) and every meeting."""

    points: dict[int, float] = field(default_factory=dict)
    strokes: dict[int, int] = field(default_factory=dict)
    holes: dict[int, int] = field(default_factory=dict)
    byes: Counter = field(default_factory=Counter)
    results: list[dict[int, int]] = field(default_factory=list)
    met: dict[frozenset[int], int] = field(default_factory=dict)


def tally(event: Event) -> Tally:
    """Points, strokes, byes and meetings over the event's rounds (playoff tables of a
    knockout count no points)."""
    keys = list(active_entries(event).values_list("player_id", flat=True))
    counted = Tally(points=dict.fromkeys(keys, 0.0), strokes=dict.fromkeys(keys, 0))
    tables = event_tables(event)
    results = table_results(tables)
    players = seated_at(tables)
    seatings = []
    for event_table in tables:
        if event_table.playoff_of_id is not None:
            continue
        seatings.append(players[event_table.pk])
        result = results.get(event_table.pk)
        if result is None:
            continue  # in play, or forfeited at the round's close
        counted.results.append(result.strokes)
        for key, points in result.points.items():
            counted.points[key] = counted.points.get(key, 0.0) + points
            counted.strokes[key] = counted.strokes.get(key, 0) + result.strokes[key]
            counted.holes[key] = counted.holes.get(key, 0) + result.holes.get(key, 0)
    for event_round in event.event_rounds.all():
        for key in event_round.byes:
            counted.byes[key] += 1
            counted.points[key] = counted.points.get(key, 0.0) + bye_points(event)
    counted.met = pairing.meetings(seatings)
    return counted


@dataclass(frozen=True)
class Line:
    place: int
    player: Player
    points: float
    strokes: int
    per_hole: Fraction | None
    opponents: float
    byes: int


def event_standings(event: Event) -> list[Line]:
    """The standings, best first, with every tie-break's figure (`TIE_BREAKS`)."""
    counted = tally(event)
    players = {e.player_id: e.player for e in active_entries(event)}
    points = {k: counted.points.get(k, 0.0) for k in players}
    lines = pairing.standings(
        points,
        counted.results,
        counted.holes,
        byes=counted.byes,
        bye_opponents=event.seats_per_table - 1,
    )
    # Within a shared place, by name: the stable last key the page states.
    lines = sorted(
        (s for s in lines if s.key in players),
        key=lambda s: (s.place, players[s.key].name.casefold(), s.key),
    )
    return [
        Line(
            s.place,
            players[s.key],
            s.points,
            s.strokes,
            s.per_hole,
            s.opponents,
            counted.byes[s.key],
        )
        for s in lines
    ]


def current_round(event: Event) -> EventRound | None:
    return event.event_rounds.order_by("-number").first()


def round_tables(event_round: EventRound) -> list[EventTable]:
    return list(event_round.tables.select_related("table").order_by("number"))


def unfinished(tables: list[EventTable]) -> list[EventTable]:
    return [t for t in tables if t.table.status != Table.Status.FINISHED]


def champions(event: Event) -> list[Player]:
    """Who won a finished event: the top of the standings (joint when level), or the
    winner of a knockout's final table."""
    if event.status != Event.Status.FINISHED:
        return []
    if event.format == Event.Format.KNOCKOUT:
        return [event.champion] if event.champion_id else []
    return [line.player for line in event_standings(event) if line.place == 1]


# --- the page -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    name: str
    place: int | None
    strokes: int | None
    points: float | None
    through: bool = False
    #: The knockout's winner, at the final's table (where nobody goes "through").
    champion: bool = False


@dataclass(frozen=True)
class TableView:
    event_table: EventTable
    number: int
    live: bool
    finished: bool
    forfeited: bool
    playoff: bool
    seats: list[SeatView]
    #: The hole in play at a live table (its match's progress), None before and after.
    hole: int | None = None
    #: Who sits at the table (a player is shown the way to their own).
    player_ids: tuple[int, ...] = ()

    @property
    def url(self) -> str:
        return self.event_table.table.get_absolute_url()

    @property
    def holes(self) -> int:
        return HOLES

    @property
    def turn_deadline(self) -> datetime | None:
        """When a turn-based table's next move is due."""
        return self.event_table.table.turn_deadline if not self.finished else None


@dataclass(frozen=True)
class RoundView:
    number: int
    closed: bool
    closed_by_organiser: bool
    tables: list[TableView]
    byes: list[str]
    together: list[str]
    repeats: int
    #: A turn-based round's deadline: its unfinished tables are played out then.
    deadline: datetime | None = None


@dataclass(frozen=True)
class EventView:
    event: Event
    rounds: list[RoundView]
    standings: list[Line]
    champions: list[Player]
    entrants: list[EventEntry]
    tie_breaks: str = TIE_BREAKS

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def stamp(self) -> str:
        """A digest of what the live part shows."""
        parts = [self.event.status]
        for r in self.rounds:
            parts.append(repr((r.number, r.closed, r.byes, r.together)))
            parts += [repr((t.number, t.finished, t.forfeited, t.seats, t.hole)) for t in r.tables]
        parts += [repr((line.place, line.player.pk, line.points)) for line in self.standings]
        parts.append(repr([e.pk for e in self.entrants]))
        return hashlib.sha1("|".join(parts).encode()).hexdigest()[:16]


def event_view(event: Event) -> EventView:
    """The event as its page and its live part show it to everyone."""
    entrants = list(event.entries.select_related("player").order_by("entered_at", "pk"))
    names = {e.player_id: e.player.name for e in entrants}
    tables = event_tables(event)
    results = table_results(tables)
    seats: dict[int, list[int]] = {}
    for seat_table, player_id in (
        EventTable.objects.filter(round__event=event)
        .exclude(table__seats__player=None)
        .values_list("pk", "table__seats__player_id")
        .order_by("pk", "table__seats__position")
    ):
        seats.setdefault(seat_table, []).append(player_id)
    in_play = [t.table_id for t in tables if t.table.status == Table.Status.PLAYING]
    holes = dict(
        Hole.objects.filter(table__in=in_play)
        .values("table_id")
        .annotate(latest=Max("number"))
        .values_list("table_id", "latest")
    )
    # A knockout marks who went through: those seated in the next round.
    in_round: dict[int, set[int]] = {}
    for t in tables:
        if t.playoff_of_id is None:
            in_round.setdefault(t.round.number, set()).update(seats.get(t.pk, []))
    winner = {event.champion_id} if event.champion_id else set()
    knockout = event.format == Event.Format.KNOCKOUT
    rounds = []
    for event_round in event.event_rounds.all():
        # The final sends nobody through: its winner is the champion, marked as such.
        following = in_round.get(event_round.number + 1, set()) if knockout else set()
        final = knockout and event_round.number + 1 not in in_round
        views = []
        for t in (t for t in tables if t.round_id == event_round.pk):
            result = results.get(t.pk)
            finished = result is not None
            views.append(
                TableView(
                    t,
                    t.number,
                    t.table.kind == Table.Kind.LIVE,
                    finished,
                    not finished and event_round.closed_at is not None,
                    t.playoff_of_id is not None,
                    [
                        SeatView(
                            names.get(key, "?"),
                            result.places.get(key) if result else None,
                            result.strokes.get(key) if result else None,
                            None if result is None or knockout else result.points[key],
                            key in following,
                            final and key in winner,
                        )
                        for key in seats.get(t.pk, [])
                    ],
                    holes.get(t.table_id),
                    tuple(seats.get(t.pk, [])),
                )
            )
        rounds.append(
            RoundView(
                event_round.number,
                event_round.closed_at is not None,
                event_round.closed_by_id is not None,
                views,
                [names.get(k, "?") for k in event_round.byes],
                [" and ".join(names.get(k, "?") for k in pair) for pair in event_round.together],
                event_round.repeats,
                event_round.deadline,
            )
        )
    standings = [] if knockout else event_standings(event)
    return EventView(event, rounds, standings, champions(event), entrants)


def club_events(club) -> QuerySet[Event]:
    return club.events.order_by("-starts_at", "pk")


def upcoming_entries(player: Player, now: datetime) -> QuerySet[Event]:
    """The events `player` entered that are in play or still to start, soonest first."""
    return (
        Event.objects.filter(entries__player=player, entries__dropped=False)
        .filter(
            Q(status=Event.Status.PLAYING)
            | Q(status=Event.Status.ENTRY, starts_at__gte=now - timedelta(days=1))
        )
        .select_related("club")
        .order_by("starts_at")
    )


def events_to_remind(start: datetime, end: datetime) -> QuerySet[Event]:
    """Events still taking entries that start between `start` and `end`."""
    return Event.objects.filter(
        status=Event.Status.ENTRY, starts_at__gte=start, starts_at__lt=end
    ).select_related("club")

"""Writes of events: created by a club's organiser, entered and withdrawn by its members
until the cut-off, checked in, and run round by round by the system.

Every write that reads what the event holds and then changes it holds the event's row
first (`hold_event`): two players entering at once, or two organisers closing a round at
once, go one after the other, and the second sees the first's work.

A round is seated (`pairing`) when the event starts, and the next one as soon as the
last table of a round finishes (a live table's match over, `table_finished`; a paper
table's results entered, `enter_event_results`) or an organiser closes the round
(`close_round`). Closing forfeits the tables not finished: in a Swiss or round robin
they earn nobody anything; in a knockout their best seeds go through. A live table is
dealt its first hole as it is seated: everyone has checked in. A turn-based event's
round has a deadline, at which its unfinished tables are played out by the bot and the
round closes (`deadlines`).

A write that changes what the event's page shows says so through the league's news
(`leagues.news.event_changed`), and knows no screen: the page's sockets hear it in
`leagues.signals` (`announce_event_changed`, after the commit).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games import announce, scorecards
from games.models import Table

from ..bounds import MAX_PAPER_TABLES
from ..guards import require_organiser
from ..models import (
    Club,
    Event,
    EventApart,
    EventEntry,
    EventRound,
    EventTable,
    EventWaiting,
    League,
    Player,
)
from ..news import send_event_changed
from ..seating import dealing
from ..seating.tables import open_table
from . import pairing, selectors, waiting

#: Rounds an event may have at most, and tables of how many seats.
MAX_ROUNDS = 20
SEATS = (2, 8)


def event_group(event_id: int) -> str:
    """The channel-layer group of an event's open pages."""
    return f"event_{event_id}"


def announce_event_changed(event_id: int) -> None:
    """After the commit, tell the event's open pages to read it again (the news
    `leagues.news.event_changed`, heard in `leagues.signals`)."""
    announce.group_changed(event_group(event_id), {"type": "event.changed"})


def hold_event(event: Event) -> Event:
    """Lock the event's row until the transaction ends, and read it as it now stands."""
    # Only the event's row: its league is an outer join, which PostgreSQL does not lock.
    locked = Event.objects.select_for_update(of=("self",))
    return locked.select_related("club", "league").get(pk=event.pk)


def _refuse(message: str, field: str | None = None) -> None:
    raise ValidationError({field: message} if field else message)


# --- setting up ------------------------------------------------------------------------------


@transaction.atomic
def create_event(
    *,
    club: Club,
    by: Player,
    name: str,
    format: str,
    variant: str,
    house_rules: Sequence[str] = (),
    seats_per_table: int = 4,
    rounds: int = 3,
    advance: int = 2,
    table_kind: str = Event.TableKind.PAPER,
    paper_tables: int = 0,
    turn_timer: int = Table.Timer.OFF,
    move_time: int = Table.MoveTime.LIVE,
    round_days: int | None = None,
    starts_at: datetime,
    entry_closes_at: datetime,
    late_entries: bool = False,
    max_entries: int | None = None,
    league: League | None = None,
) -> Event:
    """A new event of `club` (organisers only), taking entries until `entry_closes_at`."""
    require_organiser(by, club)
    event = Event(
        club=club,
        league=league,
        name=name.strip(),
        format=format,
        variant=variant,
        house_rules=list(house_rules),
        seats_per_table=seats_per_table,
        rounds=rounds,
        advance=advance,
        table_kind=table_kind,
        paper_tables=paper_tables or 0,
        turn_timer=turn_timer,
        move_time=move_time or Table.MoveTime.LIVE,
        round_days=round_days,
        starts_at=starts_at,
        entry_closes_at=entry_closes_at,
        late_entries=late_entries,
        max_entries=max_entries,
        created_by=by,
    )
    check_settings(event)
    event.full_clean()
    event.save()
    return event


def check_settings(event: Event) -> None:
    """Refuse settings the event cannot be run with, each with its reason."""
    errors: dict[str, str] = event.pace_errors()
    try:
        rules = event.rules
    except ValueError as error:
        raise ValidationError({"house_rules": str(error)}) from None
    low, high = max(SEATS[0], rules.min_players), min(SEATS[1], rules.max_players)
    if not low <= event.seats_per_table <= high:
        errors["seats_per_table"] = f"{rules.name} is played at tables of {low} to {high}."
    if event.format == Event.Format.KNOCKOUT:
        if not 1 <= event.advance < event.seats_per_table:
            errors["advance"] = (
                f"From a table of {event.seats_per_table}, 1 to {event.seats_per_table - 1} "
                "go through."
            )
    elif not 1 <= event.rounds <= MAX_ROUNDS:
        errors["rounds"] = f"An event has 1 to {MAX_ROUNDS} rounds."
    # Numbers the format does not use are bound all the same: nothing past sense is kept.
    if "rounds" not in errors and not 1 <= event.rounds <= MAX_ROUNDS:
        errors["rounds"] = f"An event has 1 to {MAX_ROUNDS} rounds."
    if "advance" not in errors and not 1 <= event.advance < SEATS[1]:
        errors["advance"] = f"1 to {SEATS[1] - 1} go through from a table."
    if not 0 <= event.paper_tables <= MAX_PAPER_TABLES:
        errors["paper_tables"] = f"0 to {MAX_PAPER_TABLES} tables a round play on paper."
    if event.entry_closes_at and event.starts_at and event.entry_closes_at > event.starts_at:
        errors["entry_closes_at"] = "Entry closes before the event starts, or as it starts."
    if event.league_id and event.league.club_id != event.club_id:
        errors["league"] = "Choose one of the club's own leagues."
    if errors:
        raise ValidationError(errors)


# --- entry and check-in ----------------------------------------------------------------------


def _taking_entries(event: Event) -> None:
    if event.status != Event.Status.ENTRY:
        _refuse(f"{event.name} has started: entries and check-ins are closed.")


def _member(event: Event, player: Player) -> None:
    if not event.club.memberships.filter(player=player).exists():
        _refuse(f"Only members of {event.club.name} enter its events.")


@transaction.atomic
def enter_event(
    *, event: Event, player: Player, now: datetime | None = None
) -> EventEntry | EventWaiting:
    """A member enters themselves, until the cut-off; entering twice is harmless. Past
    the event's cap they wait in order (`waiting`)."""
    event = hold_event(event)
    _taking_entries(event)
    _member(event, player)
    if (now or timezone.now()) >= event.entry_closes_at:
        closed = timezone.localtime(event.entry_closes_at)
        _refuse(f"Entry to {event.name} closed at {closed:%H:%M on %d %b}: ask an organiser.")
    entry = EventEntry.objects.filter(event=event, player=player).first()
    if entry is None and waiting.is_full(event):
        entry = waiting.join(event, player)  # past the cap: waits in order
    elif entry is None:
        entry = EventEntry.objects.create(event=event, player=player)
    send_event_changed(event.pk)
    return entry


@transaction.atomic
def withdraw(*, event: Event, player: Player) -> bool:
    """A member takes their entry (or their place on the waiting list) back before
    round 1, which lets the first waiting member in; whether they had one."""
    event = hold_event(event)
    _taking_entries(event)
    removed, _ = EventEntry.objects.filter(event=event, player=player).delete()
    left, _ = event.waiting.filter(player=player).delete()
    if removed:
        waiting.let_in_first(event)
    send_event_changed(event.pk)
    return bool(removed or left)


@transaction.atomic
def change_waiting(*, event: Event, waiting_id: int, action: str, by: Player) -> EventWaiting:
    """An organiser lets a waiting member in (past the cap: their call), moves them up
    or down the list, or takes them off it."""
    require_organiser(by, event.club)
    event = hold_event(event)
    _taking_entries(event)
    wait = event.waiting.select_related("player").filter(pk=waiting_id).first()
    if wait is None:
        _refuse("That member is no longer on the waiting list.")
    if action == "promote":
        waiting.let_in(event, wait)
    elif action in ("up", "down"):
        waiting.move(event, wait, -1 if action == "up" else 1)
    elif action == "remove":
        wait.delete()
    else:
        _refuse("Choose to let in, move up, move down or remove.")
    send_event_changed(event.pk)
    return wait


@transaction.atomic
def add_entry(
    *, event: Event, player: Player, by: Player, now: datetime | None = None
) -> EventEntry:
    """An organiser enters a member: before the cut-off, or after it (a late entry)
    when the event takes late entries."""
    require_organiser(by, event.club)
    event = hold_event(event)
    _taking_entries(event)
    _member(event, player)
    late = (now or timezone.now()) >= event.entry_closes_at
    if late and not event.late_entries:
        _refuse(f"{event.name} takes no late entries.")
    entry, _ = EventEntry.objects.get_or_create(event=event, player=player, defaults={"late": late})
    event.waiting.filter(player=player).delete()  # entered by the organiser: waits no more
    send_event_changed(event.pk)
    return entry


@transaction.atomic
def check_in(*, event: Event, player: Player, by: Player, now: datetime | None = None) -> None:
    """An entrant checks in before round 1 (or an organiser checks them in)."""
    if by.pk != player.pk:
        require_organiser(by, event.club)
    event = hold_event(event)
    _taking_entries(event)
    updated = EventEntry.objects.filter(event=event, player=player, checked_in_at=None).update(
        checked_in_at=now or timezone.now()
    )
    if not updated and not EventEntry.objects.filter(event=event, player=player).exists():
        _refuse(f"{player.name} has not entered {event.name}.")
    send_event_changed(event.pk)


@transaction.atomic
def keep_apart(*, event: Event, first: Player, second: Player, by: Player) -> EventApart:
    """An organiser asks that two players never share a table, when a seating can avoid it."""
    require_organiser(by, event.club)
    event = hold_event(event)
    if first.pk == second.pk:
        _refuse("Choose two different players.")
    if event.status == Event.Status.FINISHED:
        _refuse(f"{event.name} is over.")
    low, high = sorted((first, second), key=lambda p: p.pk)
    apart, _ = EventApart.objects.get_or_create(event=event, first=low, second=high)
    return apart


@transaction.atomic
def let_together(*, event: Event, apart_id: int, by: Player) -> None:
    require_organiser(by, event.club)
    EventApart.objects.filter(event=event, pk=apart_id).delete()


# --- the rounds --------------------------------------------------------------------------


@transaction.atomic
def start_event(*, event: Event, by: Player) -> EventRound:
    """An organiser starts the event: entrants who did not check in are dropped, and
    round 1 is seated."""
    require_organiser(by, event.club)
    event = hold_event(event)
    _taking_entries(event)
    present = event.entries.exclude(checked_in_at=None).count()
    fewest = max(2, event.rules.min_players)
    if present < fewest:
        _refuse(f"{present} checked in: an event needs at least {fewest} players.")
    event.entries.filter(checked_in_at=None).update(dropped=True)
    event.status = Event.Status.PLAYING
    event.save(update_fields=["status"])
    seated = _seat_round(event, 1)
    send_event_changed(event.pk)
    return seated


@transaction.atomic
def close_round(*, event: Event, number: int, by: Player) -> EventRound | None:
    """An organiser closes round `number`, the one they saw: its unfinished tables are
    forfeited and the next round is seated (or the champion named). The next round
    back, or None when the event is over."""
    require_organiser(by, event.club)
    event = hold_event(event)
    current = selectors.current_round(event)
    if event.status != Event.Status.PLAYING or current is None:
        _refuse(f"{event.name} has no round in play.")
    if current.number != number or current.closed_at is not None:
        _refuse(f"Round {number} is closed already: the page shows the event as it now stands.")
    return _close(event, current, by=by)


def table_finished(*, table_id: int) -> None:
    """A live event table's match is over: seat the next round if it was the last table
    of its round (`leagues.signals`, after the move's commit)."""
    event_table = EventTable.objects.filter(table_id=table_id).select_related("round__event")
    event_table = event_table.first()
    if event_table is not None:
        with transaction.atomic():
            _progress(event_table.round.event)


@transaction.atomic
def enter_event_results(
    *, event_table: EventTable, hole_scores: Sequence[Sequence[object]], by: Player
) -> None:
    """An organiser enters a paper table's holes (checked by the match rules); the next
    round is seated if it was the round's last table."""
    event = event_table.round.event
    require_organiser(by, event.club)
    event = hold_event(event)
    event_round = EventRound.objects.get(pk=event_table.round_id)
    if event_round.closed_at is not None:
        _refuse(f"Round {event_round.number} is closed: this table was forfeited.")
    scorecards.record_paper_results(table=event_table.table, hole_scores=hole_scores)
    _progress(event)


def _progress(event: Event) -> None:
    """Under the event's lock: close the current round if every table is done, and seat
    what follows (a knockout's playoff tables, or the next round)."""
    event = hold_event(event)
    current = selectors.current_round(event)
    send_event_changed(event.pk)
    if event.status != Event.Status.PLAYING or current is None or current.closed_at is not None:
        return
    tables = selectors.round_tables(current)
    if selectors.unfinished(tables):
        return
    if event.format == Event.Format.KNOCKOUT and _knockout_playoffs(event, current, tables):
        return
    _close(event, current, by=None)


def close_held_round(event: Event, current: EventRound) -> EventRound | None:
    """Under the event's lock (`hold_event`): close `current` as nobody's act (its
    deadline passed), and seat the next round or name the champion."""
    return _close(event, current, by=None)


def _close(event: Event, current: EventRound, *, by: Player | None) -> EventRound | None:
    current.closed_at = timezone.now()
    current.closed_by = by
    current.save(update_fields=["closed_at", "closed_by"])
    send_event_changed(event.pk)
    if event.format == Event.Format.KNOCKOUT:
        survivors = _knockout_survivors(event, current)
        tables = selectors.round_tables(current)
        if len(survivors) <= 1 or len([t for t in tables if t.playoff_of_id is None]) == 1:
            return _finish(event, survivors[0] if survivors else None)
        return _seat_round(event, current.number + 1, survivors)
    if current.number >= total_rounds(event):
        return _finish(event)
    return _seat_round(event, current.number + 1)


def _finish(event: Event, champion: int | None = None) -> None:
    event.status = Event.Status.FINISHED
    event.finished_at = timezone.now()
    event.champion_id = champion
    event.save(update_fields=["status", "finished_at", "champion"])
    return None


def total_rounds(event: Event) -> int:
    """Rounds of a Swiss (as set), or of a round robin at tables of two (everyone meets
    everyone: one round fewer than an even field)."""
    if event.format == Event.Format.ROUND_ROBIN and event.seats_per_table == 2:
        players = selectors.active_entries(event).count()
        return players - 1 if players % 2 == 0 else players
    return event.rounds


def _seeds(event: Event) -> list[int]:
    """Entrants best first: by the league's ratings when the event has a league, else
    in the order they entered."""
    entries = selectors.active_entries(event).order_by("entered_at", "pk")
    keys = list(entries.values_list("player_id", flat=True))
    if event.league_id is None:
        return keys
    ratings = {r.player_id: r.ordinal for r in event.league.ratings.all()}
    return sorted(keys, key=lambda k: -ratings.get(k, 0.0))


def _pairing(event: Event, number: int, survivors: list[int] | None) -> pairing.Round:
    most, fewest = event.seats_per_table, max(2, event.rules.min_players)
    apart = selectors.apart_pairs(event)
    if event.format == Event.Format.KNOCKOUT:
        return pairing.knockout_round(survivors or _seeds(event), most, fewest)
    counted = selectors.tally(event)
    keys = _seeds(event)
    if event.format == Event.Format.ROUND_ROBIN:
        if most == 2:
            return pairing.round_robin_pairs(sorted(keys))[number - 1]
        return pairing.mixing_round(keys, counted.met, most, fewest, apart, counted.byes)
    ratings = {k: -index for index, k in enumerate(keys)}  # entry order breaks the last ties
    entrants = [
        pairing.Entrant(
            key=k,
            points=counted.points.get(k, 0.0),
            strokes=counted.strokes.get(k, 0),
            holes=counted.holes.get(k, 0),
            rating=ratings[k],
            byes=counted.byes[k],
        )
        for k in keys
    ]
    return pairing.swiss_round(entrants, counted.met, most, fewest, apart)


def _seat_round(event: Event, number: int, survivors: list[int] | None = None) -> EventRound:
    seating = _pairing(event, number, survivors)
    # A knockout's seating asks nothing of the pairs kept apart: its seeds decide.
    apart = selectors.apart_pairs(event)
    together = sorted(sorted(two) for two in dealing.together(seating.tables, apart))
    event_round = EventRound.objects.create(
        event=event,
        number=number,
        byes=list(seating.byes),
        together=together,
        repeats=len(seating.repeats),
    )
    length = event.round_length()
    if length is not None:
        event_round.deadline = event_round.seated_at + length
        event_round.save(update_fields=["deadline"])
    players = Player.objects.in_bulk([k for t in seating.tables for k in t])
    live = len(seating.tables) - event.paper_tables
    if event.table_kind != Event.TableKind.LIVE:
        live = 0
    for number_at, keys in enumerate(seating.tables, start=1):
        _open_table(event, event_round, number_at, [players[k] for k in keys], number_at <= live)
    send_event_changed(event.pk)
    return event_round


def _open_table(
    event: Event,
    event_round: EventRound,
    number: int,
    players: list[Player],
    live: bool,
    playoff_of: EventTable | None = None,
    places: int = 0,
) -> EventTable:
    table = open_table(
        host=event.created_by,
        variant=event.variant,
        house_rules=event.house_rules,
        players=players,
        live=live,
        # An absent player's turns are the timer's, not a hold on the round.
        turn_timer=event.turn_timer,
        # Everyone checked in: the match is dealt as it is seated.
        tee_off=True,
        # Turn-based rounds: a deadline a move, the round's deadline over them all.
        pace=event.pace,
    )
    return EventTable.objects.create(
        round=event_round, table=table, number=number, playoff_of=playoff_of, places=places
    )


# --- a knockout's cut ------------------------------------------------------------------------


def _cut(event: Event, event_table: EventTable, results) -> pairing.Cut:
    """Who goes through from a finished table: the best `advance` by place (a playoff
    table: its `places`), a tie at the cut played off."""
    result = results[event_table.pk]
    advance = event_table.places or min(event.advance, len(result.places) - 1)
    places = {k: p or 99 for k, p in result.places.items()}
    return pairing.through(places, max(advance, 1))


def _knockout_playoffs(event: Event, current: EventRound, tables: list[EventTable]) -> bool:
    """Seat a playoff table for every tie at a cut not yet played off; whether any was."""
    results = selectors.table_results(tables)
    played = {t.playoff_of_id for t in tables if t.playoff_of_id}
    final = len([t for t in tables if t.playoff_of_id is None]) == 1
    seated, number = False, max(t.number for t in tables)
    for event_table in list(tables):
        if final and event_table.playoff_of_id is None:
            continue  # the final's own playoff holes name its winner
        if event_table.pk in played:
            continue
        cut = _cut(event, event_table, results)
        if cut.playoff:
            players = list(Player.objects.filter(pk__in=cut.playoff))
            live = event_table.table.kind == Table.Kind.LIVE
            number += 1
            _open_table(event, current, number, players, live, event_table, cut.places)
            seated = True
    return seated


def _knockout_survivors(event: Event, current: EventRound) -> list[int]:
    """Who goes through from `current`, best seed first. A table forfeited at the close
    (or a playoff never played) sends its best seeds through."""
    seeds = _seeds(event)
    rank = {k: i for i, k in enumerate(seeds)}
    tables = selectors.round_tables(current)
    results = selectors.table_results(tables)
    final = len([t for t in tables if t.playoff_of_id is None]) == 1
    through: list[int] = list(current.byes)

    def best(keys, count):
        return sorted(keys, key=lambda k: rank.get(k, 0))[:count]

    def settle(event_table: EventTable, advance: int) -> list[int]:
        if final and event_table.playoff_of_id is None:
            advance = 1  # the final goes to its winner alone
        if event_table.pk not in results:
            return best(selectors.seated(event_table), advance)
        if final and event_table.playoff_of_id is None:
            result = results[event_table.pk]
            return [k for k, p in result.places.items() if p == 1][:1]
        cut = _cut(event, event_table, results)
        if not cut.playoff:
            return list(cut.through)
        playoff = next((t for t in tables if t.playoff_of_id == event_table.pk), None)
        if playoff is None:
            return list(cut.through) + best(cut.playoff, cut.places)
        return list(cut.through) + settle(playoff, cut.places)

    for event_table in tables:
        if event_table.playoff_of_id is None:
            through += settle(event_table, event.advance)
    return sorted(set(through), key=lambda k: rank.get(k, 0))

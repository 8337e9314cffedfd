"""A table before and after its match: opened, joined, left, started, rematched,
opened to watchers, its scorecards corrected.

Each write locks the table's row and changes it in one transaction, moving its version
on; the new version is announced to the table's group after the commit. A change in
play takes the play path instead (`services`). A refusal raises `GameError` with a
sentence a player can read, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import engine
from games.engine import state_to_dict
from games.engine.bots import BOT_LEVELS
from games.engine.match import choose_first_dealer

from . import announce, pace, plays
from .models import Scorecard, Seat, Table
from .plays import GameError
from .scorecards import correct_hole, open_scorecards

SEATS_ASSIGNED = "The organiser assigns the seats at this table."


def touch(table: Table, now: datetime | None = None) -> None:
    """Move `table` on to a new version, its turn starting `now` (the caller saves it)."""
    table.version += 1
    table.turn_started_at = now or timezone.now()


def locked_table(table_id: int) -> Table:
    """The table's row, locked until the transaction ends."""
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise GameError("There is no such table.") from None


# --- before the match -----------------------------------------------------------------------


def create_table(
    *,
    host,
    variant: str,
    seat_count: int,
    bots: dict[int, str] | None = None,
    players: Sequence = (),
    is_public: bool = True,
    turn_timer: int = 0,
    deal_seed: int | None = None,
    seats_assigned: bool = False,
    stand_in_level: str = "",
    house_rules: Sequence[str] = (),
    move_time: int = 0,
    playing_hours: tuple[int, int] | None = None,
    away_days: int = 0,
    zone: str = "",
) -> Table:
    """Open a table: `players` fill free seats from 0 in order; `bots` maps position -> level.

    `house_rules` are keys of the game's house rules, which the whole match plays by.

    `move_time` (seconds, one of `Table.MoveTime`) makes the table turn-based: each move
    has a deadline, no deadline falls outside `playing_hours` (first hour, hour they
    end) in a player's time zone, and each player may take `away_days` of break. Each
    player's seat keeps the time zone of their profile; `zone`, from the host's browser,
    stands in for the host's when they chose none.

    With `seats_assigned` the seating is final: players neither join nor leave the table.
    `stand_in_level` is the bot that plays a seat its player leaves (empty: the usual one).
    """
    if not isinstance(variant, str) or variant not in engine.VARIANTS:
        raise GameError("Choose one of the games on offer.")
    try:
        rules = engine.with_house_rules(variant, house_rules)
    except ValueError as error:
        raise GameError(str(error)) from None
    if not rules.min_players <= seat_count <= rules.max_players:
        raise GameError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    bots = dict(bots or {})
    for position, level in bots.items():
        if not 0 <= position < seat_count:
            raise GameError(f"There is no seat {position + 1} at a {seat_count}-seat table.")
        if level not in BOT_LEVELS:
            raise GameError(f"Bots play at one of these levels: {', '.join(BOT_LEVELS)}.")
    if stand_in_level and stand_in_level not in BOT_LEVELS:
        raise GameError(f"Bots play at one of these levels: {', '.join(BOT_LEVELS)}.")
    free = [p for p in range(seat_count) if p not in bots]
    players = list(players)
    if len(players) > len(free):
        raise GameError("There are more players than free seats.")
    if len({getattr(p, "pk", p) for p in players}) != len(players):
        raise GameError("A player takes one seat only.")
    if turn_timer not in Table.Timer.values:
        raise GameError("The turn timer is off, 30 s, 60 s or 2 minutes.")
    pace_fields = _pace_fields(move_time, playing_hours, away_days)
    if move_time and turn_timer:
        raise GameError("A turn-based table has a time per move, not a turn timer.")
    with transaction.atomic():
        if not seats_assigned:
            _check_hosting(host, turn_based=bool(move_time))
        fields = {"deal_seed": deal_seed} if deal_seed is not None else {}
        table = Table.objects.create(
            variant=variant,
            house_rules=list(rules.house_rule_keys),
            host=host,
            seat_count=seat_count,
            is_public=is_public,
            turn_timer=turn_timer,
            seats_assigned=seats_assigned,
            stand_in_level=stand_in_level,
            **pace_fields,
            **fields,
        )
        seated = dict(zip(free, players, strict=False))
        if move_time and players:
            # The host's zone falls back on their browser's; the others' on none.
            for position, player in seated.items():
                browser = zone if player is players[0] else ""
                _set_zone(table, position, pace.seat_zone(player, browser))
            table.save(update_fields=["clocks"])
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=position,
                player=seated.get(position),
                bot_level=bots.get(position, ""),
            )
            for position in range(seat_count)
        )
        announce.table_changed(table)
    return table


def _pace_fields(move_time: int, hours: tuple[int, int] | None, away_days: int) -> dict:
    """A table's pace, checked: its time per move, playing hours and days of break."""
    if move_time not in Table.MoveTime.values:
        raise GameError(
            "A table is live, or turn-based with 1 hour, 12 hours, 1, 2 or 3 days a move."
        )
    if not move_time:
        return {}
    if hours is not None:
        first, last = hours
        if not (0 <= first <= 23 and 0 <= last <= 23) or first == last:
            raise GameError("Playing hours run from one hour of the day to another (0 to 23).")
    if not 0 <= away_days <= pace.MAX_AWAY_DAYS:
        raise GameError(f"A player may be away 0 to {pace.MAX_AWAY_DAYS} days in a match.")
    first, last = hours or (None, None)
    return {
        "move_time": move_time,
        "playing_from": first,
        "playing_until": last,
        "away_days": away_days,
    }


def _set_zone(table: Table, position: int, zone: str) -> None:
    """Keep the time zone of the player at `position` in the table's clocks (the caller
    saves); a name that is no time zone is left out (the site's then holds)."""
    if table.turn_based and pace.valid_zone(zone):
        clocks = dict(table.clocks)
        clocks[str(position)] = {**clocks.get(str(position), {}), "zone": zone}
        table.clocks = clocks


def _check_hosting(host, *, turn_based: bool = False) -> None:
    """Refuse a new table to a host who already has FAIRWAY_MAX_HOSTED_TABLES open or in
    play (FAIRWAY_MAX_TURN_BASED_TABLES for turn-based ones, which a player keeps dozens
    of). A league's tables (seats assigned by the organiser) do not count."""
    if host is None:
        return
    if turn_based:
        limit = settings.FAIRWAY_MAX_TURN_BASED_TABLES
    else:
        limit = settings.FAIRWAY_MAX_HOSTED_TABLES
    # The host's row lock makes one host's requests count one after another.
    list(get_user_model().objects.select_for_update().filter(pk=host.pk).values_list("pk"))
    hosted = Table.objects.filter(
        host=host,
        kind=Table.Kind.LIVE,
        seats_assigned=False,
        status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    )
    hosted = hosted.filter(move_time__gt=0) if turn_based else hosted.filter(move_time=0)
    if hosted.count() >= limit:
        raise GameError(
            f"You already have {limit} table{'' if limit == 1 else 's'} open or in play. "
            "Finish one, or leave it, before you open another."
        )


def join_table(*, table: Table, player, position: int | None = None, zone: str = "") -> Seat:
    """Sit `player` at a free seat (the first free one unless `position` is given);
    `zone`: their browser's time zone, which a turn-based table keeps unless their profile
    names one."""
    with transaction.atomic():
        locked = locked_table(table.pk)
        if locked.seats_assigned:
            raise GameError(SEATS_ASSIGNED)
        if locked.status != Table.Status.OPEN:
            raise GameError("This table has already started.")
        seats = list(locked.seats.select_for_update().order_by("position"))
        if any(seat.player_id == player.pk for seat in seats):
            raise GameError("You already have a seat at this table.")
        if position is not None and not 0 <= position < locked.seat_count:
            raise GameError("There is no such seat at this table.")
        free = [s for s in seats if s.player_id is None and not s.bot_level]
        if position is not None:
            free = [s for s in free if s.position == position]
        if not free:
            raise GameError("That seat is taken." if position is not None else "The table is full.")
        seat = free[0]
        seat.player = player
        seat.save(update_fields=["player"])
        touch(locked)
        _set_zone(locked, seat.position, pace.seat_zone(player, zone))
        locked.save(update_fields=["version", "turn_started_at", "clocks"])
        announce.table_changed(locked)
    table.refresh_from_db()
    return seat


def leave_table(*, table: Table, player) -> None:
    """Give up `player`'s seat before the match starts.

    A host who leaves hands the table to the next person seated after them, going round
    the seats, who may then start the match; with no one left the table closes (and
    stops counting against the host's limit).
    """
    with transaction.atomic():
        locked = locked_table(table.pk)
        if locked.seats_assigned:
            raise GameError(SEATS_ASSIGNED)
        if locked.status != Table.Status.OPEN:
            raise GameError("The match has started: seats are fixed until it ends.")
        seats = list(locked.seats.select_for_update().order_by("position"))
        left = next((s for s in seats if s.player_id == player.pk), None)
        if left is None:
            raise GameError("You have no seat at this table.")
        left.player = None
        left.save(update_fields=["player"])
        touch(locked)
        fields = ["version", "turn_started_at"]
        if locked.host_id == player.pk:
            # Round the table from the host's seat: the first person still sitting.
            here = seats.index(left)
            after = seats[here + 1 :] + seats[:here]
            heir = next((s.player_id for s in after if s.player_id and not s.bot_level), None)
            if heir is None:
                locked.status = Table.Status.ABANDONED
                fields.append("status")
            else:
                locked.host_id = heir
                fields.append("host")
        locked.save(update_fields=fields)
        announce.table_changed(locked)
    table.refresh_from_db()


def start_match(*, table: Table, by) -> Table:
    """The host starts the match once every seat is taken (bots count): deal hole 1."""
    with transaction.atomic():
        locked = locked_table(table.pk)
        if by is not None and locked.host_id != by.pk:
            raise GameError("Only the host can start the match.")
        if locked.status != Table.Status.OPEN:
            raise GameError("This match has already started.")
        seats = list(locked.seats.all())
        if any(s.player_id is None and not s.bot_level for s in seats):
            raise GameError("Wait until every seat is taken.")
        now = timezone.now()
        dealer, _rounds = choose_first_dealer(locked.rules, locked.seat_count, locked.deal_seed)
        locked.first_dealer = dealer
        locked.status = Table.Status.PLAYING
        locked.started_at = now
        open_scorecards(table=locked)
        hole = plays.new_hole(locked, 1, list(range(locked.seat_count)), now)
        state = plays.hole_state(locked, hole)
        hole.state, hole.version = state_to_dict(state), state.version
        hole.save()
        touch(locked, now)
        bots = [s.position for s in seats if s.bot_level]
        locked.turn_deadline = pace.turn_deadline(locked, hole, state, bots)
        locked.save()
        announce.table_changed(locked)
        if locked.turn_based:
            people = {s.position: s.player_id for s in seats}
            waiting = pace.people_waiting(locked, hole, state, bots)
            announce.turns_passed(locked, [(p, people[p]) for p in waiting if people[p]])
    table.refresh_from_db()
    return table


def rematch(*, table: Table, by) -> Table:
    """A new match at a new table with the same seats, variant and settings."""
    if table.status != Table.Status.FINISHED:
        raise GameError("A rematch comes after the match is over.")
    seats = list(table.seats.order_by("position"))
    if not any(s.player_id == by.pk for s in seats):
        raise GameError("Only the players of this match can ask for a rematch.")
    with transaction.atomic():
        # Under the old table's lock a request made at the same time waits, then finds
        # the first one's table; the database holds one rematch a table besides.
        existing = locked_table(table.pk).rematches.first()
        if existing is not None:
            return existing
        _check_hosting(by)
        new = Table.objects.create(
            variant=table.variant,
            house_rules=table.house_rules,
            host=by,
            seat_count=table.seat_count,
            is_public=table.is_public,
            turn_timer=table.turn_timer,
            move_time=table.move_time,
            playing_from=table.playing_from,
            playing_until=table.playing_until,
            away_days=table.away_days,
            # Each player's time zone; the breaks taken are the last match's.
            clocks={p: {"zone": c["zone"]} for p, c in table.clocks.items() if "zone" in c},
            rematch_of=table,
        )
        Seat.objects.bulk_create(
            # A player who left the last match mid-way sits down again in person.
            Seat(
                table=new,
                position=s.position,
                player=s.player,
                bot_level="" if s.player_id else s.bot_level,
            )
            for s in seats
        )
        new = start_match(table=new, by=None)
        # The old table's page links to the new one.
        old = locked_table(table.pk)
        touch(old)
        old.save(update_fields=["version", "turn_started_at"])
        announce.table_changed(old)
    return new


def quick_start(*, player) -> Table:
    """A two-seat Play Nine table against a greedy bot, already dealt: a practice game,
    so it is not listed for spectators."""
    table = create_table(
        host=player,
        variant="play-nine",
        seat_count=2,
        bots={1: "greedy"},
        players=[player],
        is_public=False,
    )
    return start_match(table=table, by=player)


def open_to_watchers(*, table: Table, by) -> None:
    """The host lists a private table of their own among the tables being played, for
    anyone to watch (a quick game, say). A league night's tables stay private."""
    with transaction.atomic():
        locked = locked_table(table.pk)
        if by is None or locked.host_id != by.pk:
            raise GameError("Only the host can open the table to watchers.")
        if locked.seats_assigned:
            raise GameError("A league night's tables are for its people only.")
        if locked.status not in (Table.Status.OPEN, Table.Status.PLAYING):
            raise GameError("The match is over.")
        if locked.is_public:
            raise GameError("Anyone can watch this table already.")
        locked.is_public = True
        # A new version without touching the turn's clock: a timer runs on as it was.
        locked.version += 1
        locked.save(update_fields=["is_public", "version"])
        announce.table_changed(locked, wake=False)
    table.refresh_from_db()


# --- a break in a turn-based match ---------------------------------------------------------


def take_break(*, table: Table, player, until: datetime, now: datetime | None = None) -> datetime:
    """`player` is away until `until`: their clock at this turn-based table stops till then
    (a deadline of theirs falls a whole move time after it). The days count against the
    table's `away_days` over the match (a part day counts whole); a break past them is
    refused, and changes nothing. Returns the table's deadline now."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = locked_table(table.pk)
        if not locked.turn_based:
            raise GameError("Only a turn-based table has a clock to pause.")
        if locked.status != Table.Status.PLAYING:
            raise GameError("The match is not in play.")
        seat = locked.seats.filter(player=player).first()
        if seat is None:
            raise GameError("You have no seat at this table.")
        if until <= now:
            raise GameError("Choose a day and time still to come for your return.")
        position = seat.position
        back = pace.away_until(locked, position)
        # A break still running is lengthened from its end, not counted again.
        counted_from = max(now, back) if back is not None else now
        if until <= counted_from:
            raise GameError("You are away until later than that already.")
        days = pace.break_days(counted_from, until)
        left = pace.away_days_left(locked, position)
        if days > left:
            allowed = locked.away_days
            raise GameError(
                f"This table allows {allowed} day{'' if allowed == 1 else 's'} away in a match; "
                f"you have {left} left, and this break takes {days}."
            )
        clocks = dict(locked.clocks)
        clock = dict(clocks.get(str(position), {}))
        clock["away_until"] = until.timestamp()
        clock["away_days"] = clock.get("away_days", 0) + days
        clocks[str(position)] = clock
        locked.clocks = clocks
        # A new version: the clock of a turn under way (theirs) counts from their return.
        locked.version += 1
        fields = ["clocks", "version"]
        hole = locked.holes.order_by("-number").first()
        bots = list(locked.seats.exclude(bot_level="").values_list("position", flat=True))
        if position in pace.people_waiting(locked, hole, None, bots):
            started = locked.turn_started_at or now
            locked.turn_deadline = max(
                pace.seat_deadline(locked, p, started)
                for p in pace.people_waiting(locked, hole, None, bots)
            )
            fields.append("turn_deadline")
        locked.save(update_fields=fields)
        announce.table_changed(locked)
    table.refresh_from_db()
    return table.turn_deadline


# --- a scorecard corrected, in play or after the match -----------------------------------


def correct_scorecard(*, scorecard: Scorecard, number: int, strokes: int) -> int:
    """`scorecards.correct_hole` under the table's lock; the old strokes back.

    A table in play moves to a new version without news, so that its viewers read the
    corrected card at once rather than add the next hole to the card they hold.
    """
    with transaction.atomic():
        table = locked_table(scorecard.table_id)
        old = correct_hole(scorecard=scorecard, number=number, strokes=strokes)
        if table.status == Table.Status.PLAYING:
            table.version += 1
            table.save(update_fields=["version"])
            announce.table_changed(table, wake=False)
    return old

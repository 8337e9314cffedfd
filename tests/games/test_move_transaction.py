"""A change in play is one write: all of it lands, or none of it.

These tests commit for real (`transaction=True`). Every change in play is read (or
taken from the copy its process holds), derived, and written on condition that the
table is still at the version read (`services._change`, `store.write`): on PostgreSQL
one statement, elsewhere the same rows in one transaction.
"""

from __future__ import annotations

import contextlib
import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, connections
from django.utils import timezone
from psycopg.pq import PipelineStatus

from games import engine, frames, lobby, moves, plays, selectors, services, store
from games.engine import state_to_dict
from games.engine.match import HOLES, match_status
from games.models import Hole, Move, Scorecard, Seat, Table
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def _table():
    ana, ben = make_player("ana"), make_player("ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=table, by=ana)
    return table, {0: ana, 1: ben}


def _next(table, people) -> dict:
    """`apply_move`'s arguments for the next quick move at `table`."""
    db_table, hole, state = current(table.pk)
    seat = next_actor(state)
    return {
        "table_id": table.pk,
        "player": people[hole.seat_positions[seat]],
        "action": quick_action(state, seat),
        "version": db_table.version,
    }


def _move(table, people) -> services.MoveResult:
    return services.apply_move(**_next(table, people))


def _needs_postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


def _no_transaction_open() -> None:
    """The connection is back in autocommit with nothing begun (on PostgreSQL, the
    server says so)."""
    assert connection.get_autocommit()
    assert not connection.in_atomic_block
    if connection.vendor == "postgresql":
        from psycopg.pq import TransactionStatus

        assert connection.connection.info.transaction_status == TransactionStatus.IDLE


class _Sent(list):
    """Statements sent, as written (Django's own record of a statement run prepared has
    no text), and for each whether it went in a pipeline (together with others, in one
    round trip) or alone."""

    def __init__(self) -> None:
        super().__init__()
        self.pipelined: list[bool] = []


@contextlib.contextmanager
def _statements():
    """Each statement sent meanwhile (`_Sent`)."""
    sent = _Sent()

    def record(execute, sql, params, many, context):
        sent.append(sql)
        sent.pipelined.append(
            connection.vendor == "postgresql"
            and connection.connection.info.pipeline_status != PipelineStatus.OFF
        )
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield sent


def _sent(call):
    """What `call` returns, and each statement it sent with whether it was pipelined."""
    with _statements() as sent:
        result = call()
    return result, list(zip(sent, sent.pipelined, strict=True))


def test_a_match_played_move_by_move_lands_whole():
    table, people = _table()
    results = []
    while True:
        db_table, hole, _state = current(table.pk)
        if hole.finished_at is not None:
            result = services.next_hole(table_id=table.pk, version=db_table.version)
        else:
            result = _move(table, people)
        results.append(result)
        _no_transaction_open()
        if result.match_over:
            break
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.version == results[-1].version
    assert [r.version for r in results] == list(range(results[0].version, table.version + 1))
    holes = list(table.holes.order_by("number"))
    assert len(holes) >= HOLES
    for hole in holes:
        # Every move of the hole is logged once, in order.
        assert list(hole.moves.order_by("seq").values_list("seq", flat=True)) == list(
            range(1, hole.version + 1)
        )
    # The scorecards hold each hole's strokes, and the totals and places they make.
    cards = list(Scorecard.objects.filter(table=table).order_by("position"))
    status = match_status([h.scores for h in holes], 2)
    assert status.over
    for card in cards:
        strokes = dict(card.holes.values_list("number", "strokes"))
        assert strokes == {h.number: h.scores[card.position] for h in holes}
        assert (card.total, card.place) == (
            status.totals[card.position],
            status.places[card.position],
        )


@pytest.mark.postgres
def test_on_postgresql_a_change_is_one_round_trip_to_read_and_one_statement_to_write():
    _needs_postgresql()
    table, people = _table()
    move = _next(table, people)
    result, sent = _sent(lambda: services.apply_move(**move))
    # The four reads go together; the write is one statement, outside any transaction.
    assert [(s.split()[0], pipelined) for s, pipelined in sent] == [("SELECT", True)] * 4 + [
        ("WITH", False)
    ]
    _no_transaction_open()
    # A hole's end and the next deal take the same way, the scorecards written with it.
    while True:
        move = _next(table, people)
        state = current(table.pk)[2]
        if engine.apply_action(state, next_actor(state), move["action"]).phase == engine.OVER:
            break
        services.apply_move(**move)
    result, sent = _sent(lambda: services.apply_move(**move))
    assert result.hole_over and not result.match_over
    assert [s.split()[0] for s, _pipelined in sent] == ["SELECT"] * 4 + ["WITH"]
    assert "games_scorecardhole" in sent[-1][0]
    _no_transaction_open()
    dealt, sent = _sent(lambda: services.next_hole(table_id=table.pk, version=result.version))
    assert [s.split()[0] for s, _pipelined in sent] == ["SELECT"] * 4 + ["WITH"]
    assert dealt.news["deal"]["hole"] == current(table.pk)[1].pk
    _no_transaction_open()


def test_a_move_whose_write_fails_changes_nothing():
    table, people = _table()
    _move(table, people)
    before_table, before_hole, _state = current(table.pk)
    # A row already at the move's place in the log makes its insert fail.
    Move.objects.create(
        hole=before_hole, seq=before_hole.version + 1, seat=0, action={}, summary="in the way"
    )
    with pytest.raises(IntegrityError):
        _move(table, people)
    _no_transaction_open()
    after_table, after_hole, _state = current(table.pk)
    assert after_table.version == before_table.version
    assert (after_hole.version, after_hole.state) == (before_hole.version, before_hole.state)
    # Once out of the way, the same move goes through on the same connection.
    Move.objects.filter(summary="in the way").delete()
    assert _move(table, people).version == before_table.version + 1


def test_refused_moves_leave_no_transaction_open():
    table, people = _table()
    while current(table.pk)[2].phase == engine.TEE_OFF:
        _move(table, people)
    db_table, hole, state = current(table.pk)
    seat = next_actor(state)
    mover, other = people[hole.seat_positions[seat]], people[hole.seat_positions[1 - seat]]
    action = quick_action(state, seat)
    version = db_table.version
    refusals = [
        (mover, action, version - 1),  # stale
        (other, action, version),  # out of turn
        (mover, {"type": "knock"}, version),  # not a move of this game's phase
        (make_player("cy"), action, version),  # watching
    ]
    for player, tried, seen in refusals:
        with pytest.raises(services.GameError):
            services.apply_move(table_id=table.pk, player=player, action=tried, version=seen)
        _no_transaction_open()
    assert current(table.pk)[0].version == db_table.version
    assert not Move.objects.filter(hole=hole, seq__gt=hole.version).exists()
    assert _move(table, people).version == db_table.version + 1


def test_a_player_back_from_a_bot_takes_the_seat_with_one_move():
    table, people = _table()
    db_table, hole, state = current(table.pk)
    position = hole.seat_positions[next_actor(state)]
    services.leave_match(table=table, player=people[position])
    assert Seat.objects.get(table=table, position=position).bot_level
    result = _move(table, people)
    _no_transaction_open()
    assert result.news is None  # a seat changed hands: viewers read the table
    assert Seat.objects.get(table=table, position=position).bot_level == ""
    hole = Hole.objects.get(pk=hole.pk)
    assert hole.moves.count() == hole.version == state.version + 1


def test_a_bots_move_lands_whole_and_says_whom_it_plays_for():
    ana = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, players=[ana], bots={1: "greedy"}
    )
    lobby.start_match(table=table, by=ana)
    services.leave_match(table=table, player=ana)  # a bot plays Ana's seat too
    far = timezone.now() + timedelta(days=1)
    statements = []
    for _ in range(6):
        version = current(table.pk)[0].version
        with _statements() as acting:
            result = services.act_for_table(table_id=table.pk, version=version, now=far)
        statements.append(list(acting))
        _no_transaction_open()
        assert result.version == version + 1
    summaries = [m.summary for m in Move.objects.filter(hole__table=table).order_by("seq")]
    assert len(summaries) == 6
    by_seat = dict(Move.objects.filter(hole__table=table).values_list("seat", "summary"))
    assert by_seat[0].endswith("(bot for Ana)") and "(bot for" not in by_seat[1]
    with pytest.raises(services.StaleVersion):
        services.act_for_table(table_id=table.pk, version=version, now=far)
    _no_transaction_open()
    if connection.vendor == "postgresql":
        # As a player's move: the reads, then one statement.
        for sql in statements:
            assert [s.split()[0] for s in sql] == ["SELECT"] * 4 + ["WITH"]


def test_the_timer_tees_off_for_every_late_seat_at_once():
    table, people = _table()
    Table.objects.filter(pk=table.pk).update(turn_timer=30)
    version = current(table.pk)[0].version
    far = timezone.now() + timedelta(days=1)
    with _statements() as acting:
        result = services.act_for_table(table_id=table.pk, version=version, now=far)
    _no_transaction_open()
    assert result.version == version + 2  # two seats, two moves, one write
    # One write of the table: one statement on PostgreSQL, one UPDATE of it elsewhere.
    assert sum(s.startswith(("WITH", 'UPDATE "games_table"')) for s in acting) == 1
    moves = Move.objects.filter(hole__table=table).order_by("seq")
    assert [(m.seat, m.by_bot) for m in moves] == [(0, True), (1, True)]
    assert all(m.summary.endswith("(played by the timer)") for m in moves)


def test_the_driver_deals_the_next_hole_when_a_bots_hole_is_over():
    ana = make_player("ana")
    table = lobby.create_table(
        host=ana, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=table, by=ana)
    far = timezone.now() + timedelta(days=1)
    while current(table.pk)[1].finished_at is None:
        version = current(table.pk)[0].version
        services.act_for_table(table_id=table.pk, version=version, now=far)
        _no_transaction_open()
    version = current(table.pk)[0].version
    dealt = services.act_for_table(table_id=table.pk, version=version, now=far)
    _no_transaction_open()
    assert dealt.version == version + 1 and "deal" in dealt.news
    assert current(table.pk)[1].number == 2


def _kept(table) -> frames.LoopCopy:
    """The table as a server process holds it for its viewers (`frames`)."""
    frames.forget()
    return frames.LoopCopy(frames._read(table.pk).data.in_play)


@pytest.mark.postgres
def test_a_move_on_the_table_its_process_holds_is_one_statement():
    _needs_postgresql()
    table, people = _table()
    for _ in range(3):
        move = _next(table, people)
        db_table, hole, state = current(table.pk)
        seat, kept = next_actor(state), _kept(table)
        with _statements() as plain:
            result = services.apply_move(**move, kept=kept)
        sql = list(plain)
        assert len(sql) == 1 and sql[0].startswith("WITH t AS (UPDATE")
        _no_transaction_open()
        # It writes what the full path writes: the table, the hole and its log entry.
        after = engine.apply_action(state, seat, move["action"])
        new_table, new_hole, _state = current(table.pk)
        assert new_table.version == result.version == db_table.version + 1
        assert (new_hole.pk, new_hole.version) == (hole.pk, after.version)
        assert new_hole.state == state_to_dict(after)
        logged = Move.objects.get(hole=hole, seq=after.version)
        assert (logged.seat, logged.action, logged.by_bot) == (
            hole.seat_positions[seat],
            move["action"],
            False,
        )
        assert logged.summary and result.news["move"]["seat"] == logged.seat
        assert result.news["move"]["hole"] == hole.pk and not result.hole_over


@pytest.mark.postgres
def test_a_deal_on_the_table_its_process_holds_is_one_statement():
    _needs_postgresql()
    table, people = _table()
    while current(table.pk)[1].finished_at is None:
        _move(table, people)
    db_table, hole, _state = current(table.pk)
    kept = _kept(table)
    # A spectator's copy is not tried: the full way says why not.
    cy = make_player("cy")
    with _statements() as tried, pytest.raises(services.GameError):
        services.next_hole(table_id=table.pk, version=db_table.version, by=cy, kept=kept)
    assert [s.split()[0] for s in tried] == ["SELECT"] * 4
    with _statements() as dealing:
        result = services.next_hole(
            table_id=table.pk, version=db_table.version, by=people[0], kept=kept
        )
    sql = list(dealing)
    assert len(sql) == 1 and sql[0].startswith("WITH t AS (UPDATE")
    _no_transaction_open()
    new_table, dealt, _state = current(table.pk)
    assert new_table.version == result.version == db_table.version + 1
    assert (dealt.number, result.news["deal"]["hole"]) == (hole.number + 1, dealt.pk)
    # It deals what the full way deals: the same hole, undone and dealt again.
    shown = ("number", "dealer", "seed", "seat_positions", "state", "version", "deck", "scores")
    once = {name: getattr(dealt, name) for name in shown}
    Hole.objects.filter(pk=dealt.pk).delete()
    Table.objects.filter(pk=table.pk).update(version=db_table.version)
    again = services.next_hole(table_id=table.pk, version=db_table.version, by=people[0])
    redealt = current(table.pk)[1]
    assert {name: getattr(redealt, name) for name in shown} == once
    news = {**result.news["deal"], "hole": redealt.pk, "at": again.news["deal"]["at"]}
    assert again.news == {"deal": news}
    # The copy from before the deal is old now: it writes nothing, and is refused.
    with _statements() as tried, pytest.raises(services.StaleVersion):
        services.next_hole(table_id=table.pk, version=db_table.version, by=people[1], kept=kept)
    assert tried[0].startswith("WITH t AS")
    assert Hole.objects.filter(table=table).count() == 2
    assert current(table.pk)[0].version == again.version
    _no_transaction_open()


@pytest.mark.postgres
def test_the_held_statement_is_planned_once_per_connection():
    _needs_postgresql()
    table, people = _table()
    for _ in range(3):
        services.apply_move(**_next(table, people), kept=_kept(table))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert [s for s in prepared if s.startswith("WITH t AS (UPDATE")]
    # Django's own statements are not prepared.
    assert all(s.startswith("WITH t AS (UPDATE") for s in prepared)


@pytest.mark.postgres
def test_a_move_on_an_old_copy_writes_nothing_and_goes_the_full_way():
    _needs_postgresql()
    table, people = _table()
    old, move = _kept(table), _next(table, people)
    _move(table, people)  # the table moves on
    before_table, before_hole, _state = current(table.pk)
    # The same move again, made on the copy from before (a double click).
    with _statements() as tried, pytest.raises(services.StaleVersion):
        services.apply_move(**move, kept=old)
    sql = list(tried)
    assert sql[0].startswith("WITH t AS") and [s.split()[0] for s in sql[1:]] == ["SELECT"] * 4
    _no_transaction_open()
    after_table, after_hole, _state = current(table.pk)
    assert after_table.version == before_table.version
    assert (after_hole.version, after_hole.state) == (before_hole.version, before_hole.state)
    assert Move.objects.filter(hole=after_hole).count() == after_hole.version


@pytest.mark.postgres
def test_two_moves_on_one_held_version_race_and_one_lands():
    _needs_postgresql()
    table, people = _table()
    kept, move = _kept(table), _next(table, people)
    start = threading.Barrier(2, timeout=10)
    outcomes = []

    def click() -> None:
        try:
            start.wait()
            services.apply_move(**move, kept=kept)
            outcomes.append("applied")
        except services.GameError as error:
            outcomes.append(type(error).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["StaleVersion", "applied"]
    db_table, hole, _state = current(table.pk)
    assert db_table.version == move["version"] + 1
    assert Move.objects.filter(hole=hole).count() == hole.version


@pytest.mark.postgres
def test_what_a_held_copy_cannot_take_goes_the_full_way():
    _needs_postgresql()
    table, people = _table()
    # An illegal move is refused with the engine's reason, from the table as it stands.
    move = _next(table, people)
    with pytest.raises(services.GameError, match="."):
        services.apply_move(**{**move, "action": {"type": "knock"}}, kept=_kept(table))
    _no_transaction_open()
    # A seat kept by a bot is taken back by the player's move, which other processes
    # read rather than follow.
    position = current(table.pk)[1].seat_positions[next_actor(current(table.pk)[2])]
    services.leave_match(table=table, player=people[position])
    result = services.apply_move(**_next(table, people), kept=_kept(table))
    assert result.news is None
    assert Seat.objects.get(table=table, position=position).bot_level == ""


def _written(table) -> dict:
    """What the database holds of a match, but for ids and times."""
    return {
        "table": Table.objects.filter(pk=table.pk).values("version", "status").get(),
        "holes": list(
            table.holes.order_by("number").values_list(
                "number", "dealer", "seed", "seat_positions", "state", "version", "scores"
            )
        ),
        "moves": list(
            Move.objects.filter(hole__table=table)
            .order_by("hole__number", "seq")
            .values_list("hole__number", "seq", "seat", "action", "by_bot", "summary")
        ),
        "cards": list(
            Scorecard.objects.filter(table=table)
            .order_by("position")
            .values_list("position", "total", "place")
        ),
        "strokes": sorted(
            Scorecard.objects.filter(table=table).values_list(
                "position", "holes__number", "holes__strokes"
            )
        ),
    }


@pytest.mark.postgres
def test_a_match_on_held_copies_writes_what_the_full_way_writes():
    _needs_postgresql()
    ana, ben = make_player("ana"), make_player("ben")
    twins = []  # the same deal, played by the same moves
    for _ in range(2):
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=2, players=[ana, ben], deal_seed=27
        )
        twins.append(lobby.start_match(table=table, by=ana))
    people = {0: ana, 1: ben}
    kept_table, plain_table = twins
    ends = []
    while True:
        db_table, hole, _state = current(kept_table.pk)
        if hole.finished_at is not None:
            for table in twins:
                services.next_hole(
                    table_id=table.pk,
                    version=current(table.pk)[0].version,
                    by=ana,
                    kept=_kept(table) if table is kept_table else None,
                )
            continue
        move, plain = _next(kept_table, people), _next(plain_table, people)
        assert move["action"] == plain["action"]
        kept = _kept(kept_table)
        result, sent = _sent(lambda move=move, kept=kept: services.apply_move(**move, kept=kept))
        services.apply_move(**plain)
        _no_transaction_open()
        if result.hole_over:
            ends.append((hole.number, result.match_over, sent))
            # Each hole's end writes the same on both tables.
            assert _written(kept_table) == _written(plain_table)
        if result.match_over:
            break
    assert _written(kept_table) == _written(plain_table)
    # Every hole's end on a kept copy is one statement, the match's end included (whose
    # listeners then read what they need: a league's ratings).
    assert len(ends) >= HOLES
    for _number, over, sent in ends:
        assert sent[0][0].startswith("WITH t AS")
        assert len(sent) == 1 or over and all(s.startswith("SELECT") for s, _ in sent[1:])
    # (This deal ties the nine holes, so the ninth's end deals a playoff hole.)
    assert ends[-1][1] and not ends[HOLES - 1][1]


@pytest.mark.postgres
def test_the_one_statement_writes_the_rows_the_row_by_row_write_writes():
    """`store.write` on PostgreSQL is one statement; elsewhere the same rows go one
    statement a row. Twin tables, the same deal and moves, each written one way."""
    _needs_postgresql()
    ana, ben = make_player("ana"), make_player("ben")
    twins = []
    for _ in range(2):
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=2, players=[ana, ben], deal_seed=27
        )
        twins.append(lobby.start_match(table=table, by=ana))
    one, rows = twins
    writes = {one.pk: store._write_statement, rows.pk: store._write_rows}
    now = timezone.now()
    for table in twins:  # a bot keeps Ben's seat, then he acts and takes it back
        step = plays.hand_over(selectors.in_play(table.pk), 1, "greedy", now)
        assert writes[table.pk](services.rows(step)) is not None
    assert _written(one) == _written(rows)
    assert Seat.objects.get(table=rows, position=1).bot_level == "greedy"
    for _ in range(1000):
        for table in twins:
            snapshot = selectors.in_play(table.pk)
            if snapshot.hole.finished_at is not None:
                step = plays.deal(snapshot, now)
            else:
                seat = next_actor(snapshot.state)
                position = snapshot.hole.seat_positions[seat]
                step = plays.play(snapshot, position, quick_action(snapshot.state, seat), at=now)
            assert writes[table.pk](services.rows(step)) is not None
            # Written on an old version, it writes nothing either way.
            assert writes[table.pk](services.rows(step)) is None
        assert _written(one) == _written(rows)
        if step.match_over:
            break
    else:
        pytest.fail("the match did not end")
    assert Seat.objects.get(table=one, position=1).bot_level == ""


# --- moves written from the event loop (`loop_writes`) ------------------------------------


def _on_loop(move: dict, kept) -> services.MoveResult:
    """`apply_move_on_loop` as a consumer calls it, in an event loop of its own; whether
    the loop wrote with a connection of its own comes back too."""
    import asyncio

    from games import loop_writes

    async def call():
        kept_here = frames.LoopCopy(kept.in_play, asyncio.get_running_loop())
        try:
            result = await moves.play(**move, kept=kept_here)
            return result, asyncio.get_running_loop() in loop_writes._pools
        finally:
            await loop_writes.close()

    return asyncio.run(call())


@pytest.mark.postgres
def test_a_move_on_the_held_version_is_written_from_the_event_loop():
    _needs_postgresql()
    table, people = _table()
    for _ in range(3):
        move = _next(table, people)
        db_table, hole, state = current(table.pk)
        seat = next_actor(state)
        result, from_loop = _on_loop(move, _kept(table))
        assert from_loop
        _no_transaction_open()
        after = engine.apply_action(state, seat, move["action"])
        new_table, new_hole, _state = current(table.pk)
        assert new_table.version == result.version == db_table.version + 1
        assert new_hole.state == state_to_dict(after) and new_hole.version == after.version
        logged = Move.objects.get(hole=hole, seq=after.version)
        assert (logged.seat, logged.action) == (hole.seat_positions[seat], move["action"])
        assert result.news["move"]["seat"] == logged.seat and not result.hole_over


@pytest.mark.postgres
def test_a_loop_write_on_a_version_gone_by_is_refused_and_changes_nothing():
    _needs_postgresql()
    table, people = _table()
    move, kept = _next(table, people), _kept(table)
    services.apply_move(**move)  # the same move lands first, from another process
    before = (current(table.pk)[0].version, Move.objects.count())
    with pytest.raises(services.StaleVersion):
        _on_loop(move, kept)
    assert (current(table.pk)[0].version, Move.objects.count()) == before


@pytest.mark.postgres
def test_a_refused_move_from_the_loop_changes_nothing():
    _needs_postgresql()
    table, people = _table()
    move = _next(table, people)
    move["action"] = {"type": "flip", "position": 99}
    before = (current(table.pk)[0].version, Move.objects.count())
    with pytest.raises(plays.GameError):
        _on_loop(move, _kept(table))
    assert (current(table.pk)[0].version, Move.objects.count()) == before


@pytest.mark.postgres
def test_the_move_that_ends_a_hole_goes_the_one_way_and_scores_it():
    _needs_postgresql()
    table, people = _table()
    while True:
        move = _next(table, people)
        _db_table, _hole, state = current(table.pk)
        if engine.apply_action(state, next_actor(state), move["action"]).phase == engine.OVER:
            break
        services.apply_move(**move)
    result, from_loop = _on_loop(move, _kept(table))
    assert result.hole_over and not from_loop  # no connection of the loop's was opened
    hole = current(table.pk)[1]
    assert hole.finished_at is not None and hole.scores is not None
    assert Scorecard.objects.filter(table=table, holes__number=hole.number).count() == 2

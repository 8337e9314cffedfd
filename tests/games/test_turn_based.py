"""A turn-based table: deadlines set by each move, the timer's bot at a deadline, the
turn told once, breaks within the table's limit, bad input refused."""

from __future__ import annotations

import threading
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from games import deadlines, idle, lobby, pace, selectors, services
from games.models import Move, Table, turn_passed
from tests.driving import drive_due
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
# Committed writes: the turn is told after the commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

DAY = 86400


def turn_based(players=2, names=("ana", "ben", "cy"), **fields):
    people = [make_player(name, display_name=name.title()) for name in names[:players]]
    fields.setdefault("move_time", DAY)
    table = lobby.create_table(
        host=people[0], variant="play-nine", seat_count=players, players=people, **fields
    )
    lobby.start_match(table=table, by=people[0])
    table.refresh_from_db()
    return table, people


def move(table_id, people, version=None):
    table, hole, state = current(table_id)
    seat = next_actor(state)
    return services.apply_move(
        table_id=table_id,
        player=people[hole.seat_positions[seat]],
        action=quick_action(state, seat),
        version=table.version if version is None else version,
    )


@pytest.fixture
def told():
    heard: list[tuple[int, int, int]] = []

    def hear(sender, table, position, player_id, deadline, **kwargs):
        heard.append((table.pk, position, player_id))
        assert deadline == Table.objects.get(pk=table.pk).turn_deadline

    turn_passed.connect(hear)
    yield heard
    turn_passed.disconnect(hear)


def test_starting_a_turn_based_match_sets_the_first_deadline_and_tells_each_player(told):
    before = timezone.now()
    table, (ana, ben) = turn_based()
    assert table.turn_based and table.turn_timer == 0
    assert before + timedelta(days=1) <= table.turn_deadline <= timezone.now() + timedelta(days=1)
    # Both tee off at once: each is told once.
    assert sorted(told) == [(table.pk, 0, ana.pk), (table.pk, 1, ben.pk)]


def test_the_turn_is_told_once_per_turn_and_each_turn_sets_the_next_deadline(told):
    table, people = turn_based()
    told.clear()
    deadlines_seen = []
    turns = 0
    for _ in range(12):
        before, hole, state = current(table.pk)
        mover = next_actor(state)
        move(table.pk, people)
        after, hole, state_after = current(table.pk)
        if hole.finished_at is not None:
            break
        passed = state_after.phase != "tee_off" and (
            state.phase == "tee_off" or state_after.turn != state.turn
        )
        if passed:
            turns += 1
            deadlines_seen.append(after.turn_deadline)
            assert after.turn_deadline > before.turn_deadline or state.phase == "tee_off"
        else:
            # A draw, or a tee off while the other still tees off: the clock runs on.
            assert after.turn_deadline == before.turn_deadline, mover
    assert turns >= 3
    assert len(told) == turns
    # Each told the seat that was to move then.
    assert all(player_id == people[position].pk for _t, position, player_id in told)


def test_a_deadline_passing_has_the_timers_bot_move_once_and_the_late_move_is_refused(told):
    table, (ana, ben) = turn_based()
    move(table.pk, [ana, ben])  # Ana tees off; Ben has not
    table.refresh_from_db()
    stale_version = table.version
    assert drive_due(now=table.turn_deadline - timedelta(seconds=1)) is not None
    assert Table.objects.get(pk=table.pk).version == stale_version  # not due yet
    told.clear()

    drive_due(now=table.turn_deadline + timedelta(seconds=1))
    last = Move.objects.filter(hole__table=table).latest("hole__number", "seq")
    assert last.by_bot and last.seat == 1 and "played by the timer" in last.summary
    after = Table.objects.get(pk=table.pk)
    assert after.version == stale_version + 1
    # Ben's move after his deadline, on the version he saw: refused, nothing changed.
    _t, hole, state = current(table.pk)
    with pytest.raises(services.StaleVersion):
        services.apply_move(
            table_id=table.pk,
            player=ben,
            action={"type": "tee_off", "positions": [0, 1]},
            version=stale_version,
        )
    assert Table.objects.get(pk=table.pk).version == after.version
    # The next turn is told once, with a whole day from the bot's move.
    assert len(told) == 1
    assert after.turn_deadline >= timezone.now() + timedelta(hours=23)
    # Swept again: nothing more is due.
    drive_due()
    assert Table.objects.get(pk=table.pk).version == after.version


def test_the_sweep_plays_each_overdue_table_once_however_late_it_runs():
    tables = [turn_based()[0], turn_based(names=("dee", "eve"))[0]]
    # The machine was down for an hour past both deadlines.
    Table.objects.filter(pk__in=[t.pk for t in tables]).update(
        turn_deadline=timezone.now() - timedelta(hours=1)
    )
    versions = {t.pk: t.version for t in tables}
    assert deadlines.play_overdue() == 2
    # Tee off: the timer plays for both seats in one change; the next player has a day
    # from then, not from the deadline missed.
    for t in tables:
        after = Table.objects.get(pk=t.pk)
        assert after.version == versions[t.pk] + 2
        assert Move.objects.filter(hole__table=t, by_bot=True).count() == 2
        assert after.turn_deadline >= timezone.now() + timedelta(hours=23)
    assert deadlines.play_overdue() == 0


def test_a_break_pauses_the_clock_within_the_tables_limit():
    table, (ana, ben) = turn_based(away_days=3)
    now = timezone.now()
    deadline = lobby.take_break(table=table, player=ben, until=now + timedelta(days=2), now=now)
    # Ben is to tee off: his deadline is a day after his return.
    assert deadline >= now + timedelta(days=3)
    version = Table.objects.get(pk=table.pk).version
    with pytest.raises(services.GameError, match="allows 3 days away in a match; you have 1 left"):
        lobby.take_break(table=table, player=ben, until=now + timedelta(days=5), now=now)
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.turn_deadline) == (version, deadline)
    with pytest.raises(services.GameError, match="Only a turn-based table"):
        live = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
        lobby.start_match(table=live, by=ana)
        lobby.take_break(table=live, player=ben, until=now + timedelta(days=1))


def test_playing_hours_keep_a_deadline_out_of_the_players_night():
    table, _people = turn_based(move_time=3600, playing_hours=(8, 22), zone="Pacific/Kiritimati")
    assert table.clocks == {"0": {"zone": "Pacific/Kiritimati"}}  # Ben's: the site's
    started = table.turn_started_at
    ana_due = pace.seat_deadline(table, 0, started)
    assert 8 <= ana_due.astimezone(ZoneInfo("Pacific/Kiritimati")).hour < 22
    ben_due = pace.seat_deadline(table, 1, started)
    assert 8 <= ben_due.astimezone(ZoneInfo(settings.TIME_ZONE)).hour < 22
    # Both tee off at once: the later of their deadlines holds for both.
    assert table.turn_deadline == max(ana_due, ben_due)


def test_bad_pace_settings_are_refused_and_open_no_table():
    ana = make_player("ana")
    count = Table.objects.count()
    for fields, message in [
        ({"move_time": 7}, "live, or turn-based"),
        ({"move_time": DAY, "playing_hours": (8, 8)}, "Playing hours"),
        ({"move_time": DAY, "away_days": 99}, "away 0 to 14 days"),
        ({"move_time": DAY, "turn_timer": 30}, "not a turn timer"),
    ]:
        with pytest.raises(services.GameError, match=message):
            lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana], **fields)
    assert Table.objects.count() == count


def test_a_live_table_keeps_no_deadline_and_the_idle_sweep_leaves_turn_based_ones():
    table, _people = turn_based()
    live, _ = turn_based(move_time=0, names=("dee", "eve"))
    assert live.turn_deadline is None
    Table.objects.filter(pk__in=[table.pk, live.pk]).update(
        turn_started_at=timezone.now() - timedelta(days=2)
    )
    assert idle.abandon_idle_tables() == [live.pk]
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_your_games_lists_those_waiting_for_you_first_in_two_queries(django_assert_num_queries):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")

    def table_of(first, second):
        t = lobby.create_table(
            host=first, variant="play-nine", seat_count=2, players=[first, second], move_time=DAY
        )
        return lobby.start_match(table=t, by=first)

    waiting_on_ben = table_of(ana, ben)
    move(waiting_on_ben.pk, [ana, ben])  # Ana tees off: Ben to move
    both = table_of(ben, ana)
    with django_assert_num_queries(2):
        games = selectors.your_games(ana)
    assert [(g.table.pk, g.your_turn) for g in games] == [
        (both.pk, True),
        (waiting_on_ben.pk, False),
    ]
    assert games[1].to_move == ["Ben"]
    for _ in range(5):
        table_of(ana, ben)
    with django_assert_num_queries(2):
        assert len(selectors.your_games(ana)) == 7


@pytest.mark.postgres
def test_two_devices_of_one_player_moving_at_once_make_one_move():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): two writers at once need a real server")
    table, people = turn_based()
    _t, hole, state = current(table.pk)
    seat = next_actor(state)
    player = people[hole.seat_positions[seat]]
    action = quick_action(state, seat)
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def device() -> None:
        try:
            start.wait()
            services.apply_move(
                table_id=table.pk, player=player, action=action, version=table.version
            )
            outcomes.append("moved")
        except services.GameError as error:
            outcomes.append(type(error).__name__)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=device) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(outcomes) == ["StaleVersion", "moved"]
    assert Move.objects.filter(hole__table=table).count() == 1
    assert Table.objects.get(pk=table.pk).version == table.version + 1


def test_a_move_out_of_turn_is_refused_and_leaves_the_deadline_as_it_was():
    table, (ana, ben) = turn_based()
    move(table.pk, [ana, ben])  # Ana tees off; Ben is to tee off
    before = Table.objects.get(pk=table.pk)
    _t, _hole, state = current(table.pk)
    with pytest.raises(services.GameError):
        services.apply_move(
            table_id=table.pk,
            player=ana,
            action={"type": "tee_off", "positions": [0, 1]},
            version=before.version,
        )
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.turn_deadline) == (before.version, before.turn_deadline)

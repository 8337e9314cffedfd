"""Live frames: what a process holds of a table, and the moves it replays from their news."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from contextlib import contextmanager
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import announce, engine, frames, live, lobby, moves, plays, services
from games.models import Scorecard
from tests import driving
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@contextmanager
def nothing_held():
    """Run with this process holding no table, then put back what it held."""
    held = dict(frames._versions)
    frames.forget()
    try:
        yield
    finally:
        frames.forget()
        frames._versions.update(held)


@pytest.fixture(autouse=True)
def _versions_stay_fresh(monkeypatch):
    """A held version grows old after `frames.MAX_AGE` and is then read again: these
    tests play whole matches, which a loaded machine may stretch past it."""
    monkeypatch.setattr(frames, "MAX_AGE", 3600.0)


def from_memory(table_id: int, viewer, version: int, news: dict | None = None) -> str | None:
    """The viewer's frame of `version` if this process holds it or can make it from
    `news` (never reading the table), else None."""
    if frames.kept_version(table_id, version, news) is None:
        return None
    return driving.render_frame(table_id, viewer, version=version)


def _table_with_a_bot(turn_timer: int = 0):
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name='<i>Ben & "Bo"</i>')
    table = lobby.create_table(
        host=ana,
        variant="play-nine",
        seat_count=3,
        players=[ana, ben],
        bots={2: "greedy"},
        turn_timer=turn_timer,
    )
    lobby.start_match(table=table, by=ana)
    return table, {0: ana, 1: ben}


def _next_move(table, people) -> services.MoveResult:
    """Whoever is next moves: a person through `apply_move`, the bot through the driver's door."""
    db_table, hole, state = current(table.pk)
    seat = next_actor(state)
    position = hole.seat_positions[seat]
    if position not in people:
        far = timezone.now() + timedelta(days=1)
        return services.act_for_table(table_id=table.pk, version=db_table.version, now=far)
    return services.apply_move(
        table_id=table.pk,
        player=people[position],
        action=quick_action(state, seat),
        version=db_table.version,
    )


def _held_and_fresh(table, viewers, result, django_assert_num_queries) -> list[str]:
    """Each viewer's frame of the new version made from its news, checked against what a
    fresh read of the table renders."""
    with django_assert_num_queries(0):
        held = [from_memory(table.pk, viewer, result.version, result.news) for viewer in viewers]
    with nothing_held():
        fresh = [driving.render_frame(table.pk, viewer) for viewer in viewers]
    assert held == fresh
    assert f'data-version="{result.version}"' in held[0]
    return held


def test_moves_and_deals_made_from_their_news_render_as_a_fresh_read_does(
    django_assert_num_queries,
):
    table, people = _table_with_a_bot()
    viewers = [people[0], people[1], make_player("cy")]  # two seats and a spectator
    driving.render_frame(table.pk, people[0])  # this process now holds the first version
    replayed = 0
    while True:
        result = _next_move(table, people)
        assert "move" in result.news
        held = _held_and_fresh(table, viewers, result, django_assert_num_queries)
        replayed += 1
        if result.hole_over:
            break
    assert replayed > 10
    # The end of the hole put its strokes on the scorecard, made from the news too.
    scores = current(table.pk)[1].scores
    assert f'aria-label="Replay hole 1: {scores[0]}"' in held[0]
    assert f"<strong>{scores[0]}</strong>" in held[0]
    # The next deal is dealt again from its seed, and play goes on from it.
    result = services.next_hole(table_id=table.pk, version=result.version)
    assert "deal" in result.news
    dealt = _held_and_fresh(table, viewers, result, django_assert_num_queries)
    assert "Hole 2 of 9" in dealt[0]
    for _ in range(5):
        _held_and_fresh(table, viewers, _next_move(table, people), django_assert_num_queries)


def test_a_match_played_out_from_news_ends_with_a_read_of_its_results(
    django_assert_num_queries,
):
    """Every hole's end is made from news, the match's end (its results) is read."""
    table, people = _table_with_a_bot()
    viewers = [people[0], people[1]]
    driving.render_frame(table.pk, people[0])
    far = timezone.now() + timedelta(days=1)
    while True:
        db_table, hole, _state = current(table.pk)
        if hole.finished_at is not None:
            result = services.act_for_table(table_id=table.pk, version=db_table.version, now=far)
        else:
            result = _next_move(table, people)
        if result.match_over:
            break
        _held_and_fresh(table, viewers, result, django_assert_num_queries)
    assert result.news is None
    assert from_memory(table.pk, people[0], result.version) is None
    assert "Final results" in driving.render_frame(table.pk, people[0], version=result.version)


def test_a_corrected_scorecard_is_read_at_once_not_added_to(django_assert_num_queries):
    """A correction in the middle of a hole moves the table to a version without news:
    its viewers read the corrected card (not the one held since the hole began), and the
    end of the hole adds to that."""
    from games.models import Scorecard

    table, people = _table_with_a_bot()
    viewers = [people[0], people[1]]
    while not (result := _next_move(table, people)).hole_over:
        pass
    result = services.next_hole(table_id=table.pk, version=result.version)
    driving.render_frame(table.pk, people[0], version=result.version)
    for _ in range(3):
        _held_and_fresh(table, viewers, _next_move(table, people), django_assert_num_queries)
    card = Scorecard.objects.get(table=table, position=0)
    old = card.holes.get(number=1).strokes
    assert lobby.correct_scorecard(scorecard=card, number=1, strokes=old + 3) == old
    version = current(table.pk)[0].version
    assert version == result.version + 4
    assert from_memory(table.pk, people[0], version) is None
    html = driving.render_frame(table.pk, people[0], version=version)
    assert f'aria-label="Replay hole 1: {old + 3}"' in html
    assert f"<strong>{old + 3}</strong>" in html
    while True:
        result = _next_move(table, people)
        held = _held_and_fresh(table, viewers, result, django_assert_num_queries)
        if result.hole_over:
            break
    second = current(table.pk)[1].scores[0]
    assert f"<strong>{old + 3 + second}</strong>" in held[0]


def test_without_the_version_before_a_move_is_not_replayed():
    table, people = _table_with_a_bot()
    frames.forget()
    result = _next_move(table, people)
    assert result.news is not None
    assert from_memory(table.pk, people[0], result.version, result.news) is None
    # Held again, then a version missed in between: the next news cannot be replayed.
    driving.render_frame(table.pk, people[0], version=result.version)
    _next_move(table, people)
    result = _next_move(table, people)
    assert result.news is not None
    assert from_memory(table.pk, people[0], result.version, result.news) is None
    # Its own version, held, is served as it is.
    held = driving.render_frame(table.pk, people[0])
    assert from_memory(table.pk, people[0], result.version) == held


def test_names_on_courses_are_escaped():
    table, people = _table_with_a_bot()
    html = driving.render_frame(table.pk, people[0])
    assert "<i>Ben" not in html
    name = "&lt;i&gt;Ben &amp; &quot;Bo&quot;&lt;/i&gt;"
    assert f'aria-label="{name}\'s course"' in html
    assert f'<span class="seat-name">{name}</span>' in html


def test_names_in_the_live_templates_are_escaped():
    table, people = _table_with_a_bot()
    html = driving.render_frame(table.pk, people[0])
    assert "<i>" not in html
    # Jinja2 escapes quotes as numeric references.
    assert '<th scope="row">&lt;i&gt;Ben &amp; &#34;Bo&#34;&lt;/i&gt;</th>' in html


@pytest.mark.django_db(transaction=True)
async def test_news_wakes_the_driver_only_when_the_server_may_have_work():
    layer = get_channel_layer()
    channel = await layer.new_channel()

    @database_sync_to_async
    def setup(bots):
        ana, ben = make_player(), make_player()
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=3, players=[ana, ben], bots=bots
        )
        if not bots:
            lobby.join_table(table=table, player=make_player())
        lobby.start_match(table=table, by=ana)
        return table, ana

    @database_sync_to_async
    def tee_off(table, ana):
        db_table, hole, state = current(table.pk)
        seat = hole.seat_positions.index(0)
        return services.apply_move(
            table_id=table.pk,
            player=ana,
            action=engine.legal_actions(state, seat)[0],
            version=db_table.version,
        )

    for bots, wake in (({}, False), ({2: "greedy"}, True)):
        table, ana = await setup(bots)
        await layer.group_add(announce.group_name(table.pk), channel)
        result = await tee_off(table, ana)
        message = await layer.receive(channel)
        assert message == {
            "type": "table.changed",
            "version": result.version,
            "wake": wake,
            "news": result.news,
        }
        await layer.group_discard(announce.group_name(table.pk), channel)


@pytest.mark.django_db(transaction=True)
async def test_viewers_waiting_on_the_same_version_share_one_read(monkeypatch):
    table, people = await database_sync_to_async(_table_with_a_bot)()
    hops, reads = [], []
    real_read, real_data = frames._read, frames.selectors.table_data

    def read(*args):
        hops.append(args[0])
        return real_read(*args)

    def table_data(*args):
        reads.append(args[0])
        return real_data(*args)

    # Counted, not replaced: the database thread is asked once, and reads once.
    monkeypatch.setattr(frames, "_read", read)
    monkeypatch.setattr(frames.selectors, "table_data", table_data)
    version = (await database_sync_to_async(current)(table.pk))[0].version
    viewers = [people[0], people[1], await database_sync_to_async(make_player)()]
    got = await asyncio.gather(
        *(driving.live_frame(table.pk, viewer, version=version) for viewer in viewers)
    )
    assert hops == reads == [table.pk]
    assert all(f'data-version="{version}"' in html for html in got)
    assert "Your course" in got[0] and "Your course" not in got[2]


def full_reads(monkeypatch) -> list[int]:
    """The ids of the tables read in full (`selectors.table_data`) from now on."""
    reads = []
    real_data = frames.selectors.table_data

    def table_data(*args):
        reads.append(args[0])
        return real_data(*args)

    monkeypatch.setattr(frames.selectors, "table_data", table_data)
    return reads


@pytest.mark.django_db(transaction=True)
async def test_an_old_version_is_served_from_memory_and_read_again_behind(monkeypatch):
    table, people = await database_sync_to_async(_table_with_a_bot)()
    ana = people[0]
    version = (await database_sync_to_async(current)(table.pk))[0].version
    await driving.live_frame(table.pk, ana, version=version)
    reads = full_reads(monkeypatch)
    # Names are not versioned: one changes, and the version held grows old.
    await database_sync_to_async(type(ana).objects.filter(pk=ana.pk).update)(display_name="Anna")
    frames._versions[table.pk].stale_at = time.monotonic() - 1
    result = await database_sync_to_async(_next_move)(table, people)
    # The move's frame comes from memory at once (its name as held), a read goes behind.
    html = await driving.live_frame(table.pk, people[1], version=result.version, news=result.news)
    assert f'data-version="{result.version}"' in html
    assert "Anna" not in html and reads == []
    tasks = list(frames._refreshing[asyncio.get_running_loop()].values())
    assert len(tasks) == 1
    await tasks[0]
    assert reads == [table.pk]
    # The next frame is the read's: the new name, and a version fresh for MAX_AGE again.
    html = await driving.live_frame(table.pk, people[1], version=result.version)
    assert "Anna" in html
    assert frames._versions[table.pk].fresh(time.monotonic())
    assert frames._refreshing[asyncio.get_running_loop()] == {}


@pytest.mark.django_db(transaction=True)
async def test_an_old_version_that_still_holds_is_kept_after_two_small_queries(monkeypatch):
    table, people = await database_sync_to_async(_table_with_a_bot)()
    version = (await database_sync_to_async(current)(table.pk))[0].version
    await driving.live_frame(table.pk, people[0], version=version)
    reads = full_reads(monkeypatch)
    kept = frames._versions[table.pk]
    kept.stale_at = time.monotonic() - 1

    def recheck() -> int:
        with CaptureQueriesContext(connection) as queries:
            frames._recheck(table.pk)
        return len(queries)

    assert await database_sync_to_async(recheck)() == 2
    assert reads == []
    assert frames._versions[table.pk] is kept and kept.fresh(time.monotonic())
    # A correction changes a card's total, which no version counts: read in full.
    corrected = await database_sync_to_async(Scorecard.objects.filter(table=table).update)(
        total=F("total") + 5
    )
    assert corrected
    kept.stale_at = time.monotonic() - 1
    await database_sync_to_async(frames._recheck)(table.pk)
    assert reads == [table.pk]
    assert frames._versions[table.pk] is not kept


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_a_players_move_is_rendered_for_its_viewers_while_it_is_written(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")
    table, people = await database_sync_to_async(_table_with_a_bot)()
    ana, ben = people[0], people[1]
    renders = []
    real_render = frames._render

    def render(version, user, alert):
        renders.append((version.number, user.pk))
        return real_render(version, user, alert)

    monkeypatch.setattr(frames, "_render", render)
    for viewer in (ana, ben):
        frames.watch(table.pk, viewer)

    async def fresh(viewer) -> str:
        def read() -> str:
            with nothing_held():
                return driving.render_frame(table.pk, viewer)

        return await database_sync_to_async(read)()

    @database_sync_to_async
    def next_move() -> dict:
        db_table, hole, state = current(table.pk)
        seat = next_actor(state)
        player = people.get(hole.seat_positions[seat])
        action = quick_action(state, seat)
        return {"player": player, "action": action, "version": db_table.version}

    apply = moves.on_move_thread(services.apply_move)
    try:
        # A move foreseen but not written (a double click on an old copy) is never shown.
        args = await next_move()
        await driving.live_frame(table.pk, ana, version=args["version"])
        old = frames.kept_copy(table.pk, args["version"])
        first = await apply(table_id=table.pk, **args)
        with pytest.raises(services.StaleVersion):
            await apply(table_id=table.pk, **args, kept=old)
        await asyncio.sleep(0)
        for viewer in (ana, ben):
            got = await driving.live_frame(table.pk, viewer, version=first.version, news=first.news)
            assert got == await fresh(viewer)
        # Each of Ana's and Ben's moves is rendered once per viewer, ahead, and the frames
        # sent once it is announced are those, as a fresh read's, to the hole's end (which
        # is written on the full path, with the scorecard).
        checked = 0
        for _ in range(300):
            args = await next_move()
            if args["player"] is None:  # the bot's turn
                result = await database_sync_to_async(_next_move)(table, people)
                if result.hole_over:  # the bot ended the hole: play the next one
                    result = await database_sync_to_async(services.next_hole)(
                        table_id=table.pk, version=result.version
                    )
                await driving.live_frame(table.pk, ana, version=result.version, news=result.news)
                continue
            renders.clear()
            copy = frames.kept_copy(table.pk, args["version"])
            result = await apply(table_id=table.pk, **args, kept=copy)
            await asyncio.sleep(0)
            assert sorted(renders) == sorted([(result.version, ana.pk), (result.version, ben.pk)])
            got = [
                await driving.live_frame(table.pk, viewer, version=result.version, news=result.news)
                for viewer in (ana, ben)
            ]
            assert len(renders) == 2  # nothing rendered again
            assert got == [await fresh(ana), await fresh(ben)]
            checked += 1
            if result.hole_over:
                assert " over.</strong>" in got[0]  # the hole's banner
                break
        assert checked >= 5 and result.hole_over
        # The next deal, asked for by a player, is rendered ahead as well, though its
        # hole gets its id only once written.
        renders.clear()
        copy = frames.kept_copy(table.pk, result.version)
        dealt = await moves.on_move_thread(services.next_hole)(
            table_id=table.pk, version=result.version, by=ana, kept=copy
        )
        await asyncio.sleep(0)
        assert sorted(renders) == sorted([(dealt.version, ana.pk), (dealt.version, ben.pk)])
        got = [
            await driving.live_frame(table.pk, viewer, version=dealt.version, news=dealt.news)
            for viewer in (ana, ben)
        ]
        assert len(renders) == 2
        assert got == [await fresh(ana), await fresh(ben)]
        assert frames._versions[table.pk].data.hole.pk == dealt.news["deal"]["hole"]
        # The version held from then on follows the new hole's moves by their news.
        result = await database_sync_to_async(_next_move)(table, people)
        kept = frames.kept_version(table.pk, result.version, result.news)
        assert kept is not None and kept.data.state.version == 1
    finally:
        for viewer in (ana, ben):
            frames.unwatch(table.pk, viewer)
    assert frames._viewers.get(table.pk) is None


@pytest.mark.parametrize("turn_timer", [0, 30])
def test_what_viewers_share_renders_as_each_viewer_rendered_alone(monkeypatch, turn_timer):
    """Courses and boards' frames kept across versions, and the status and piles that the
    viewers of one version share, make exactly the parts each viewer gets rendered alone,
    through a hole and its end, with a turn timer counting down or none."""
    table, people = _table_with_a_bot(turn_timer=turn_timer)
    viewers = [people[0], people[1], make_player("cy")]
    frames._kept_html.clear()
    shown = renders = 0
    over = False
    while renders < 300:
        frames.forget()
        version = frames._read(table.pk)
        now = timezone.now()
        with monkeypatch.context() as frozen:
            frozen.setattr(timezone, "now", lambda now=now: now)  # the same countdown for both
            together = dataclasses.replace(version, parts={}, foreseen={})
            kept = [frames._render(together, viewer, "") for viewer in viewers]
            frozen.setattr(frames, "_kept_html", None)
            # Each alone: a copy of the read too, without what its viewers share.
            alone = [
                frames._render(
                    dataclasses.replace(
                        version, data=dataclasses.replace(version.data), parts={}, foreseen={}
                    ),
                    viewer,
                    "",
                )
                for viewer in viewers
            ]
        assert kept == alone
        assert [str(p["board"]) for p in kept] == [str(p["board"]) for p in alone]
        shown += len(viewers) * 3
        renders += 1
        if over:
            break
        over = _next_move(table, people).hole_over
    else:
        pytest.fail("the hole did not end")
    # Most courses look as they did a move before: far fewer were rendered than shown.
    assert 0 < len(frames._kept_html) < shown / 3


def test_a_move_written_after_its_viewers_loop_stopped_renders_nothing_ahead():
    loop = asyncio.new_event_loop()
    loop.close()
    table, _people = _table_with_a_bot()
    in_play = frames._read(table.pk).data.in_play
    copy = frames.LoopCopy(in_play, loop)
    copy.ahead(plays.Step(in_play, in_play, news={"move": {}}))  # no error, nothing scheduled
    assert table.pk not in frames._foreseen


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("turn_timer", [0, 30])
async def test_frames_rendered_ahead_go_stale_only_when_they_count_seconds_down(
    monkeypatch, turn_timer
):
    """A busy server's news may come late: frames rendered ahead are sent however late
    it comes, unless they show a countdown, which is rendered again."""

    def seat_and_step() -> plays.Step:
        ana, ben = make_player("ana"), make_player("ben")
        table = lobby.create_table(
            host=ana, variant="play-nine", seat_count=2, players=[ana, ben], turn_timer=turn_timer
        )
        lobby.start_match(table=table, by=ana)
        people = {0: ana, 1: ben}
        in_play = frames._read(table.pk).data.in_play
        db_table, hole, state = current(table.pk)
        seat = next_actor(state)
        position = hole.seat_positions[seat]
        action = quick_action(state, seat)
        return people, plays.play(in_play, position, action, at=timezone.now())

    frames.forget()
    people, step = await database_sync_to_async(seat_and_step)()
    table_id = step.before.table.pk
    ana = people[0]
    renders = []
    real_render = frames._render

    def render(version, user, alert):
        renders.append(version.number)
        return real_render(version, user, alert)

    monkeypatch.setattr(frames, "_render", render)
    frames.watch(table_id, ana)
    try:
        frames.ahead(table_id, step)
        assert renders == [step.after.table.version]
        monkeypatch.setattr(frames, "FORESIGHT", -1.0)  # every news comes too late
        version = step.after.table.version
        parts = await frames.live_parts(table_id, ana, version=version, news=step.news)
        assert f'data-version="{version}"' in parts["status"]
        assert len(renders) == (2 if turn_timer else 1)
    finally:
        frames.unwatch(table_id, ana)


def test_a_frame_carries_the_pieces_of_the_board_that_changed_and_they_make_the_new_board():
    """Through a hole the board's frame holds (who sits where, the banner, the buttons
    below the felt): a frame then carries only the courses and piles that changed, and
    swapping them by id into the board the viewer holds gives exactly the new board."""
    table, people = _table_with_a_bot()
    viewers = [people[0], people[1], make_player("cy")]
    held: dict[int, dict] = {}
    sent = whole = pieces_only = 0
    for _ in range(300):
        frames.forget()
        version = frames._read(table.pk)
        for viewer in viewers:
            parts = frames._render(version, viewer, "")
            before = held.get(viewer.pk)
            held[viewer.pk] = parts
            if before is None:
                continue
            html = live.changed(before, parts)
            board = parts["board"]
            if 'id="table-board"' in html:
                assert board.frame != before["board"].frame
                continue
            swapped = [key for key, piece in board.pieces.items() if piece in html]
            made = str(before["board"])
            for key in swapped:
                made = made.replace(before["board"].pieces[key], board.pieces[key])
            assert made == board
            # Nothing else of the board: the other parts that changed, and the pieces.
            others = [
                p for n, p in parts.items() if n != "board" and (n == "alert" or before[n] != p)
            ]
            assert len(html) == sum(map(len, others)) + sum(len(board.pieces[k]) for k in swapped)
            sent += len(html)
            whole += sum(map(len, others)) + len(board)
            pieces_only += 1
        if _next_move(table, people).hole_over:
            break
    else:
        pytest.fail("the hole did not end")
    assert pieces_only > 20
    assert sent < whole * 0.7  # what the pieces are for


def test_a_full_cache_of_pieces_drops_its_least_used_quarter_not_everything(monkeypatch):
    """Dropping every piece at once had every table render all of its courses again
    in the same moment; and a board's frame, used at every move, outlives the courses
    of the tee off."""
    from games import tiles

    monkeypatch.setattr(tiles, "HTML_KEPT", 12)
    html: dict = {}
    monkeypatch.setattr(frames, "_kept_html", html)
    table, people = _table_with_a_bot()
    sizes, first_keys = [], None
    for _ in range(40):
        frames.forget()
        frames._render(frames._read(table.pk), people[0], "")
        first_keys = first_keys or list(html)
        sizes.append(len(html))
        if _next_move(table, people).hole_over:
            break
    assert max(sizes) <= 12
    assert min(sizes[sizes.index(12) :]) >= 12 - 12 // 4
    frame = next(key for key in first_keys if key[0] == "board")
    courses = {key for key in first_keys if key[0] != "board"}
    assert courses and not courses & set(html)  # the least recently used went first
    assert frame in html

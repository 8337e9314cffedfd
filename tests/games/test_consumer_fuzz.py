"""Random frames to a seated player's socket never change a game unless they are a legal move."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from games import autoplay, engine, lobby, loop_writes
from games.models import Move
from tests.factories import make_player
from tests.games.conftest import connect
from tests.games.helpers import current, next_actor, quick_action
from tests.games.test_consumers import frame_for

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

MARKER = "x" * 5000  # answered with "too long": ends the replies to one example
KEYS = st.sampled_from(["type", "version", "source", "position", "positions", "HEADERS", "move_id"])
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(["tee_off", "draw", "replace", "flip", "discard", "knock", "swap", "sync"]),
    st.sampled_from(["pile", "discard", "0", "7", "-1", "99", "next_hole"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(KEYS, st.text(max_size=8)), inner, max_size=5),
    ),
    max_leaves=10,
)
BYTES = st.binary(min_size=1, max_size=64)


def snapshot(table_id: int):
    table, hole, state = current(table_id)
    return (Move.objects.count(), hole.number, hole.state, table.version), state


def test_random_frames_change_nothing_unless_they_are_a_legal_move(settings):
    settings.FAIRWAY_WS_RATE = 1_000_000  # the flood throttle has its own test
    settings.FAIRWAY_HOLE_PAUSE = 3600  # no deal but Ana's "next hole"
    ana, ben = make_player("ana"), make_player("ben")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=table, by=ana)
    loop = asyncio.new_event_loop()
    ana_ws, _ = loop.run_until_complete(connect(ana, table.pk))
    ben_ws, _ = loop.run_until_complete(connect(ben, table.pk))
    applied = []

    async def replies(ws) -> list[str]:
        """Every frame up to the marker's answer (so nothing leaks into the next example)."""
        await ws.send_to(MARKER)
        frames = []
        while True:
            frame = await ws.receive_from(timeout=10)
            if "too long" in frame:
                return frames
            frames.append(frame)

    def ben_catches_up() -> None:
        """Ben moves whenever the hole waits for him, so the fuzzing reaches later phases."""
        while True:
            db_table, hole, state = current(table.pk)
            if hole.finished_at is not None or hole.seat_positions[next_actor(state)] != 1:
                return
            frame = frame_for(quick_action(state, next_actor(state)), db_table.version)
            loop.run_until_complete(ben_ws.send_to(frame))
            loop.run_until_complete(replies(ben_ws))
            loop.run_until_complete(replies(ana_ws))

    @examples(
        max_examples=80,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(data=st.data())
    def one_frame(data) -> None:
        ben_catches_up()
        before, state = snapshot(table.pk)
        moves, number, _, version = before
        legal = engine.legal_actions(state, current(table.pk)[1].seat_positions.index(0))
        sent = None
        # Draw the same shape whatever the table's state (hypothesis replays draws).
        kind = data.draw(st.sampled_from(["json", "text", "bytes", "legal"]))
        value, text, raw = (
            data.draw(JSON),
            data.draw(st.text(min_size=1, max_size=64)),
            data.draw(BYTES),
        )
        pick, stale = data.draw(st.integers(0, 99)), data.draw(st.booleans())
        if kind == "legal" and legal:
            action = legal[pick % len(legal)]
            loop.run_until_complete(ana_ws.send_to(frame_for(action, version - stale)))
            sent = {"type": action["type"], "version": version - stale}
        elif kind == "bytes":
            loop.run_until_complete(ana_ws.send_to(bytes_data=raw))
        elif kind == "text":
            loop.run_until_complete(ana_ws.send_to(text))
        else:
            sent = value
            loop.run_until_complete(ana_ws.send_to(json.dumps(value)))
        loop.run_until_complete(replies(ana_ws))
        after, _ = snapshot(table.pk)
        if after == before:
            return
        after_moves, after_number, _, after_version = after
        assert after_version == version + 1
        if after_number != number:
            # Ana dealt the next hole: only after the last one ended, on the version she saw.
            assert state.phase == engine.OVER
            assert isinstance(sent, dict) and sent.get("type") == "next_hole"
            assert str(sent.get("version")) == str(version)
            return
        # Otherwise exactly one legal move of Ana's, on the version she saw.
        move = Move.objects.order_by("-pk").first()
        assert after_moves == moves + 1
        assert move.seat == 0 and move.action in legal
        assert isinstance(sent, dict) and str(sent.get("version")) == str(version)
        applied.append(move.action)

    try:
        one_frame()
    finally:
        for ws in (ana_ws, ben_ws):
            loop.run_until_complete(ws.disconnect())
        loop.run_until_complete(autoplay.stop())
        loop.run_until_complete(loop_writes.close())  # its pool's tasks end with it
        loop.close()
    assert applied, "some legal moves were sent and applied"

"""The table consumer's guards: resync by version, the flood throttle, replayed sends."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from games import announce, services
from games.consumers import SLOW_DOWN
from games.ratelimit import TokenBucket
from tests.factories import make_player
from tests.games.conftest import connect
from tests.games.helpers import current
from tests.games.test_consumers import frame_for, snapshot, two_players

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("stop_driver"),
    pytest.mark.both_databases,
]

TEE = {"type": "tee_off", "positions": [0, 1]}


def sync_frame(version: int) -> str:
    return json.dumps({"type": "sync", "version": str(version), "HEADERS": {"HX-Request": "true"}})


def test_the_token_bucket_allows_a_burst_then_its_rate():
    bucket = TokenBucket(rate=10, burst=20)
    assert all(bucket.allow(100.0) for _ in range(20))
    assert not bucket.allow(100.0)
    assert bucket.allow(100.25) and bucket.allow(100.25)  # a quarter second earns 2.5
    assert not bucket.allow(100.25)
    assert sum(bucket.allow(200.0) for _ in range(30)) == 20  # refills to the burst only


async def test_a_sync_at_the_current_version_gets_nothing_and_a_stale_one_a_full_render():
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    await ana_ws.send_to(sync_frame(table.version))
    assert await ana_ws.receive_nothing(timeout=0.3)
    await ana_ws.send_to(sync_frame(table.version - 1))
    frame = await ana_ws.receive_from(timeout=10)
    assert f'data-version="{table.version}"' in frame and 'id="table-board"' in frame
    await ana_ws.disconnect()


async def test_a_connection_that_missed_the_news_catches_up_on_its_next_sync(monkeypatch):
    table, ana, ben = await two_players()
    ana_ws, first = await connect(ana, table.pk)
    seen = table.version
    assert f'data-version="{seen}"' in first
    # Ben's move is committed but its news is lost on the way, as channels-redis drops
    # messages over a channel's capacity: on any channel layer.
    monkeypatch.setattr(announce, "table_changed", lambda table, **_: None)
    await database_sync_to_async(services.apply_move)(
        table_id=table.pk, player=ben, action=TEE, version=seen
    )
    monkeypatch.undo()
    assert await ana_ws.receive_nothing(timeout=0.3)
    _, _, version = await snapshot(table.pk)
    assert version == seen + 1

    await ana_ws.send_to(sync_frame(seen))
    frame = await ana_ws.receive_from(timeout=10)
    assert f'data-version="{version}"' in frame
    assert "Ben" in frame and "tee" in frame.lower()
    await ana_ws.disconnect()


async def test_a_flood_is_told_to_slow_down_ignored_and_then_closed(settings):
    # No refill, so the test does not depend on how fast this machine is.
    settings.FAIRWAY_WS_RATE = 0
    settings.FAIRWAY_WS_BURST = 3
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    before = await snapshot(table.pk)
    for _ in range(3):
        await ana_ws.send_to("not json")
        assert "not understood" in await ana_ws.receive_from(timeout=10)
    # Over the limit: one alert, and even a legal move is ignored.
    await ana_ws.send_to(frame_for(TEE, table.version))
    assert SLOW_DOWN in await ana_ws.receive_from(timeout=10)
    for _ in range(10):
        await ana_ws.send_to(frame_for(TEE, table.version))
    assert await ana_ws.receive_nothing(timeout=0.3)
    assert await snapshot(table.pk) == before
    # A sustained flood closes the socket with 4429.
    for _ in range(40):
        await ana_ws.send_to("not json")
    closed = await ana_ws.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4429}
    await ana_ws.disconnect()


async def test_a_move_replayed_after_a_reconnect_is_refused_as_stale():
    """htmx replays queued sends on reconnect: the version makes the second one stale."""
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    sent = json.loads(frame_for(TEE, table.version))
    sent["move_id"] = "ana-1"
    await ana_ws.send_to(json.dumps(sent))
    assert "table-alert shown" not in await ana_ws.receive_from(timeout=10)
    await ana_ws.disconnect()

    again, frame = await connect(ana, table.pk)
    assert f'data-version="{table.version + 1}"' in frame
    await again.send_to(json.dumps(sent))
    reply = await again.receive_from(timeout=10)
    assert "moved on" in reply and f'data-version="{table.version + 1}"' in reply
    count, _, version = await snapshot(table.pk)
    assert count == 1 and version == table.version + 1
    _, _, state = await database_sync_to_async(current)(table.pk)
    assert state.teed_off.count(True) == 1
    await again.disconnect()


async def test_a_spectator_sync_gets_the_spectators_render():
    table, ana, ben = await two_players()
    stranger = await database_sync_to_async(make_player)("cy")
    spectator, _ = await connect(stranger, table.pk)
    await spectator.send_to(sync_frame(0))
    frame = await spectator.receive_from(timeout=10)
    assert 'id="table-board"' in frame
    # The only forms a spectator gets are the resyncs: the table's and the chat's.
    assert frame.count('value="sync"') == frame.count('value="chat_sync"') == 1
    assert frame.count("<form ws-send") == 2
    await spectator.disconnect()


@pytest.mark.parametrize(
    "text",
    [
        '{"type": [1], "version": 1}',
        '{"type": {"a": 1}, "version": 1}',
        '{"type": "draw", "source": ["pile"], "version": 1}',
        "[" * 1500 + "]" * 1500,
        '{"type": "draw", "version": ' + "[" * 1500 + "]" * 1500 + "}",
        '{"type": "swap", "positions": {"0": 1}, "version": 1}',
        "NaN",
        '"just a string"',
    ],
)
async def test_any_message_shape_is_refused_politely_and_the_socket_stays(text):
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    before = await snapshot(table.pk)
    await ana_ws.send_to(text)
    alert = await ana_ws.receive_from(timeout=10)
    assert 'id="table-alert"' in alert and "<p>" in alert
    # Still open, still answering, nothing changed.
    await ana_ws.send_to(sync_frame(table.version - 1))
    assert 'id="table-board"' in await ana_ws.receive_from(timeout=10)
    assert await snapshot(table.pk) == before
    await ana_ws.disconnect()


async def test_a_connection_that_fails_leaves_its_table_group(monkeypatch):
    from channels.layers import get_channel_layer

    from games.consumers import TableConsumer

    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)

    async def broken(self, text_data=None, bytes_data=None):
        raise RuntimeError("a bug")

    monkeypatch.setattr(TableConsumer, "receive", broken)
    await ana_ws.send_to(sync_frame(table.version))
    with pytest.raises(RuntimeError, match="a bug"):  # the server closes it with 1011
        await ana_ws.receive_output(timeout=10)
    layer = get_channel_layer()
    assert not layer.groups.get(announce.group_name(table.pk))


async def test_a_new_password_closes_the_accounts_other_sockets():
    """A password change signs out the account's other sessions, sockets included; a
    change of display name does not."""
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)

    def rename(player) -> None:
        player.display_name = "Anna"
        player.save()

    await database_sync_to_async(rename)(ana)
    await ana_ws.send_to(sync_frame(table.version - 1))
    assert 'id="table-board"' in await ana_ws.receive_from(timeout=10)

    def new_password(player) -> None:
        player.set_password("a whole new secret 77")
        player.save()

    await database_sync_to_async(new_password)(ana)
    assert await ana_ws.receive_output(timeout=10) == {"type": "websocket.close", "code": 4401}
    # Ben's socket is his own, and stays.
    await ben_ws.send_to(sync_frame(table.version - 1))
    assert 'id="table-board"' in await ben_ws.receive_from(timeout=10)
    await ben_ws.disconnect()

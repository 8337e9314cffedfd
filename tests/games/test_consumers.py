"""Live play through the real ASGI application: frames in, frames out, the database the truth."""

from __future__ import annotations

import asyncio
import json
import random
import re
import threading
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import engine, frames, lobby, services
from games.engine import state_to_dict
from games.models import Hole, Move, Table
from games.scorecards import open_scorecards
from tests.factories import make_player
from tests.games.conftest import connect
from tests.games.helpers import current, next_actor, quick_action

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("stop_driver"),
    pytest.mark.both_databases,
]


def frame_for(action: dict, version: int) -> str:
    """A message as htmx's ws extension sends a form: strings, plus its HEADERS."""
    data: dict = {"type": action["type"], "version": str(version)}
    for key in ("source", "position"):
        if key in action:
            data[key] = str(action[key])
    if "positions" in action:
        data["positions"] = [str(p) for p in action["positions"]]
    data["HEADERS"] = {"HX-Request": "true", "HX-Trigger": None}
    return json.dumps(data)


@database_sync_to_async
def two_players(variant: str = "play-nine", **extra):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    table = lobby.create_table(host=ana, variant=variant, seat_count=2, players=[ana, ben], **extra)
    lobby.start_match(table=table, by=ana)
    return table, ana, ben


@database_sync_to_async
def snapshot(table_id: int) -> tuple[int, dict, int]:
    table, hole, _ = current(table_id)
    return Move.objects.count(), hole.state, table.version


async def play_hole(table_id: int, sockets: dict):
    """Play the table's hole to its end with quick moves, each sent over the socket of
    the seat (by position) whose turn it is. Returns, move by move, the version it was
    made on and the next frame of every socket (in the order given), then the finished
    hole and its last state."""
    played = []
    while True:
        db_table, hole, state = await database_sync_to_async(current)(table_id)
        if hole.finished_at is not None:
            return played, hole, state
        seat = next_actor(state)
        move = frame_for(quick_action(state, seat), db_table.version)
        await sockets[hole.seat_positions[seat]].send_to(move)
        received = [await ws.receive_from(timeout=10) for ws in sockets.values()]
        played.append((db_table.version, received))


async def test_two_players_play_a_full_hole_over_their_sockets(settings):
    settings.FAIRWAY_HOLE_PAUSE = 3600  # keep the finished hole on the table
    table, ana, ben = await two_players()
    ana_ws, first = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    assert "Tee off" in first
    played, hole, state = await play_hole(table.pk, {0: ana_ws, 1: ben_ws})
    for version, (ana_frame, ben_frame) in played:
        # Each screen shows the other's move in the log.
        assert 'id="table-log"' in ana_frame and 'id="table-log"' in ben_frame
        assert f'name="version" value="{version + 1}"' in ana_frame + ben_frame or (
            "Hole 1 over" in ana_frame
        )
    moves = len(played)
    ana_frame, ben_frame = played[-1][1]
    assert "Hole 1 over: Ana" in ana_frame and "Hole 1 over: Ana" in ben_frame
    assert "Deal next hole" in ana_frame
    assert "paired" in ana_frame or "stroke" in ana_frame
    count = await database_sync_to_async(Move.objects.filter(hole=hole).count)()
    assert count == moves == state.version
    strokes = await database_sync_to_async(
        lambda: sorted(
            c.holes.get(number=1).strokes for c in Table.objects.get(pk=table.pk).scorecards.all()
        )
    )()
    assert strokes == sorted(hole.scores)
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_a_frame_carries_only_the_parts_that_changed_for_its_viewer(settings):
    """Through a hole the scorecard stays as it is, so it is not sent again; at the
    hole's end it changes and is. Of the board, a move carries the pieces that changed.
    A new connection starts from every part."""
    settings.FAIRWAY_HOLE_PAUSE = 3600
    table, ana, ben = await two_players()
    ana_ws, first = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    parts = ("table-alert", "table-status", "table-board", "table-scorecard", "table-log")
    assert all(f'id="{part}"' in first for part in parts)
    played, hole, _state = await play_hole(table.pk, {0: ana_ws, 1: ben_ws})
    frames_in_hole = [ana_frame for _version, (ana_frame, _ben_frame) in played]
    *during, last = frames_in_hole
    quiet = ("table-scorecard", "table-board")
    for frame in during:
        assert 'id="table-scorecard"' not in frame
        assert all(f'id="{part}"' in frame for part in parts if part not in quiet)
    # Of the board, a move sends the courses and piles that changed, not the whole.
    boards = sum('id="table-board"' in frame for frame in during)
    assert boards < len(during) / 4
    pieces = ('id="course-', 'id="table-piles"', 'id="table-board"')
    assert all(any(piece in frame for piece in pieces) for frame in during)
    # The hole's end puts its strokes on the scorecard: that frame carries it.
    assert 'id="table-scorecard"' in last
    assert f"<strong>{hole.scores[0]}</strong>" in last
    await ana_ws.disconnect()
    again, frame = await connect(ana, table.pk)
    assert all(f'id="{part}"' in frame for part in parts)
    await again.disconnect()
    await ben_ws.disconnect()


async def test_news_reaches_viewers_while_the_database_thread_is_busy():
    """A frame made from news in memory does not wait for the database thread, which
    applies every table's moves: here that thread is held right after the move."""
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    seat = next_actor(state)
    release = threading.Event()

    def move_then_hold():
        result = services.apply_move(
            table_id=table.pk,
            player=ana if hole.seat_positions[seat] == 0 else ben,
            action=quick_action(state, seat),
            version=db_table.version,
        )
        release.wait(timeout=30)
        return result

    holding = asyncio.ensure_future(database_sync_to_async(move_then_hold)())
    try:
        frame = await ana_ws.receive_from(timeout=5)
    finally:
        release.set()
    result = await holding
    assert f'data-version="{result.version}"' in frame
    await ana_ws.disconnect()


async def test_on_postgresql_a_move_does_not_queue_behind_the_database_thread():
    """Moves run on threads of their own there, so a move goes through while the thread
    of every other database call is held. SQLite takes one writer at a time: there a
    move waits for that thread."""
    from django.db import connection

    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    ben_ws, _ = await connect(ben, table.pk)
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    seat = next_actor(state)
    mover = ana_ws if hole.seat_positions[seat] == 0 else ben_ws
    release = threading.Event()
    holding = asyncio.ensure_future(database_sync_to_async(release.wait)(30))
    moved = f'data-version="{db_table.version + 1}"'
    try:
        await mover.send_to(frame_for(quick_action(state, seat), db_table.version))
        if connection.vendor == "postgresql":
            assert moved in await mover.receive_from(timeout=5)
        else:
            assert await mover.receive_nothing(timeout=1)
    finally:
        release.set()
    await holding
    if connection.vendor != "postgresql":
        assert moved in await mover.receive_from(timeout=5)
    await ana_ws.disconnect()
    await ben_ws.disconnect()


async def test_bad_input_gets_a_polite_error_and_changes_nothing():
    table, ana, ben = await two_players()
    stranger = await database_sync_to_async(make_player)("cy")
    ana_ws, _ = await connect(ana, table.pk)
    spectator, _ = await connect(stranger, table.pk)
    before = await snapshot(table.pk)
    version = before[2]
    tee = {"type": "tee_off", "positions": [0, 1]}
    bad = [
        (ana_ws, "not json at all", "not understood"),
        (ana_ws, "[1, 2]", "not understood"),
        (ana_ws, json.dumps({"type": "draw", "source": "pile"}), "no version"),
        (ana_ws, json.dumps({"type": "teleport", "version": version}), "not a move"),
        (ana_ws, json.dumps({"type": "replace", "position": "x", "version": version}), "whole"),
        (ana_ws, json.dumps({"type": "knock", "seat": 1, "version": version}), "not understood"),
        (ana_ws, json.dumps({"type": "knock", "version": version, "pad": "x" * 5000}), "too long"),
        (ana_ws, frame_for({"type": "draw", "source": "pile"}, version), "tees off"),
        (ana_ws, frame_for({"type": "tee_off", "positions": [0, 0]}, version), "different"),
        (spectator, frame_for(tee, version), "watching"),
        (ana_ws, frame_for(tee, version - 1), "moved on"),
    ]
    for sender, text, message in bad:
        await sender.send_to(text)
        reply = await sender.receive_from(timeout=10)
        assert 'role="alert"' in reply and message in reply, (text[:60], reply[-300:])
        assert await snapshot(table.pk) == before
    assert await ana_ws.receive_nothing()
    assert await spectator.receive_nothing()

    # A double submit: the first applies, the second is refused as stale.
    await ana_ws.send_to(frame_for(tee, version))
    await ana_ws.send_to(frame_for(tee, version))
    replies = [await ana_ws.receive_from(timeout=10) for _ in range(2)]
    assert sum("moved on" in r for r in replies) == 1
    count, _, new_version = await snapshot(table.pk)
    assert count == 1 and new_version == version + 1
    # Ben acting out of turn once play starts is refused too.
    await ana_ws.disconnect()
    await spectator.disconnect()


async def test_numbers_in_other_scripts_are_refused_politely_and_the_socket_stays_open():
    """ "²" passes str.isdigit() but not int(); "３" and "٣" pass int() as 3: none is a number
    of the protocol, so none moves the game."""
    table, ana, ben = await two_players()
    ana_ws, _ = await connect(ana, table.pk)
    before = await snapshot(table.pk)
    version = before[2]
    wide = str(version).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    bad = [
        ({"type": "draw", "source": "pile", "version": "²"}, "The version must be"),
        ({"type": "draw", "source": "pile", "version": "①"}, "The version must be"),
        ({"type": "tee_off", "positions": ["0", "1"], "version": wide}, "The version must be"),
        ({"type": "tee_off", "positions": ["0", "٣"], "version": str(version)}, "A position must"),
        ({"type": "replace", "position": "²", "version": str(version)}, "A position must"),
    ]
    for data, message in bad:
        await ana_ws.send_to(json.dumps(data))
        reply = await ana_ws.receive_from(timeout=10)
        assert 'role="alert"' in reply and message in reply, (data, reply[-300:])
        assert await snapshot(table.pk) == before
    # Still open: the same move in plain digits is played.
    await ana_ws.send_to(
        json.dumps({"type": "tee_off", "positions": ["0", "3"], "version": str(version)})
    )
    await ana_ws.receive_from(timeout=10)
    count, _, new_version = await snapshot(table.pk)
    assert count == before[0] + 1 and new_version == version + 1
    await ana_ws.disconnect()


async def test_a_spectator_sees_the_table_but_gets_no_buttons():
    table, ana, ben = await two_players()
    stranger = await database_sync_to_async(make_player)("cy")
    spectator, frame = await connect(stranger, table.pk)
    assert 'id="table-board"' in frame
    # No move forms: the only forms are the resyncs, the table's and the chat's.
    assert frame.count('value="sync"') == frame.count('value="chat_sync"') == 1
    assert frame.count("<form ws-send") == 2
    await spectator.disconnect()


async def test_a_private_table_refuses_an_uninvited_connection_with_4404():
    """Accepted, then closed with 4404: a refused handshake would reach the page as 1006,
    which htmx answers by reconnecting for ever."""
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.games.conftest import session_cookie

    table, ana, ben = await two_players(is_public=False)
    stranger = await database_sync_to_async(make_player)("cy")
    cookie = await database_sync_to_async(session_cookie)(stranger)
    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{table.pk}/",
        headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)],
    )
    connected, _ = await communicator.connect()
    assert connected
    closed = await communicator.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4404}
    await communicator.wait()


async def test_connecting_starts_the_driver_that_finishes_a_bot_only_match():
    """A table no process drives (as after a restart) finishes once a client connects."""

    @database_sync_to_async
    def bot_table():
        host = make_player("host")
        table = lobby.create_table(
            host=host, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "random"}
        )
        lobby.start_match(table=table, by=host)
        return table, host

    table, host = await bot_table()
    ws, _ = await connect(host, table.pk)
    for _ in range(3000):
        status = await database_sync_to_async(
            lambda: Table.objects.values_list("status", flat=True).get(pk=table.pk)
        )()
        if status == Table.Status.FINISHED:
            break
        await asyncio.sleep(0.05)
    assert status == Table.Status.FINISHED
    await ws.disconnect()


# --- hidden cards never leave the server ---------------------------------------------------


def _decks(variant: str, players: int, dealer: int) -> tuple[list, list]:
    """Two decks that differ only in one card that stays face down and the pile's bottom."""
    deck = engine.VARIANTS[variant].deck(players)
    random.Random(4).shuffle(deck)
    second = (dealer + 2) % players  # the seat dealt second
    hidden = 7 * players + (second - dealer - 1) % players  # its position 7
    bottom = len(deck) - 1
    while deck[hidden] == deck[bottom]:
        bottom -= 1
    other = list(deck)
    other[hidden], other[bottom] = other[bottom], other[hidden]
    return deck, other


@database_sync_to_async
def deal_deck(table_id: int, deck: list, version: int) -> None:
    table = Table.objects.get(pk=table_id)
    hole = table.holes.get(number=1)
    hole.moves.all().delete()
    state = engine.new_hole(table.variant, 2, deck=deck, dealer=hole.dealer)
    Hole.objects.filter(pk=hole.pk).update(
        deck=deck, seed=None, state=state_to_dict(state), version=0, finished_at=None
    )
    Table.objects.filter(pk=table_id).update(version=version)
    # The version is rewound: what this process holds of it would show the old deal.
    frames.forget()


SCRIPT = [
    # (seat dealt first = "p" or second = "q", action)
    ("p", {"type": "tee_off", "positions": [0, 1]}),
    ("q", {"type": "tee_off", "positions": [0, 1]}),
    ("p", {"type": "draw", "source": "pile"}),
    ("p", {"type": "replace", "position": 2}),
    ("q", {"type": "draw", "source": "discard"}),
    ("q", {"type": "replace", "position": 3}),
    ("p", {"type": "draw", "source": "pile"}),
    ("p", {"type": "flip", "position": 4}),
    ("q", {"type": "draw", "source": "pile"}),
    ("q", {"type": "replace", "position": 0}),
]


async def _play_script(table, users, stranger) -> list[str]:
    _, hole, state = await database_sync_to_async(current)(table.pk)
    first = hole.seat_positions[(state.dealer + 1) % 2]
    by_role = {"p": first, "q": 1 - first}
    sockets = {}
    frames = []
    for position, user in users.items():
        sockets[position], frame = await connect(user, table.pk)
        frames.append(frame)
    spectator, frame = await connect(stranger, table.pk)
    frames.append(frame)
    for role, action in SCRIPT:
        db_table, _, _ = await database_sync_to_async(current)(table.pk)
        await sockets[by_role[role]].send_to(frame_for(action, db_table.version))
        for ws in (*sockets.values(), spectator):
            frames.append(await ws.receive_from(timeout=10))
    assert not any("table-alert shown" in f for f in frames), "every move was applied"
    for ws in (*sockets.values(), spectator):
        await ws.disconnect()
    return frames


async def test_frames_to_seats_and_spectators_carry_no_hidden_card(settings):
    settings.FAIRWAY_HOLE_PAUSE = 3600
    table, ana, ben = await two_players()
    stranger = await database_sync_to_async(make_player)("cy")
    users = {0: ana, 1: ben}
    _, hole, state = await database_sync_to_async(current)(table.pk)
    deck_a, deck_b = _decks(table.variant, 2, state.dealer)
    version = table.version
    await deal_deck(table.pk, deck_a, version)
    frames_a = await _play_script(table, users, stranger)
    await deal_deck(table.pk, deck_b, version)
    frames_b = await _play_script(table, users, stranger)
    assert len(frames_a) == 3 + 3 * len(SCRIPT)
    # Nothing to normalise: the frames carry no timestamps.
    assert frames_a == frames_b
    # The decks really differ, and the difference is still face down.
    assert deck_a != deck_b
    _, hole, state = await database_sync_to_async(current)(table.pk)
    assert state.phase != engine.OVER


async def test_a_player_back_at_a_kept_seat_takes_it_over_by_acting(settings):
    settings.FAIRWAY_BOT_DELAY = 3600  # the bot keeping the seat waits; Ana is quicker
    table, ana, ben = await two_players()
    await database_sync_to_async(services.leave_match)(table=table, player=ana)
    ana_ws, frame = await connect(ana, table.pk)
    assert "(bot for Ana)" in frame and "Take my seat back" in frame
    db_table, hole, state = await database_sync_to_async(current)(table.pk)
    seat = hole.seat_positions.index(0)
    await ana_ws.send_to(frame_for(quick_action(state, seat), db_table.version))
    frame = await ana_ws.receive_from(timeout=10)
    assert "table-alert shown" not in frame
    assert "(bot for Ana)" not in frame and "Leave the match" in frame
    kept = await database_sync_to_async(
        lambda: Table.objects.get(pk=table.pk).seats.get(player=ana).bot_level
    )()
    assert kept == ""
    await ana_ws.disconnect()


async def test_frames_carry_a_polite_sentence_for_screen_readers():
    table, ana, ben = await two_players()
    ana_ws, frame = await connect(ana, table.pk)
    assert 'data-turn-text="Your tee off: turn up 2 cards."' in frame
    # The live region itself is never swapped, so it is read when its text changes.
    assert 'id="table-announce"' not in frame
    await ana_ws.disconnect()


# --- a whole hole, with a bot, through to its end -----------------------------------------

HIDDEN = 7  # Ben's card that stays face down until the hole ends


def _ben_action(state: engine.HoleState, seat: int) -> dict:
    """Ben plays without ever touching his hidden card: it shows only when the hole ends."""
    actions = engine.legal_actions(state, seat)
    for action in actions:
        kind = action["type"]
        if kind == "tee_off" and HIDDEN not in action["positions"]:
            return action
        if kind == "draw" and action["source"] == "pile":
            return action
        if (
            kind == "replace"
            and action["position"] != HIDDEN
            and state.face_up[seat][action["position"]]
        ):
            return action
    raise AssertionError(f"Ben has no move that keeps his card hidden: {actions}")


@database_sync_to_async
def three_seats_with_a_bot(deck_seed: int):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    stranger = make_player("cy")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=3, players=[ana, ben], bots={2: "greedy"}
    )
    lobby.start_match(table=table, by=ana)
    hole = table.holes.get(number=1)
    deck = engine.VARIANTS[table.variant].deck(3)
    random.Random(deck_seed).shuffle(deck)
    # Swap Ben's hidden card with the draw pile's bottom card in the second deal.
    hidden = HIDDEN * 3 + (1 - hole.dealer - 1) % 3
    bottom = len(deck) - 1
    while deck[hidden] == deck[bottom]:
        bottom -= 1
    other = list(deck)
    other[hidden], other[bottom] = other[bottom], other[hidden]
    return table, ana, ben, stranger, deck, other


@database_sync_to_async
def redeal(table_id: int, deck: list, version: int) -> None:
    table = Table.objects.get(pk=table_id)
    hole = table.holes.get(number=1)
    hole.moves.all().delete()
    state = engine.new_hole(table.variant, 3, deck=deck, dealer=hole.dealer)
    Hole.objects.filter(pk=hole.pk).update(
        deck=deck, seed=None, state=state_to_dict(state), version=0, finished_at=None, scores=None
    )
    Table.objects.filter(pk=table_id).update(version=version, status=Table.Status.PLAYING)
    # A fresh scorecard, as before the first deal.
    table.scorecards.all().delete()
    open_scorecards(table=table)
    # The version is rewound too: reads kept for it would show the old deal.
    frames.forget()


CSRF = re.compile(r'("X-CSRFToken": "|name="csrfmiddlewaretoken" value=")[^"]+')


def _pages(clients: dict, table_id: int) -> list[str]:
    url = reverse("games:table", args=[table_id])
    return [CSRF.sub(r"\1", c.get(url).content.decode()) for c in clients.values()]


async def _play_hole(table, users: dict) -> list[tuple[bool, str]]:
    """Every frame and page each seat and the spectator got, flagged when the hole was over."""
    far = timezone.now() + timedelta(days=1)
    clients = {}
    for name, user in users.items():
        clients[name] = Client()
        await database_sync_to_async(clients[name].force_login)(user)
    sockets = {}
    seen: list[tuple[bool, str]] = []
    for name, user in users.items():
        sockets[name], frame = await connect(user, table.pk)
        seen.append((False, frame))
    lobby = reverse("games:lobby")
    seen += [
        (False, CSRF.sub(r"\1", (await database_sync_to_async(c.get)(lobby)).content.decode()))
        for c in clients.values()
    ]
    while True:
        db_table, hole, state = await database_sync_to_async(current)(table.pk)
        over = hole.finished_at is not None
        seen += [(over, page) for page in await database_sync_to_async(_pages)(clients, table.pk)]
        if over:
            break
        seat = next_actor(state)
        if seat == 2:
            await database_sync_to_async(services.act_for_table)(
                table_id=table.pk, version=db_table.version, now=far
            )
        else:
            chooser = quick_action if seat == 0 else _ben_action
            name = "ana" if seat == 0 else "ben"
            await sockets[name].send_to(frame_for(chooser(state, seat), db_table.version))
        frames = [await ws.receive_from(timeout=10) for ws in sockets.values()]
        _, after, _ = await database_sync_to_async(current)(table.pk)
        seen += [(after.finished_at is not None, frame) for frame in frames]
    for ws in sockets.values():
        await ws.disconnect()
    return seen


async def test_a_whole_hole_with_a_bot_shows_no_hidden_card_to_seats_spectators_or_pages(
    settings,
):
    """Two deals differing only in a card that stays face down (and the pile's bottom) give
    the same bytes to every seat, the spectator and every page until the hole ends."""
    settings.FAIRWAY_BOT_DELAY = 3600  # the test moves the bot itself, in step
    settings.FAIRWAY_HOLE_PAUSE = 3600
    table, ana, ben, stranger, deck_a, deck_b = await three_seats_with_a_bot(5)
    users = {"ana": ana, "ben": ben, "cy": stranger}
    version = table.version
    await redeal(table.pk, deck_a, version)
    seen_a = await _play_hole(table, users)
    await redeal(table.pk, deck_b, version)
    seen_b = await _play_hole(table, users)
    assert [over for over, _ in seen_a] == [over for over, _ in seen_b]
    before_a = [text for over, text in seen_a if not over]
    before_b = [text for over, text in seen_b if not over]
    assert len(before_a) > 60
    assert before_a == before_b
    # The card was really there to find: once the hole ends, it is shown.
    assert [text for over, text in seen_a if over] != [text for over, text in seen_b if over]
    assert any("Ben" in t and "Hole 1 over" in t for over, t in seen_a if over)


async def test_news_between_the_page_and_its_socket_is_in_the_sockets_first_frame():
    """A page rendered before a seat changes hands, whose socket subscribes only after the
    news went out, still shows the seat: the socket's first frame is read after it joins
    the table's group, and the page's own render is inert until that frame replaces it."""
    ana, ben = await database_sync_to_async(
        lambda: (make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben"))
    )()
    table = await database_sync_to_async(lobby.create_table)(
        host=ana, variant="play-nine", seat_count=2, players=[ana]
    )
    client = Client()
    await database_sync_to_async(client.force_login)(ana)
    page = await database_sync_to_async(client.get)(table.get_absolute_url())
    html = page.content.decode()
    assert re.search(r'<section id="table-board"[^>]* inert', html)
    assert "1 seat free" in html and "Ben" not in html
    await database_sync_to_async(lobby.join_table)(table=table, player=ben)
    ana_ws, first = await connect(ana, table.pk)
    assert "Ben" in first and "0 seats free" in first
    assert re.search(r'<section id="table-board"[^>]*hx-swap-oob="true">', first)
    assert " inert" not in first
    await ana_ws.disconnect()

"""A night's arrivals and a paper table's holes, live over their sockets through the
real ASGI application and channel layer: a check-in reaches the organiser's page (count,
names and the ids its ticks follow) at once, seating clears the panel, and a hole
entered on one phone is there to confirm on the other at once."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.utils import timezone

from config.asgi import application
from leagues.attendance import services as attendance
from leagues.checkin import services as checkin
from leagues.reporting import services as reporting
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.games.conftest import session_cookie

# Run on PostgreSQL with Redis too: the news crosses the real channel layer there.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

ORIGIN = (b"origin", b"http://localhost")


@pytest.fixture(autouse=True)
async def pages_let_go_of_the_database():
    yield
    await database_sync_to_async(connections.close_all)()


async def connect(user, path: str) -> WebsocketCommunicator:
    headers = [ORIGIN]
    if user is not None:
        headers.append((b"cookie", await database_sync_to_async(session_cookie)(user)))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def tonight():
    """Tonight's night: organiser Olive, members Ann, Bea, Cat, Dan; and an outsider."""
    olive = make_player("olive", display_name="Olive")
    people = [make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat", "Dan")]
    club = make_club("Green Club", organiser=olive, members=people)
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=60), end=today + timedelta(days=60)
    )
    outsider = make_player("otto", display_name="Otto")
    return make_night(season, today), olive, people, outsider


async def test_a_check_in_reaches_the_organisers_page_at_once_and_seating_clears_it():
    night, olive, (ann, bea, cat, dan), _ = await tonight()
    path = f"/ws/nights/{night.pk}/arrivals/"
    page = await connect(olive, path)
    first = await page.receive_from(timeout=10)
    assert 'id="arrivals"' in first and "0 checked in" in first
    assert 'data-checked-in=""' in first and "0 present; 0 checked in." in first
    member = await connect(cat, path)
    assert "0 checked in" in await member.receive_from(timeout=10)

    await database_sync_to_async(checkin.check_in)(night=night, player=ann)
    frame = await page.receive_from(timeout=10)
    # The count, the name, the id the ticks follow and the seating panel's count agree.
    assert "1 checked in" in frame and "Ann" in frame
    assert f'data-checked-in="{ann.pk}"' in frame and "1 present; 1 checked in." in frame
    seen = await member.receive_from(timeout=10)
    assert "1 checked in" in seen and "Ann" not in seen and "data-checked-in" not in seen

    # Ticked present by the organiser: present, though not checked in.
    await database_sync_to_async(attendance.set_night_players)(
        night=night, players=[ann, bea, cat, dan], by=olive, seen_check_ins={ann.pk}
    )
    frame = await page.receive_from(timeout=10)
    # Only the organiser is still expected.
    assert "4 present; 1 checked in." in frame and "<p>Olive</p>" in frame

    await database_sync_to_async(seat_night)(
        night=night, by=olive, seats_per_table=2, rng=random.Random(1)
    )
    frame = await page.receive_from(timeout=10)
    assert "Seated: 4 players at 2 tables." in frame
    assert "Expected, not here yet" not in frame and "checked in</strong>" not in frame
    assert "Seated: 4 players" in await member.receive_from(timeout=10)
    for communicator in (page, member):
        await communicator.disconnect()


async def test_only_the_clubs_signed_in_members_hear_its_arrivals():
    night, _, _, outsider = await tonight()
    path = f"/ws/nights/{night.pk}/arrivals/"
    for user, code in ((outsider, 4404), (None, 4401)):
        communicator = await connect(user, path)
        assert (await communicator.receive_output(timeout=10))["code"] == code
    communicator = await connect(outsider, f"/ws/nights/{night.pk + 99}/arrivals/")
    assert (await communicator.receive_output(timeout=10))["code"] == 4404


@database_sync_to_async
def paper_table():
    night, olive, people, outsider = tonight.func()
    night.players.set(people[:2])
    (night_table,) = seat_night(night=night, by=olive, seats_per_table=2)
    return night_table.report, olive, people, outsider


async def test_a_hole_entered_on_one_phone_is_there_to_confirm_on_the_other_at_once():
    report, olive, (ann, bea, *_), outsider = await paper_table()
    path = f"/ws/report/{report.code}/"
    phones = [await connect(ann, path), await connect(bea, path)]
    for phone in phones:
        first = await phone.receive_from(timeout=10)
        assert 'id="report-holes"' in first and "Confirm hole 1" not in first

    await database_sync_to_async(reporting.enter_hole)(
        report=report, number=1, strokes=[4, 5], version=0, by=ann, reason=""
    )
    ann_sees, bea_sees = [await phone.receive_from(timeout=10) for phone in phones]
    # Bea, who did not enter it, may confirm it; Ann may not confirm her own.
    assert "Confirm hole 1" in bea_sees and "Confirm hole 1" not in ann_sees
    assert "Entered by Ann" in ann_sees

    # A write refused (a stale version) changes nothing, and says nothing.
    with pytest.raises(reporting.HoleConflict):
        await database_sync_to_async(reporting.enter_hole)(
            report=report, number=1, strokes=[6, 6], version=0, by=bea, reason=""
        )
    assert await phones[0].receive_nothing(timeout=0.5)

    await database_sync_to_async(reporting.confirm_hole)(report=report, number=1, version=1, by=bea)
    assert "confirmed by Bea" in await phones[0].receive_from(timeout=10)
    for phone in phones:
        await phone.disconnect()


async def test_a_report_socket_is_for_those_who_may_see_the_report():
    report, _, _, outsider = await paper_table()
    for user, code in ((outsider, 4404), (None, 4401)):
        communicator = await connect(user, f"/ws/report/{report.code}/")
        assert (await communicator.receive_output(timeout=10))["code"] == code
    communicator = await connect(outsider, "/ws/report/NOPE-NOPE/")
    assert (await communicator.receive_output(timeout=10))["code"] == 4404

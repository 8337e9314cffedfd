"""The driver: it sweeps every waiting table now and then, and between sweeps looks at
the tables it was poked for and those it found waiting, when they fall due."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from games import autoplay, lobby
from games.models import Move, Table
from tests.factories import make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("stop_driver"),
    pytest.mark.both_databases,
]


def _bots_table():
    ana = make_player()
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=table, by=ana)
    return table


def _people_table():
    ana, ben = make_player(), make_player()
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana, ben])
    lobby.start_match(table=table, by=ana)
    return table


async def _until(predicate, seconds: float = 10.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if await database_sync_to_async(predicate)():
            return True
        await asyncio.sleep(0.05)
    return False


@pytest.fixture
def looked_at(monkeypatch) -> list:
    """The tables the driver reads, look by look (None: all), as it goes on reading them."""
    looks = []
    due_tables = autoplay.due_tables

    def recording(**kwargs):
        looks.append(kwargs.get("table_ids"))
        return due_tables(**kwargs)

    monkeypatch.setattr(autoplay, "due_tables", recording)
    return looks


async def test_between_sweeps_the_driver_acts_for_waiting_tables_as_they_fall_due(
    settings, monkeypatch, looked_at
):
    settings.FAIRWAY_BOT_DELAY = 0.2
    monkeypatch.setattr(autoplay, "SWEEP_SECONDS", 3600.0)  # one sweep, at the start
    bots = await database_sync_to_async(_bots_table)()
    await database_sync_to_async(_people_table)()
    autoplay.ensure_started()
    # The first sweep finds the bots' table waiting; every move after is made when due.
    assert await _until(lambda: Move.objects.filter(hole__table=bots).count() >= 4)
    assert looked_at[0] is None
    assert all(ids == {bots.pk} for ids in looked_at[1:])


async def test_a_poke_for_a_table_looks_at_that_table_alone(settings, monkeypatch, looked_at):
    settings.FAIRWAY_BOT_DELAY = 0
    monkeypatch.setattr(autoplay, "SWEEP_SECONDS", 3600.0)
    people = await database_sync_to_async(_people_table)()
    the_driver = autoplay.ensure_started()
    assert await _until(lambda: bool(looked_at))  # the first sweep: nothing waits
    assert looked_at == [None]
    # A bot takes a seat and the table is poked for: the driver looks at it, and moves.
    seat = await database_sync_to_async(people.seats.get)(position=0)
    seat.bot_level = "greedy"
    await database_sync_to_async(seat.save)()
    the_driver.poke(people.pk)
    assert await _until(lambda: Move.objects.filter(hole__table=people).exists())
    assert looked_at[1] == {people.pk}


async def test_the_driver_s_sweep_abandons_a_match_left_idle(settings):
    settings.FAIRWAY_IDLE_HOURS = 1
    people = await database_sync_to_async(_people_table)()
    await database_sync_to_async(Table.objects.filter(pk=people.pk).update)(
        turn_started_at=timezone.now() - timedelta(hours=2)
    )
    autoplay.ensure_started()
    assert await _until(lambda: Table.objects.get(pk=people.pk).status == Table.Status.ABANDONED)

"""The idle-table sweep (`games.idle`): live matches nobody moved at end abandoned."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import idle, lobby, selectors, services
from games.models import Table
from tests.games.helpers import current, next_actor, quick_action, two_player_table

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def _idle_for(table: Table, hours: float) -> None:
    Table.objects.filter(pk=table.pk).update(
        turn_started_at=timezone.now() - timedelta(hours=hours)
    )


def test_a_match_no_one_moved_at_for_the_idle_limit_is_abandoned(settings):
    """Past FAIRWAY_IDLE_HOURS without a move a match in play ends as abandoned: no
    longer listed as being played nor among its players' tables, no move accepted."""
    settings.FAIRWAY_IDLE_HOURS = 24
    left, ana, ben = two_player_table()
    busy = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, bots={1: "greedy"}, players=[ben]
    )
    lobby.start_match(table=busy, by=ana)
    _idle_for(left, 25)
    _idle_for(busy, 23)
    version = Table.objects.get(pk=left.pk).version
    assert set(selectors.watchable_tables()) == {left, busy}

    assert idle.abandon_idle_tables() == [left.pk]
    left.refresh_from_db()
    busy.refresh_from_db()
    assert left.status == Table.Status.ABANDONED and left.finished_at is not None
    assert left.version == version + 1  # the viewers are told
    assert busy.status == Table.Status.PLAYING
    assert list(selectors.watchable_tables()) == [busy]
    assert left not in selectors.my_tables(ana)
    _, _, state = current(left.pk)
    with pytest.raises(services.GameError):
        services.apply_move(
            table_id=left.pk,
            player=ana,
            action=quick_action(state, next_actor(state)),
            version=left.version,
        )
    assert idle.abandon_idle_tables() == []


def test_the_idle_limit_is_a_setting_and_league_tables_are_left_to_the_organiser(settings):
    table, ana, ben = two_player_table()
    league = lobby.create_table(
        host=ana,
        variant="play-nine",
        seat_count=2,
        players=[ana, ben],
        is_public=False,
        seats_assigned=True,
    )
    lobby.start_match(table=league, by=ana)
    _idle_for(table, 25)
    _idle_for(league, 100)
    settings.FAIRWAY_IDLE_HOURS = 30
    assert idle.abandon_idle_tables() == []
    settings.FAIRWAY_IDLE_HOURS = 2
    assert idle.abandon_idle_tables() == [table.pk]
    league.refresh_from_db()
    assert league.status == Table.Status.PLAYING

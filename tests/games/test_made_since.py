"""After the database was lost mid-move: whether a player's move was made, in every hole."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import lobby
from games.models import Hole, Move, Table
from games.selectors import made_since
from tests.factories import make_player

pytestmark = pytest.mark.django_db


def test_a_move_in_a_playoff_hole_dealt_to_some_seats_is_found_for_its_player():
    """A move's seat is the table's position: in a playoff dealt to seats 0 and 2 only,
    the move by the player in seat 2 is theirs, and not the player's in seat 0."""
    ana, ben, cy = (make_player(n) for n in ("ana", "ben", "cy"))
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=3, players=[ana, ben, cy])
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    since = timezone.now() - timedelta(seconds=1)
    playoff = Hole.objects.create(table=table, number=10, dealer=0, seed=1, seat_positions=[0, 2])
    Move.objects.create(hole=playoff, seq=1, seat=2, action={"type": "draw", "source": "pile"})
    assert made_since(table.pk, cy, "draw", since)
    assert not made_since(table.pk, ana, "draw", since)
    assert not made_since(table.pk, cy, "knock", since)
    assert not made_since(table.pk, cy, "draw", timezone.now() + timedelta(seconds=1))

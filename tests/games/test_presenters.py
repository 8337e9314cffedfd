"""A viewer's table: who sits where around the felt."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from games.presenters import seating
from games.tiles import Course


def courses(count: int) -> list[Course]:
    return [Course(p, f"P{p}", False, False, False, False, []) for p in range(count)]


@pytest.mark.parametrize("count", range(2, 9))
def test_the_others_sit_clockwise_from_the_viewer_up_the_left_across_the_top_down_the_right(
    count,
):
    me = SimpleNamespace(position=2 % count)
    seats = seating(courses(count), me)
    assert seats.bottom.position == me.position
    # Up the left side, across the top, down the right side.
    around = [*seats.left, *seats.top, *seats.right]
    assert [c.position for c in around] == [(me.position + k) % count for k in range(1, count)]
    assert len(seats.left) == len(seats.right)
    assert len(seats.top) <= 3


def test_a_spectator_sees_the_first_seat_at_the_bottom():
    seats = seating(courses(5), None)
    assert seats.bottom.position == 0
    assert [c.position for c in seats.left] == [1]
    assert [c.position for c in seats.right] == [4]

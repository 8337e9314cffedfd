"""Places, as every league table of results gives them: lower is better, and equal
values share a place, the next one skipping as many (1, 2, 2, 4): competition ranks.

The one home of that rule: standings, team standings, a table's net places, ratings'
ranks, the night's board and an event's standings all place through here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def competition_places(values: Sequence[Any]) -> list[int]:
    """The place of each value (lower is better), equal values sharing a place."""
    return [1 + sum(other < value for other in values) for value in values]


def place_in_order(ordered: Sequence[T], level: Callable[[T], Any]) -> list[int]:
    """Places down `ordered` (best first): neighbours whose `level` keys are equal share
    the place of the first of them."""
    places: list[int] = []
    for index, item in enumerate(ordered):
        if index and level(item) == level(ordered[index - 1]):
            places.append(places[-1])
        else:
            places.append(index + 1)
    return places

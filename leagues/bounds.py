"""The numbers a league's forms take, each bound to what makes sense.

A number past its bound is refused with a sentence that says the bound, on the
site's forms and the admin's alike, before it reaches a column it would overflow
(a season's frozen standings add a whole season's points).
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator

#: The most points one place, an absence or a bye earns.
MAX_POINTS = 1000
_POINTS = re.compile(r"^\s*\d+(\s*,\s*\d+)*\s*$")


def validate_points_per_place(value: str) -> None:
    """Points per place go from 0 to `MAX_POINTS` (their form, numbers separated by
    commas, is the field's other validator's to check, and its length bounds the places)."""
    if not _POINTS.match(value or ""):
        return
    if max(int(part) for part in value.split(",")) > MAX_POINTS:
        raise ValidationError(f"A place earns {MAX_POINTS} points at most.")


points_limit = MaxValueValidator(MAX_POINTS, f"Points go up to {MAX_POINTS} at most.")

#: An event's cap on entries: at least a table of two, at most what a club could seat.
MAX_EVENT_ENTRIES = 1000
entries_cap_low = MinValueValidator(2, "An event's cap is at least 2 entries (or empty: no cap).")
entries_cap_high = MaxValueValidator(
    MAX_EVENT_ENTRIES, f"An event's cap is at most {MAX_EVENT_ENTRIES} entries."
)

#: The most hours before a night that answers to "are you coming?" may close: two weeks.
MAX_ANSWERS_CLOSE_HOURS = 14 * 24
answers_close_limit = MaxValueValidator(
    MAX_ANSWERS_CLOSE_HOURS,
    f"Answers close at most {MAX_ANSWERS_CLOSE_HOURS} hours (two weeks) before a night.",
)


#: The most points a season's frozen standings hold for one player (their column).
MAX_SEASON_POINTS = 2**31 - 1


def check_season_points(rows) -> None:
    """Refuse standings whose points a frozen line cannot hold: a league's points saved
    before they were bound. The season then stays open, saying what to change."""
    if any(abs(row.points) > MAX_SEASON_POINTS for row in rows):
        raise ValidationError(
            f"The standings' points are too large to keep: set the league's points (each "
            f"place, absence and bye) to {MAX_POINTS} at most, then close the season."
        )


#: The most tables of a night or an event's round played on paper (the seating form's
#: bound too): more than any club room holds.
MAX_PAPER_TABLES = 50


def bound(field, low: int, high: int, message: str) -> None:
    """Bind a form's number `field` to `low`..`high`, refused with `message` alone (in
    place of the column's own bounds, whose numbers mean nothing to an organiser)."""
    field.validators = [MinValueValidator(low, message), MaxValueValidator(high, message)]
    field.min_value, field.max_value = low, high
    field.widget.attrs.update({"min": low, "max": high})

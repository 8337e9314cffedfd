"""One season's writes one after another.

Seating a night, marking someone away and naming a substitute each check what the
night holds, then write. Two at once (a double click, two organisers) would both
pass the check: on PostgreSQL the second then broke a unique constraint (a 500)
or left two seatings mixed. Each holds its season's row first, so the second
waits, then sees the first's work; a season closed meanwhile is seen closed.
"""

from __future__ import annotations

from .models import Season


def hold_season(season: Season) -> None:
    """Lock `season`'s row until the transaction ends, and read whether it is closed."""
    season.closed_at = (
        Season.objects.select_for_update()
        .filter(pk=season.pk)
        .values_list("closed_at", flat=True)
        .get()
    )

"""A limit on table codes typed that match no table, per account and per address.

The code box answers whether a code exists; a code opens nothing for someone outside
the table, but guessing codes by the thousand must not be free. Each code that matches
no table counts against the account that typed it and the address it came from (as the
log-in lockouts name it); past either limit the box answers nothing but the wait, for
the rest of the window, even to a right code. Counts live in Django's cache (Redis,
shared by every worker, when the site runs several).
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

from ..accounts.logins import client_address

#: Codes matching no table allowed per window: a player mistypes a few; a club room's
#: phones may share one address.
PER_ACCOUNT = 10
PER_ADDRESS = 40
WINDOW_SECONDS = 15 * 60


def _keys(request: HttpRequest) -> list[tuple[str, int]]:
    keys = [(f"table-code-misses:account:{request.user.pk}", PER_ACCOUNT)]
    address = client_address(request)
    if address:
        keys.append((f"table-code-misses:address:{address}", PER_ADDRESS))
    return keys


def refusal(request: HttpRequest) -> str | None:
    """Why the box answers no more codes from this account or address now, or None."""
    keys = _keys(request)
    counts = cache.get_many([key for key, _limit in keys])
    if any(counts.get(key, 0) >= limit for key, limit in keys):
        minutes = WINDOW_SECONDS // 60
        return (
            "Too many codes that match no table: try again in up to "
            f"{minutes} minutes, or scan the QR code on your table's card."
        )
    return None


def count_miss(request: HttpRequest) -> None:
    """Count a code that matched no table against the account and the address."""
    for key, _limit in _keys(request):
        # The window starts at the first miss; add() leaves a running count alone.
        cache.add(key, 0, timeout=WINDOW_SECONDS)
        try:
            cache.incr(key)
        except ValueError:  # the window ran out between the two calls
            cache.add(key, 1, timeout=WINDOW_SECONDS)

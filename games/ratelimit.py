"""A rate limit for a socket's messages: a token bucket, shared by every consumer that
reads what a browser sends (a table's, and leagues' watching pages)."""

from __future__ import annotations


class TokenBucket:
    """Allows `rate` events a second on average, and bursts of up to `burst`."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at: float | None = None

    def allow(self, now: float) -> bool:
        """Take a token at time `now` (seconds, monotonic) if one is left."""
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

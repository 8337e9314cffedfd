"""What a page that only watches reads from its socket (a night's board, an event's
page): nothing but a sync, `{"type": "sync", "stamp": S}`, with the stamp of what it
shows; anything else is ignored."""

from __future__ import annotations

import contextlib
import json
import time

from games.ratelimit import TokenBucket

#: A watching page's messages are small; anything longer is not one.
MAX_MESSAGE_BYTES = 512


def read_sync(text_data: str | None, bucket: TokenBucket) -> tuple[bool, str | None]:
    """Whether `text_data` is a sync within `bucket`'s rate, and the stamp it carries
    (None if it carries none that can be one)."""
    if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
        return False, None
    if not bucket.allow(time.monotonic()):
        return False, None
    with contextlib.suppress(ValueError, RecursionError):
        data = json.loads(text_data)
        if isinstance(data, dict) and data.get("type") == "sync":
            stamp = data.get("stamp")
            return True, stamp if isinstance(stamp, str) else None
    return False, None

"""Live play's figures for the operator's monitoring (Prometheus): the changes in play
this process wrote, how long a player's move took from its frame's arrival to the
frame that shows it, and the hole reviews worked out.

Each is a counter or a histogram in this process's memory (prometheus-client's
default registry, which `config.metrics` serves): counting a move costs a lock and an
addition, never a query or a file. Every process keeps and serves its own figures;
the monitoring adds them up across processes.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

#: Seconds: fine below 100 ms, where a move should be, coarse above.
MOVE_BUCKETS = (
    0.001,
    0.0025,
    0.005,
    0.0075,
    0.01,
    0.015,
    0.025,
    0.05,
    0.075,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)

changes = Counter(
    "fairway_moves",
    "Moves this process wrote (kind=move: a player's, a bot's or the turn timer's; a "
    "timer's change may move for several seats) and holes it dealt (kind=deal).",
    ["kind"],
)
#: Bound once: `labels()` looks its child up on every call.
moves = changes.labels("move")
deals = changes.labels("deal")

move_seconds = Histogram(
    "fairway_move_seconds",
    "A player's move, from its frame's arrival on the socket to the frame that shows "
    "it sent back on that socket.",
    buckets=MOVE_BUCKETS,
)

reviews = Counter(
    "fairway_reviews_worked_out",
    "Hole reviews of a seat worked out and stored by this process.",
)

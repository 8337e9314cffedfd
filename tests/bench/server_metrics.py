"""What the load benchmark's servers count themselves, read from their `/metrics`.

The benchmark times moves from the client's side (sending a move to the last seat's
frame); the servers count the moves they wrote, time each player's move from its
frame's arrival to the frame that shows it, and count frames sent and sockets open
(`games.metrics`, `config.metrics`). `read(servers)` adds up every server's figures;
`between(before, after, seconds)` says what the servers did in between.
"""

from __future__ import annotations

import math
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field

from prometheus_client.parser import text_string_to_metric_families


@dataclass
class Figures:
    """Every server's figures at one moment, added up."""

    moves: float = 0.0
    deals: float = 0.0
    frames: float = 0.0
    #: Sockets open by kind.
    sockets: dict[str, float] = field(default_factory=dict)
    #: The move histogram's cumulative counts by upper bound (seconds).
    buckets: dict[float, float] = field(default_factory=dict)


def read(ports: list[int]) -> Figures:
    figures = Figures()
    sockets: dict[str, float] = defaultdict(float)
    buckets: dict[float, float] = defaultdict(float)
    for port in ports:
        url = f"http://127.0.0.1:{port}/metrics"
        with urllib.request.urlopen(url, timeout=10) as response:
            text = response.read().decode()
        for family in text_string_to_metric_families(text):
            for sample in family.samples:
                name, labels, value = sample.name, sample.labels, sample.value
                if name == "fairway_moves_total":
                    if labels.get("kind") == "deal":
                        figures.deals += value
                    else:
                        figures.moves += value
                elif name == "fairway_frames_sent_total":
                    figures.frames += value
                elif name == "fairway_sockets_open":
                    sockets[labels["kind"]] += value
                elif name == "fairway_move_seconds_bucket":
                    buckets[float(labels["le"])] += value
    figures.sockets, figures.buckets = dict(sockets), dict(buckets)
    return figures


def quantile(q: float, buckets: dict[float, float]) -> float:
    """The `q` quantile of a histogram's cumulative `buckets`, as Prometheus's
    `histogram_quantile` estimates it (linear within a bucket); NaN when empty."""
    bounds = sorted(buckets)
    total = buckets[bounds[-1]] if bounds else 0.0
    if not total:
        return math.nan
    rank, below, lower = q * total, 0.0, 0.0
    for bound in bounds:
        count = buckets[bound]
        if count >= rank:
            if math.isinf(bound):
                return lower
            inside = count - below
            return lower + (bound - lower) * ((rank - below) / inside if inside else 1.0)
        below, lower = count, bound
    return lower


@dataclass
class Served:
    """What the servers did between two readings."""

    moves_per_second: float
    deals: float
    frames_per_second: float
    p50_ms: float
    p99_ms: float
    timed_moves: float
    sockets: dict[str, float]

    def note(self) -> str:
        open_sockets = ", ".join(f"{n:.0f} {kind}" for kind, n in sorted(self.sockets.items()) if n)
        line = (
            f"servers' own count: {self.moves_per_second:.1f} moves/s, "
            f"{self.frames_per_second:.0f} frames/s, sockets open: {open_sockets or 'none'}"
        )
        if self.timed_moves:
            line += (
                f"; a player's move on the server (arrival to its frame, from the "
                f"histogram): p50 {self.p50_ms:.1f} p99 {self.p99_ms:.1f} ms"
            )
        return line

    def row(self) -> dict:
        return {
            "moves_per_second": self.moves_per_second,
            "frames_per_second": self.frames_per_second,
            "p50": self.p50_ms,
            "p99": self.p99_ms,
            "sockets": self.sockets,
        }


def between(before: Figures, after: Figures, seconds: float) -> Served:
    buckets = {le: after.buckets.get(le, 0.0) - before.buckets.get(le, 0.0) for le in after.buckets}
    timed = max(buckets.values(), default=0.0)
    return Served(
        moves_per_second=(after.moves - before.moves) / seconds,
        deals=after.deals - before.deals,
        frames_per_second=(after.frames - before.frames) / seconds,
        p50_ms=quantile(0.5, buckets) * 1000,
        p99_ms=quantile(0.99, buckets) * 1000,
        timed_moves=timed,
        sockets=before.sockets,
    )

"""The load benchmark's reading of the servers' own figures: a histogram's quantiles
estimated as Prometheus estimates them, and the difference between two readings."""

from __future__ import annotations

import math

from tests.bench.server_metrics import Figures, between, quantile

INF = math.inf


def test_a_quantile_is_interpolated_inside_its_bucket():
    # 100 moves: 50 under 5 ms, 40 more under 10 ms, 10 more under 25 ms.
    buckets = {0.005: 50, 0.01: 90, 0.025: 100, INF: 100}
    assert quantile(0.5, buckets) == 0.005
    assert math.isclose(quantile(0.7, buckets), 0.0075)
    assert math.isclose(quantile(0.99, buckets), 0.01 + 0.015 * 0.9)


def test_a_quantile_past_the_last_bound_is_that_bound_and_empty_is_nan():
    assert quantile(0.99, {0.01: 0, INF: 4}) == 0.01
    assert math.isnan(quantile(0.5, {0.01: 0, INF: 0}))
    assert math.isnan(quantile(0.5, {}))


def test_between_two_readings_counts_only_what_happened_in_between():
    before = Figures(moves=100, frames=400, sockets={"table": 8}, buckets={0.01: 90, INF: 100})
    after = Figures(moves=130, frames=520, sockets={"table": 8}, buckets={0.01: 110, INF: 130})
    served = between(before, after, seconds=10)
    assert served.moves_per_second == 3.0
    assert served.frames_per_second == 12.0
    assert served.timed_moves == 30
    # 20 of the 30 moves in between were under 10 ms: the median is among them.
    assert served.p50_ms < 10
    assert served.sockets == {"table": 8}

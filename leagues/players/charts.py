"""Chart geometry for inline SVG drawn on the server: a line over time and a histogram.

Only numbers are worked out here; the templates draw them (with a title and a
description, so a screen reader gets the chart too). A line's points carry their
figures written as the templates' `floatformat` filter writes them, which costs too much
for a few hundred of them a page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import cached_property

from django.template.defaultfilters import floatformat

TENTH = Decimal("0.1")


def tenths(value: float) -> str:
    """`value` to one decimal place, as `{{ value|floatformat:1 }}` writes a chart's
    coordinate (halves away from zero, never "-0.0"), at a fraction of its cost."""
    exact = Decimal(str(value))
    _sign, digits, exponent = exact.as_tuple()
    if len(digits) + abs(exponent) > 200:
        return str(value)  # as the filter leaves such a number
    rounded = exact.quantize(TENTH, ROUND_HALF_UP)
    return str(rounded if rounded else abs(rounded))


WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 30
MAX_LABELS = 16


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str
    value: float

    @property
    def cx(self) -> str:
        return tenths(self.x)

    @property
    def cy(self) -> str:
        return tenths(self.y)

    @cached_property
    def shown(self) -> str:
        """The value as `{{ value|floatformat:"-1" }}` writes it (it is written twice)."""
        return floatformat(self.value, -1)


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class LineChart:
    points: list[Point]
    ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str
    count: int
    labelled: bool = True


@dataclass(frozen=True)
class Histogram:
    bars: list[Bar]
    ticks: list[Tick]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM


def _ticks(low: float, high: float, scale, digits: int) -> list[Tick]:
    """Ticks at both ends and the middle; a middle that would read like an end is left out."""
    ticks: dict[str, Tick] = {}
    for value in (low, high, (low + high) / 2):
        label = f"{value:.{digits}f}"
        ticks.setdefault(label, Tick(scale(value), label))
    return sorted(ticks.values(), key=lambda tick: -tick.y)


def _count_step(top: int) -> int:
    """A whole step between count ticks (1, 2, 5, 10, 20, ...) giving at most five ticks."""
    step, factors = 1, (2, 2.5, 2)
    i = 0
    while top / step > 4:
        step = int(step * factors[i % 3])
        i += 1
    return step


def line_chart(values: Sequence[tuple[str, float]], *, digits: int = 0) -> LineChart | None:
    """Points for (label, value) pairs in order, or None with nothing to draw."""
    if not values:
        return None
    numbers = [v for _, v in values]
    low, high = min(numbers), max(numbers)
    if low == high:
        low, high = low - 1, high + 1
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    step = plot_w / (len(values) - 1) if len(values) > 1 else 0
    points = [
        Point(LEFT + (step * i if len(values) > 1 else plot_w / 2), y_of(v), label, v)
        for i, (label, v) in enumerate(values)
    ]
    return LineChart(points=points, ticks=_ticks(low, high, y_of, digits))


def histogram(counts: Sequence[tuple[int, int]]) -> Histogram | None:
    """Bars for (strokes, how many holes), one per score from the lowest to the highest."""
    if not counts:
        return None
    by_score = dict(counts)
    scores = list(range(min(by_score), max(by_score) + 1))
    # A count is a whole number: the axis climbs in whole steps up to a tick.
    step = _count_step(max(by_score.values()))
    top = -(-max(by_score.values()) // step) * step
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    slot = plot_w / len(scores)
    # Every score is labelled while the labels fit; past that, every n-th one.
    every = -(-len(scores) // MAX_LABELS)
    bars = []
    for i, score in enumerate(scores):
        count = by_score.get(score, 0)
        height = plot_h * count / top
        bars.append(
            Bar(
                x=LEFT + slot * i + slot * 0.1,
                y=TOP + plot_h - height,
                width=slot * 0.8,
                height=height,
                label=str(score),
                count=count,
                labelled=(score - scores[0]) % every == 0,
            )
        )

    def y_of(value: float) -> float:
        return TOP + plot_h * (top - value) / top

    ticks = [Tick(y_of(v), str(v)) for v in range(0, top + 1, step)]
    return Histogram(bars=bars, ticks=ticks)

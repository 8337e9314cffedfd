"""Worked examples for the rules page: layouts drawn with the table's card tiles and
scored by the engine, so a figure can never say other than the rules do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games import engine

from .presenters import card_name, tone
from .tiles import Slot


@dataclass(frozen=True)
class Example:
    """One finished layout: its cards as slots, the pairs outlined, and its strokes."""

    variant: str
    caption: str
    slots: list[Slot]
    cols: int
    strokes: int


# (variant, row-major cards, what the layout shows). The strokes are the engine's.
LAYOUTS: list[tuple[str, list[Any], str]] = [
    ("play-nine", [7, 2, 5, 1, 7, 3, 6, 0], "A pair of 7s in a column scores 0."),
    (
        "play-nine",
        [4, 4, 9, 2, 4, 4, 1, 0],
        "Two pairs of 4s: each pair scores 0, and the second earns a bonus of −10.",
    ),
    (
        "play-nine",
        [7, 7, 3, 3, 7, 7, 3, 3],
        "Two pairs of 7s and two pairs of 3s: each value earns its own −10.",
    ),
    (
        "play-nine",
        [-5, -5, 3, 8, -5, -5, 3, 8],
        "Two pairs of Hole-in-Ones keep their −10 each, plus the −10 bonus.",
    ),
    ("golf-6", ["5H", "KD", "2C", "5S", "9H", "JD"], "Two 5s in a column score 0; a King 0."),
    (
        "golf-6",
        ["2H", "JD", "QC", "2S", "QH", "JS"],
        "Two twos pair and score 0, not −4; a Jack and a Queen are no pair.",
    ),
    ("golf-4", ["8H", "3D", "8S", "KC"], "A pair of 8s in a column scores 0."),
    (
        "golf-9",
        ["7H", "3D", "KC", "7S", "5H", "KD", "4C", "5S", "KH"],
        "Three Kings cancel; with two equal in a column only the third card counts.",
    ),
    (
        "golf-9-3deck",
        ["7H", "4D", "7C", "7S", "9H", "7D", "3C", "JK", "8H"],
        "Four 7s as pairs one above the other in two columns: 0, and −25 more.",
    ),
    (
        "golf-9-3deck",
        ["5H", "8D", "AC", "3S", "5D", "3H", "KC", "JK", "JK"],
        "Jokers side by side pair and score 0; 5s corner to corner and 3s apart do not.",
    ),
    (
        "golf-9-3deck",
        ["3H", "3D", "9C", "3S", "6H", "QD", "AC", "10S", "4H"],
        "Three 3s in an L: the corner card pairs both ways, so all three score 0.",
    ),
]


def example(variant: str, cards: list[Any], caption: str) -> Example:
    """A layout as the table would show it at a hole's end, scored by the engine."""
    paired = {p for group in engine.scoring_pairs(variant, cards) for p in group}
    slots = []
    for position, card in enumerate(cards):
        text, label = card_name(variant, card)
        slots.append(
            Slot(
                position=position,
                card=card,
                text=text,
                label=label,
                face_up=True,
                tone=tone(variant, card),
                paired=position in paired,
            )
        )
    return Example(
        variant=variant,
        caption=caption,
        slots=slots,
        cols=engine.VARIANTS[variant].cols,
        strokes=engine.score_layout(variant, cards),
    )


def examples_by_variant() -> dict[str, list[Example]]:
    """Every worked example, by variant key, in the order above."""
    grouped: dict[str, list[Example]] = {}
    for variant, cards, caption in LAYOUTS:
        grouped.setdefault(variant, []).append(example(variant, cards, caption))
    return grouped

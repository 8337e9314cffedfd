"""The rules engine (placeholder until the full engine lands): the variants' table."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Variant:
    key: str
    name: str
    rows: int
    cols: int
    min_players: int
    max_players: int
    opening_flips: int


VARIANTS = {
    v.key: v
    for v in (
        Variant("play-nine", "Play Nine", 2, 4, 2, 6, 2),
        Variant("golf-6", "6-card Golf", 2, 3, 2, 6, 2),
        Variant("golf-4", "4-card Golf", 2, 2, 3, 7, 2),
        Variant("golf-9", "9-card Golf", 3, 3, 2, 6, 3),
        Variant("golf-9-3deck", "9-card Golf, three decks", 3, 3, 2, 8, 3),
    )
}

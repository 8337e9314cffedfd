"""The rules engine of Fairway: pure Python, no Django, no I/O, no global random state.

The contract is ENGINE.md; everything about the cards is decided here.
"""

from __future__ import annotations

from .cards import card_label, card_text
from .hole import (
    FINAL_TURNS,
    OVER,
    PLAY,
    TEE_OFF,
    HoleState,
    IllegalAction,
    apply_action,
    legal_actions,
    new_hole,
    view,
)
from .layouts import score_layout, scoring_pairs
from .variants import VARIANTS, Variant

__all__ = [
    "FINAL_TURNS",
    "OVER",
    "PLAY",
    "TEE_OFF",
    "VARIANTS",
    "HoleState",
    "IllegalAction",
    "Variant",
    "apply_action",
    "card_label",
    "card_text",
    "legal_actions",
    "new_hole",
    "score_layout",
    "scoring_pairs",
    "view",
]

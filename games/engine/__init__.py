"""The rules engine of Fairway: pure Python, no Django, no I/O, no global random state.

Everything about the cards is decided here. The names below are the engine's
public surface; games/engine/README.md describes them.
"""

from __future__ import annotations

from .deal import new_hole
from .hole import (
    FINAL_TURNS,
    OVER,
    PLAY,
    TEE_OFF,
    HoleState,
    IllegalAction,
    apply_action,
    legal_actions,
    view,
)
from .match import (
    HOLES,
    MatchStatus,
    choose_first_dealer,
    dealer_for_hole,
    match_status,
    match_totals,
    playoff_dealer,
    playoff_players,
)
from .movelog import describe_action, describe_turn
from .snapshot import state_from_dict, state_to_dict
from .variants import (
    HOUSE_RULES,
    VARIANTS,
    HouseRule,
    Variant,
    card_label,
    card_text,
    get_variant,
    hole_score_range,
    score_layout,
    scoring_pairs,
    with_house_rules,
)

__all__ = [
    "FINAL_TURNS",
    "HOLES",
    "HOUSE_RULES",
    "OVER",
    "PLAY",
    "TEE_OFF",
    "VARIANTS",
    "HoleState",
    "HouseRule",
    "IllegalAction",
    "MatchStatus",
    "Variant",
    "apply_action",
    "card_label",
    "card_text",
    "choose_first_dealer",
    "dealer_for_hole",
    "describe_action",
    "describe_turn",
    "get_variant",
    "hole_score_range",
    "legal_actions",
    "match_status",
    "match_totals",
    "new_hole",
    "playoff_dealer",
    "playoff_players",
    "score_layout",
    "scoring_pairs",
    "state_from_dict",
    "state_to_dict",
    "view",
    "with_house_rules",
]

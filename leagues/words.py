"""Small rules of English the pages write names with."""

from __future__ import annotations


def possessive(name: str) -> str:
    """`name` with its possessive ending: "Hana's", but "Birdies'" (a name ending in s,
    as a team's often does, takes the apostrophe alone)."""
    name = str(name)
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"

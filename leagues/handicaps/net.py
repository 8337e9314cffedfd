"""Net strokes: the one home of that rule, for standings, a table's net places, a card's
stored figures, the night's board and duplicate deals alike."""

from __future__ import annotations

from fractions import Fraction


def net_strokes(strokes: int, holes: int, handicap: Fraction) -> Fraction:
    """Strokes less the handicap once a hole played: a match's nine regulation holes, a
    deal's one, or the holes a screen shows so far."""
    return strokes - holes * handicap

"""A match: nine holes, the dealer moving left, and sudden-death playoff holes on a tie.

Hole scores come as one list per hole with one entry per seat, the nine
regulation holes first and any playoff holes after them. In a playoff hole only
the entries of the seats still in contention count; the others may be None.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .variants import get_variant

HOLES = 9


def dealer_for_hole(first_dealer: int, hole_index: int, players: int) -> int:
    """The dealer of hole `hole_index` (0-based; playoff holes continue the count)."""
    return (first_dealer + hole_index) % players


def choose_first_dealer(variant: str, players: int, seed: int) -> tuple[int, list[list]]:
    """Each seat draws a card; the lowest deals and tied lowest seats draw again.

    Returns the dealer and the rounds drawn: one list per round with an entry per
    seat, `None` for a seat that did not draw in that round. Play Nine's -5 is the
    lowest card; in the other games a card is as low as it scores.
    """
    rules = get_variant(variant)
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    rng = random.Random(seed)
    deck: list[Card] = []
    drawing = list(range(players))
    rounds: list[list] = []
    while True:
        if len(deck) < len(drawing):
            # A long run of ties can empty the deck: shuffle a fresh one.
            deck = rules.deck(players)
            rng.shuffle(deck)
        row: list = [None] * players
        for seat in drawing:
            row[seat] = deck.pop()
        rounds.append(row)
        lowest = min(rules.values[row[seat]] for seat in drawing)
        drawing = [seat for seat in drawing if rules.values[row[seat]] == lowest]
        if len(drawing) == 1:
            return drawing[0], rounds


def playoff_players(variant: str, contenders: Sequence[int], players: int) -> tuple[int, ...]:
    """The seats dealt into a playoff hole, ascending.

    The tied seats play among themselves, except in a game whose hole needs more
    than two players (4-card Golf needs three): there everyone plays the playoff
    hole and only the contenders' scores decide it.
    """
    if get_variant(variant).min_players > 2:
        return tuple(range(players))
    return tuple(sorted(contenders))


def playoff_dealer(dealer: int, seats: Sequence[int], players: int) -> int:
    """The engine's dealer index among `seats` (as `playoff_players` gives them).

    The rotation goes on around the whole table: when the table's dealer sits out
    the playoff, the first dealt seat on its left still plays first.
    """
    ordered = sorted(seats)
    for offset in range(1, players + 1):
        first = (dealer + offset) % players
        if first in ordered:
            return (ordered.index(first) - 1) % len(ordered)
    raise ValueError("No seat is dealt into the hole.")


def match_totals(hole_scores: Sequence[Sequence[int | None]], players: int) -> tuple[int, ...]:
    """Each seat's total over the regulation holes played so far (playoff holes excluded)."""
    totals = [0] * players
    for scores in hole_scores[:HOLES]:
        if len(scores) != players:
            raise ValueError("Every hole has one score per seat.")
        for seat, strokes in enumerate(scores):
            if type(strokes) is not int:
                raise ValueError("A regulation hole has a score for every seat.")
            totals[seat] += strokes
    return tuple(totals)


@dataclass(frozen=True)
class MatchStatus:
    """Where a match stands after the holes played so far."""

    #: Whether the match has a winner.
    over: bool
    #: Whether the next hole to deal is a playoff hole.
    next_hole_is_playoff: bool
    #: The seats still in contention (every seat during regulation).
    contenders: tuple[int, ...]
    winner: int | None
    #: Regulation totals (the nine holes, or those played so far).
    totals: tuple[int, ...]
    #: 1-based place per seat, ties sharing a place ("1, 2, 2, 4"). Among the seats
    #: tied for the lowest total, the playoff winner is 1st and the rest share 2nd.
    places: tuple[int, ...]
    #: Holes played, playoff holes included.
    holes_played: int


def match_status(hole_scores: Sequence[Sequence[int | None]], players: int) -> MatchStatus:
    """The standing of a match from its hole scores (regulation first, then playoffs)."""
    totals = match_totals(hole_scores, players)
    every = tuple(range(players))
    ranked = tuple(1 + sum(other < total for other in totals) for total in totals)
    if len(hole_scores) < HOLES:
        return MatchStatus(False, False, every, None, totals, ranked, len(hole_scores))
    lowest = min(totals)
    tied = tuple(seat for seat in every if totals[seat] == lowest)
    contenders = tied
    for scores in hole_scores[HOLES:]:
        if len(contenders) == 1:
            raise ValueError("A playoff hole was recorded after the match was decided.")
        if len(scores) != players or any(type(scores[seat]) is not int for seat in contenders):
            raise ValueError("A playoff hole has a score for every contender.")
        best = min(scores[seat] for seat in contenders)
        contenders = tuple(seat for seat in contenders if scores[seat] == best)
    if len(contenders) > 1:
        return MatchStatus(False, True, contenders, None, totals, ranked, len(hole_scores))
    winner = contenders[0]
    places = tuple(1 if seat == winner else 2 if seat in tied else ranked[seat] for seat in every)
    return MatchStatus(True, False, contenders, winner, totals, places, len(hole_scores))

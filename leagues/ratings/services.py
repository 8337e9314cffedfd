"""Writes of ratings: every finished match of a league rated again, oldest first."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from openskill.models import PlackettLuce

from ..models import League, Rating, RatingChange
from .selectors import counted_tables, ranked_cards


def compact_ranks(values: Sequence[int]) -> list[int]:
    """openskill ranks from places (or totals): lower is better, equal values share a rank."""
    return [1 + sum(other < value for other in values) for value in values]


@transaction.atomic
def rebuild_ratings(*, league: League) -> int:
    """Rate every finished match of the league again from scratch, oldest first.

    PlackettLuce, one team per person (bots are left out), ranked by the places on
    the scorecards, so a playoff decides between players level after nine holes.
    Stores each player's rating after every match and the current rating. Returns
    how many matches were rated (a match needs two people with a place).
    """
    model = PlackettLuce()
    current: dict[int, object] = {}
    counts: dict[int, int] = {}
    changes: list[RatingChange] = []
    rated = 0
    rules = league.rules
    for night_table in counted_tables(league=league):
        # Only matches on the league's rules count: a table played before its game or
        # house rules changed measures something else.
        if night_table.table.rules != rules:
            continue
        cards = ranked_cards(night_table)
        # A finished match has a place on every card; one without was never decided.
        if len(cards) < 2 or any(card.place is None for card in cards):
            continue
        rated += 1
        before = [current.get(card.player_id) or model.rating() for card in cards]
        after = model.rate(
            [[rating] for rating in before],
            ranks=compact_ranks([card.place for card in cards]),
        )
        for card, old, (new,) in zip(cards, before, after, strict=True):
            current[card.player_id] = new
            counts[card.player_id] = counts.get(card.player_id, 0) + 1
            changes.append(
                RatingChange(
                    league=league,
                    player_id=card.player_id,
                    night_table=night_table,
                    sequence=rated,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                )
            )
    RatingChange.objects.filter(league=league).delete()
    Rating.objects.filter(league=league).delete()
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        Rating(league=league, player_id=pk, mu=r.mu, sigma=r.sigma, matches=counts[pk])
        for pk, r in current.items()
    )
    return rated

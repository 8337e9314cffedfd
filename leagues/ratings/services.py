"""Writes of ratings: every finished match of a league rated again, oldest first; or one
match as it finishes, on top of the league's ratings.

A live table that finishes is the league's newest match as a rule, and rating it alone
(`rate_match`) gives the same ratings as a rebuild at a cost that does not grow with
the league's history. A match that finishes behind one already rated (a table of an
earlier night played late) leaves no shortcut: the league is rated again from scratch.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.db.models import Max, Q
from openskill.models import PlackettLuce

from ..models import League, NightTable, Rating, RatingChange
from .selectors import counted_tables, ranked_cards


def compact_ranks(values: Sequence[int]) -> list[int]:
    """openskill ranks from places (or totals): lower is better, equal values share a rank."""
    return [1 + sum(other < value for other in values) for value in values]


def _counted_cards(night_table: NightTable, rules) -> list | None:
    """The people's cards of a match that counts, or None: only matches on the league's
    rules count (a table played before its game or house rules changed measures
    something else), and a finished match has a place on every card (one without was
    never decided) and two people at least."""
    if night_table.table.rules != rules:
        return None
    cards = ranked_cards(night_table)
    if len(cards) < 2 or any(card.place is None for card in cards):
        return None
    return cards


def _rate(
    model, league: League, night_table: NightTable, sequence: int, cards: list, before: list
) -> list[RatingChange]:
    """One match rated: each card's player's rating after it, from `before`."""
    after = model.rate(
        [[rating] for rating in before], ranks=compact_ranks([card.place for card in cards])
    )
    return [
        RatingChange(
            league=league,
            player_id=card.player_id,
            night_table=night_table,
            sequence=sequence,
            mu_before=old.mu,
            sigma_before=old.sigma,
            mu=new.mu,
            sigma=new.sigma,
        )
        for card, old, (new,) in zip(cards, before, after, strict=True)
    ]


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
        cards = _counted_cards(night_table, rules)
        if cards is None:
            continue
        rated += 1
        before = [current.get(card.player_id) or model.rating() for card in cards]
        for change in _rate(model, league, night_table, rated, cards, before):
            current[change.player_id] = model.rating(mu=change.mu, sigma=change.sigma)
            counts[change.player_id] = counts.get(change.player_id, 0) + 1
            changes.append(change)
    RatingChange.objects.filter(league=league).delete()
    Rating.objects.filter(league=league).delete()
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        Rating(league=league, player_id=pk, mu=r.mu, sigma=r.sigma, matches=counts[pk])
        for pk, r in current.items()
    )
    return rated


@transaction.atomic
def rate_match(*, night_table: NightTable) -> bool:
    """Rate `night_table`'s finished match on top of its league's ratings (once); False
    when it does not count (another game or house rules, fewer than two people placed).

    The league's row is locked, so that two of its tables finishing at once are rated
    one after the other, each on top of the other.
    """
    night = night_table.night
    league = League.objects.select_for_update().get(pk=night.season.league_id)
    if night_table.rating_changes.exists():
        return True
    cards = _counted_cards(night_table, league.rules)
    if cards is None:
        return False
    later = Q(night_table__night__date__gt=night.date) | Q(
        night_table__night__date=night.date, night_table__night__pk__gt=night.pk
    )
    later |= Q(night_table__night=night, night_table__number__gt=night_table.number)
    if RatingChange.objects.filter(later, league=league).exists():
        rebuild_ratings(league=league)
        return True
    model = PlackettLuce()
    held = {
        r.player_id: r
        for r in Rating.objects.filter(league=league, player__in=[c.player_id for c in cards])
    }
    before = [
        model.rating(mu=held[c.player_id].mu, sigma=held[c.player_id].sigma)
        if c.player_id in held
        else model.rating()
        for c in cards
    ]
    last = RatingChange.objects.filter(league=league).aggregate(last=Max("sequence"))["last"]
    changes = _rate(model, league, night_table, (last or 0) + 1, cards, before)
    ratings = []
    for change in changes:
        rating = held.get(change.player_id) or Rating(
            league=league, player_id=change.player_id, matches=0
        )
        rating.mu, rating.sigma, rating.matches = change.mu, change.sigma, rating.matches + 1
        ratings.append(rating)
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create([r for r in ratings if r.pk is None])
    Rating.objects.bulk_update([r for r in ratings if r.pk is not None], ["mu", "sigma", "matches"])
    return True

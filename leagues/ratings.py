"""Rating one match as it finishes: the league's ratings so far, moved on by that match.

`services.rebuild_ratings` rates a league's every match again, oldest first; a live
table that finishes is the league's newest match as a rule, and rating it alone gives
the same ratings at a cost that does not grow with the league's history. A match
that finishes behind one already rated (a table of an earlier night played late)
leaves no shortcut: the league is rated again from scratch.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from openskill.models import PlackettLuce

from . import selectors
from .models import League, NightTable, Rating, RatingChange
from .services import compact_ranks, rebuild_ratings


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
    if night_table.table.rules != league.rules:
        return False
    cards = selectors.ranked_cards(night_table)
    if len(cards) < 2 or any(card.place is None for card in cards):
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
    after = model.rate(
        [[rating] for rating in before], ranks=compact_ranks([card.place for card in cards])
    )
    sequence = (
        RatingChange.objects.filter(league=league).aggregate(last=Max("sequence"))["last"] or 0
    ) + 1
    changes, ratings = [], []
    for card, old, (new,) in zip(cards, before, after, strict=True):
        changes.append(
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
        )
        rating = held.get(card.player_id) or Rating(
            league=league, player_id=card.player_id, matches=0
        )
        rating.mu, rating.sigma, rating.matches = new.mu, new.sigma, rating.matches + 1
        ratings.append(rating)
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create([r for r in ratings if r.pk is None])
    Rating.objects.bulk_update([r for r in ratings if r.pk is not None], ["mu", "sigma", "matches"])
    return True

"""Writes of ratings: a league's matches rated in order, each on top of the ratings the
matches before it gave.

A match that finishes or is entered after every match already rated (the usual case)
is rated alone on top of the stored ratings (`rate_match`), at once, at a cost that
does not grow with the league's history. One that lands behind rated matches (a table
of an earlier night entered late, a correction, a substitute named afterwards) is rated
again with the matches after it, and those alone (`rate_from`): the ratings before it
are read back from its history, and of the matches after it only those its players'
new ratings reach are rated again (a correction of tonight's table rates that table
alone). That cost grows with what came after, so the request that asked for it waits
for none of it: it is queued as a task once its writes commit (`rerate_from`), which a
task worker runs within seconds.

Meanwhile the league's pages show the ratings as they stood before the change (its
history and its current ratings agree with each other), while its standings (the
cards' places and points, written by the request itself) are right at once. Two
changes close together each queue their own re-rating, run one after the other (each
locks the league's row) in either order: each rates again from its own match on what
is committed by then, so the last to run leaves the same ratings as a rebuild.
`rebuild_ratings` rates the whole league from scratch and says what it changed: the
repair tool, and what a change of the league's rating rules (its game, house rules or
whose results count) needs, which is queued as a task too (`queue_rebuild`). Each gives
the same ratings as a rebuild.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Max, Q
from django_tasks import task
from openskill.models import PlackettLuce

from games.tasks import enqueue_on_commit

from ..models import League, NightTable, Rating, RatingChange
from ..standings.models import CardResult
from ..standings.places import competition_places
from .selectors import counted_tables, ranked_cards


def _counted_cards(night_table: NightTable, rules) -> list | None:
    """The rated cards of a match that counts, or None: only matches on the league's
    rules count (a table played before its game or house rules changed measures
    something else), and a finished match has a place on every card (one without was
    never decided) and two people at least whose result moves their rating."""
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
        [[rating] for rating in before], ranks=competition_places([card.place for card in cards])
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


def _at_or_after(night_table: NightTable, prefix: str = "") -> Q:
    """The night tables (through `prefix`) at or after `night_table` in the rating order."""
    night = night_table.night
    return (
        Q(**{f"{prefix}night__date__gt": night.date})
        | Q(**{f"{prefix}night__date": night.date, f"{prefix}night__pk__gt": night.pk})
        | Q(**{f"{prefix}night": night, f"{prefix}number__gte": night_table.number})
    )


def _rate_in_order(league: League, tables, held: dict, counts: dict, sequence: int) -> int:
    """Rate `tables` (in the rating order) on top of `held` ratings by player id, storing
    each change; `counts` are the players' rated matches so far. Returns how many matches
    were rated."""
    model = PlackettLuce()
    rules = league.rules
    changes: list[RatingChange] = []
    rated = 0
    for night_table in tables:
        cards = _counted_cards(night_table, rules)
        if cards is None:
            continue
        rated += 1
        before = [held.get(card.player_id) or model.rating() for card in cards]
        for change in _rate(model, league, night_table, sequence + rated, cards, before):
            held[change.player_id] = model.rating(mu=change.mu, sigma=change.sigma)
            counts[change.player_id] = counts.get(change.player_id, 0) + 1
            changes.append(change)
    RatingChange.objects.bulk_create(changes)
    _store(league, {change.player_id for change in changes}, held, counts)
    return rated


def _store(league: League, players: set[int], held: dict, counts: dict) -> None:
    """Write the current ratings of `players` (none: their rating row goes)."""
    rows = {r.player_id: r for r in Rating.objects.filter(league=league, player__in=players)}
    new, changed, gone = [], [], []
    for player in players:
        rating = held.get(player)
        row = rows.get(player)
        if rating is None:
            if row is not None:
                gone.append(row.pk)
            continue
        if row is None:
            new.append(
                Rating(
                    league=league,
                    player_id=player,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    matches=counts[player],
                )
            )
        else:
            row.mu, row.sigma, row.matches = rating.mu, rating.sigma, counts[player]
            changed.append(row)
    Rating.objects.filter(pk__in=gone).delete()
    Rating.objects.bulk_create(new)
    Rating.objects.bulk_update(changed, ["mu", "sigma", "matches"])


def _rate_again_where_touched(league: League, night_table: NightTable) -> int | None:
    """Rate `night_table`'s match again, and of the matches after it only those its
    players' new ratings reach (a match sharing a player with one rated again, and so
    on): the others keep their changes, which nothing they depend on moved. Returns how
    many matches were rated, or None where this does not apply: a match whose rated
    players are not those it was rated with before (it starts or stops counting, or a
    player joins or leaves it) moves what follows in other ways, and is rated again
    with everything after it by the caller.

    So a correction of tonight's table rates that table alone, whatever the night's
    other tables: they seat other people. Every match keeps its place in the order
    (`sequence`), since the same matches count as before.
    """
    later = RatingChange.objects.filter(
        _at_or_after(night_table, "night_table__"), league=league
    ).values_list("night_table_id", "player_id", "sequence", "mu_before", "sigma_before")
    sequences: dict[int, int] = {}
    players_at: dict[int, set[int]] = {}
    before: dict[tuple[int, int], tuple[float, float]] = {}
    for table_id, player, sequence, mu, sigma in later:
        sequences[table_id] = sequence
        players_at.setdefault(table_id, set()).add(player)
        before[table_id, player] = (mu, sigma)
    rules = league.rules
    cards = _counted_cards(night_table, rules)
    if cards is None or {card.player_id for card in cards} != players_at.get(night_table.pk):
        return None
    touched = set(players_at[night_table.pk])
    again = [night_table.pk]
    for table_id in sorted(sequences, key=sequences.get):
        if table_id != night_table.pk and players_at[table_id] & touched:
            again.append(table_id)
            touched |= players_at[table_id]
    tables = {night_table.pk: night_table} | NightTable.objects.select_related(
        "table", "night"
    ).in_bulk(again[1:])
    cards_at = {night_table.pk: cards}
    for table_id in again[1:]:
        cards_at[table_id] = _counted_cards(tables[table_id], rules)
        if (
            cards_at[table_id] is None
            or {card.player_id for card in cards_at[table_id]} != players_at[table_id]
        ):
            return None
    model = PlackettLuce()
    # Each touched player's rating before the first match of theirs rated again, as that
    # match's change recorded it: nothing before that match moves.
    held = {}
    for table_id in reversed(again):
        for player in players_at[table_id]:
            held[player] = model.rating(*before[table_id, player])
    RatingChange.objects.filter(league=league, night_table_id__in=again).delete()
    changes: list[RatingChange] = []
    for table_id in again:
        cards = cards_at[table_id]
        rated = _rate(
            model,
            league,
            tables[table_id],
            sequences[table_id],
            cards,
            [held[card.player_id] for card in cards],
        )
        for change in rated:
            held[change.player_id] = model.rating(mu=change.mu, sigma=change.sigma)
        changes.extend(rated)
    RatingChange.objects.bulk_create(changes)
    # The same matches count for each of them: their numbers of matches stand.
    ratings = list(Rating.objects.filter(league=league, player__in=touched))
    for row in ratings:
        row.mu, row.sigma = held[row.player_id].mu, held[row.player_id].sigma
    Rating.objects.bulk_update(ratings, ["mu", "sigma"])
    return len(again)


@transaction.atomic
def rate_from(*, night_table: NightTable) -> int:
    """Rate `night_table`'s match and every match of its league after it again, on top
    of the ratings the matches before it gave. Returns how many matches were rated.

    The league's row is locked, so that two tables of a league are rated one after the
    other, each on top of the other.
    """
    league = League.objects.select_for_update().get(pk=night_table.night.season.league_id)
    rated = _rate_again_where_touched(league, night_table)
    if rated is not None:
        return rated
    later = RatingChange.objects.filter(_at_or_after(night_table, "night_table__"), league=league)
    players = set(later.values_list("player_id", flat=True))
    later.delete()
    model = PlackettLuce()
    held: dict = {}
    counts: dict[int, int] = {}
    # Each player's rating before the match: their last change before it.
    lasts = (
        RatingChange.objects.filter(league=league, player__in=players)
        .values("player_id")
        .annotate(last=Max("sequence"), matches=Count("pk"))
    )
    last_of = {row["player_id"]: row["last"] for row in lasts}
    counts.update({row["player_id"]: row["matches"] for row in lasts})
    for change in RatingChange.objects.filter(
        league=league, player__in=list(last_of), sequence__in=set(last_of.values())
    ):
        if last_of[change.player_id] == change.sequence:
            held[change.player_id] = model.rating(mu=change.mu, sigma=change.sigma)
    sequence = RatingChange.objects.filter(league=league).aggregate(last=Max("sequence"))["last"]
    tables = list(counted_tables(league=league).filter(_at_or_after(night_table)))
    # Whoever lost every rated match from here on keeps only what came before.
    _store(league, players, held, counts)
    # The others at those tables had no change after this point: theirs stand as stored.
    others = (
        set(
            CardResult.objects.filter(night_table__in=tables, rated=True).values_list(
                "scorecard__player_id", flat=True
            )
        )
        - players
    )
    for row in Rating.objects.filter(league=league, player__in=others):
        held[row.player_id] = model.rating(mu=row.mu, sigma=row.sigma)
        counts[row.player_id] = row.matches
    return _rate_in_order(league, tables, held, counts, sequence or 0)


@task()
def rerate_from(night_table_id: int) -> int:
    """The task: `rate_from` the night table, on what is committed when it runs (safe to
    run again: it rates anew from there). Returns how many matches were rated."""
    night_table = (
        NightTable.objects.select_related("night__season__league", "table")
        .filter(pk=night_table_id)
        .first()
    )
    if night_table is None:
        return 0  # the night table is gone: nothing to rate from it
    return rate_from(night_table=night_table)


def queue_rate_from(night_table: NightTable) -> None:
    """Rate `night_table`'s match and those after it again, in a task queued once the
    current transaction commits (`rerate_from`)."""
    enqueue_on_commit(rerate_from, night_table.pk)


@transaction.atomic
def rate_match(*, night_table: NightTable) -> bool:
    """Rate `night_table`'s finished match on top of its league's ratings; False when
    it does not count (another game or house rules, fewer than two rated people placed)
    or when it is not rated here.

    A match rated before, or one behind a rated match, is rated again with every match
    after it in a task, once the transaction commits (`queue_rate_from`).
    """
    night = night_table.night
    league = League.objects.select_for_update().get(pk=night.season.league_id)
    later = RatingChange.objects.filter(_at_or_after(night_table, "night_table__"), league=league)
    if later.exists():
        queue_rate_from(night_table)
        return False
    cards = _counted_cards(night_table, league.rules)
    if cards is None:
        return False
    players = {card.player_id for card in cards}
    model = PlackettLuce()
    held = {
        r.player_id: model.rating(mu=r.mu, sigma=r.sigma)
        for r in Rating.objects.filter(league=league, player__in=players)
    }
    counts = dict(
        Rating.objects.filter(league=league, player__in=players).values_list("player_id", "matches")
    )
    sequence = RatingChange.objects.filter(league=league).aggregate(last=Max("sequence"))["last"]
    _rate_in_order(league, [night_table], held, counts, sequence or 0)
    return True


@task()
def rebuild_league_ratings(league_id: int) -> int:
    """The task: `rebuild_ratings` of the league, on what is committed when it runs (safe
    to run again: it rates anew from scratch). Returns how many matches were rated."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        return 0  # the league is gone: nothing to rate
    return rebuild_ratings(league=league).matches


def queue_rebuild(league: League) -> None:
    """Rate the whole league again (its rating rules changed), in a task queued once the
    current transaction commits (`rebuild_league_ratings`): the request that changed the
    rules waits for none of it, and the league's pages say the ratings are being
    recomputed until it has run (`selectors.ratings_being_rebuilt`)."""
    enqueue_on_commit(rebuild_league_ratings, league.pk)


@dataclass(frozen=True)
class Rebuilt:
    """What `rebuild_ratings` did: the matches rated, and the players whose rating moved."""

    matches: int
    changed: Sequence[int]

    def __str__(self) -> str:
        moved = len(self.changed)
        return f"{self.matches} match(es) rated; {moved} player(s)' rating changed"


def _ratings(league: League) -> dict[int, tuple[float, float, int]]:
    return {
        player: (mu, sigma, matches)
        for player, mu, sigma, matches in Rating.objects.filter(league=league).values_list(
            "player_id", "mu", "sigma", "matches"
        )
    }


@transaction.atomic
def rebuild_ratings(*, league: League) -> Rebuilt:
    """Rate every finished match of the league again from scratch, oldest first, and
    say whose rating that changed: the repair tool.

    PlackettLuce, one team per person (bots and results that move no one's rating are
    left out), ranked by the places on the scorecards, so a playoff decides between
    players level after nine holes.
    """
    league = League.objects.select_for_update().get(pk=league.pk)
    before = _ratings(league)
    RatingChange.objects.filter(league=league).delete()
    Rating.objects.filter(league=league).delete()
    matches = _rate_in_order(league, counted_tables(league=league), {}, {}, 0)
    after = _ratings(league)
    changed = sorted(
        player
        for player in before.keys() | after.keys()
        if not _same(before.get(player), after.get(player))
    )
    return Rebuilt(matches=matches, changed=changed)


def _same(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None:
        return a is b
    return a[2] == b[2] and abs(a[0] - b[0]) < 1e-9 and abs(a[1] - b[1]) < 1e-9

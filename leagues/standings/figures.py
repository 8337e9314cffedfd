"""A player's figures in a league (`PlayerFigures`): sums over the cards they played,
moved by each write of those cards' stored figures by what it took away and what it
added, so that no write and no read passes over a player's whole history; and the same
figures worked out from every card, for `rebuild_figures` to check them against."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum

from games.engine.match import HOLES
from games.models import ScorecardHole

from ..models import League
from .models import CardResult, PlayerFigures

#: What a card adds to its player's figures, as `CardResult` rows give it.
CONTRIBUTION = (
    "scorecard__player_id",
    "place",
    "strokes",
    "spread",
    "pairs",
    "pairs_holes",
    "rated",
    "holes",
)
#: The counts a player's figures hold, beside the spread of their hole scores.
COUNTS = ("played", "wins", "strokes", "pairs", "pairs_holes", "rated_strokes", "rated_holes")
FIELDS = (*COUNTS, "spread")


@dataclass
class Tally:
    """Figures summed over some cards (or the difference a write makes to them)."""

    played: int = 0
    wins: int = 0
    strokes: int = 0
    pairs: int = 0
    pairs_holes: int = 0
    rated_strokes: int = 0
    rated_holes: int = 0
    spread: Counter[int] = field(default_factory=Counter)

    @classmethod
    def of(cls, kept: PlayerFigures) -> Tally:
        """The figures `kept`."""
        counts = {name: getattr(kept, name) for name in COUNTS}
        return cls(**counts, spread=Counter({int(s): n for s, n in kept.spread.items()}))

    def count(self, row: tuple, sign: int = 1) -> None:
        """Add (or, with `sign` -1, take away) one card, a `CONTRIBUTION` row."""
        _player, place, strokes, spread, pairs, pairs_holes, rated, holes = row
        self.played += sign
        self.wins += sign if place == 1 else 0
        self.strokes += sign * strokes
        self.pairs += sign * pairs
        self.pairs_holes += sign * pairs_holes
        for score, count in spread.items():
            self.spread[int(score)] += sign * count
        if rated:
            self.rated_strokes += sign * strokes
            self.rated_holes += sign * holes

    def __bool__(self) -> bool:
        return any(getattr(self, name) for name in COUNTS) or any(self.spread.values())

    def apply(self, figures: PlayerFigures) -> None:
        """Move `figures` by this difference."""
        for name in COUNTS:
            setattr(figures, name, getattr(figures, name) + getattr(self, name))
        spread = Counter({int(score): holes for score, holes in figures.spread.items()})
        spread.update(self.spread)
        figures.spread = stored_spread(spread)

    def as_stored(self) -> tuple:
        """The figures as `FIELDS` name them."""
        return (*(getattr(self, name) for name in COUNTS), stored_spread(self.spread))


def stored_spread(spread: Counter[int] | dict) -> dict[str, int]:
    """A spread as a JSON field keeps it: scores as text, lowest first, none of no hole."""
    return {str(score): holes for score, holes in sorted(spread.items()) if holes}


def spread_list(spread: dict) -> list[tuple[int, int]]:
    """A spread (stored or counted) as (strokes, holes) pairs, lowest first."""
    return sorted((int(score), holes) for score, holes in spread.items() if holes)


def card_spreads(card_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Each card's spread over its regulation holes: one query."""
    spreads: dict[int, Counter[int]] = defaultdict(Counter)
    holes = ScorecardHole.objects.filter(scorecard_id__in=list(card_ids), number__lte=HOLES)
    for card_id, strokes in holes.values_list("scorecard_id", "strokes").order_by():
        spreads[card_id][strokes] += 1
    return {card_id: stored_spread(spread) for card_id, spread in spreads.items()}


def contributions(results: QuerySet[CardResult]) -> list[tuple]:
    return list(results.values_list(*CONTRIBUTION))


def move(league: League, taken: Iterable[tuple], added: Iterable[tuple]) -> None:
    """Move the figures of the players of the cards `taken` and `added` (`CONTRIBUTION`
    rows: what a write deleted and what it wrote) by the difference. Two queries (four
    for a player's first card), none when nothing differs; the players' rows are locked
    until the transaction ends."""
    by_player: dict[int, Tally] = defaultdict(Tally)
    for rows, sign in ((taken, -1), (added, 1)):
        for row in rows:
            if row[0] is not None:
                by_player[row[0]].count(row, sign)
    differ = {player: change for player, change in by_player.items() if change}
    if not differ:
        return
    kept = PlayerFigures.objects.select_for_update().filter(league=league)
    with transaction.atomic(savepoint=False):
        rows = list(kept.filter(player_id__in=differ))
        new = differ.keys() - {figures.player_id for figures in rows}
        if new:
            # A player's first card in the league (another write may make their row
            # meanwhile: then that one is moved).
            PlayerFigures.objects.bulk_create(
                [PlayerFigures(league=league, player_id=player) for player in new],
                ignore_conflicts=True,
            )
            rows += kept.filter(player_id__in=new)
        for figures in rows:
            differ[figures.player_id].apply(figures)
        PlayerFigures.objects.bulk_update(rows, FIELDS)


def from_scratch(league: League) -> dict[int, Tally]:
    """Every player's figures in `league`, worked out from their cards and holes as they
    stand (not from what was kept when the cards were scored)."""
    results = CardResult.objects.filter(
        night_table__night__season__league=league, scorecard__player__isnull=False
    )
    figures: dict[int, Tally] = defaultdict(Tally)
    sums = (
        results.values("scorecard__player_id")
        .annotate(
            played=Count("pk"),
            wins=Count("pk", filter=Q(place=1)),
            strokes=Sum("scorecard__total"),
            pairs_made=Sum("pairs"),
            pair_holes=Sum("pairs_holes"),
            strokes_rated=Sum("scorecard__total", filter=Q(rated=True), default=0),
            holes_rated=Sum("holes", filter=Q(rated=True), default=0),
        )
        .order_by()
    )
    for row in sums:
        tally_ = figures[row["scorecard__player_id"]]
        tally_.played, tally_.wins, tally_.strokes = row["played"], row["wins"], row["strokes"]
        tally_.pairs, tally_.pairs_holes = row["pairs_made"], row["pair_holes"]
        tally_.rated_strokes, tally_.rated_holes = row["strokes_rated"], row["holes_rated"]
    holes = (
        ScorecardHole.objects.filter(scorecard__league_result__in=results, number__lte=HOLES)
        .values_list("scorecard__player_id", "strokes")
        .annotate(holes=Count("pk"))
        .order_by()
    )
    for player, strokes, count in holes:
        figures[player].spread[strokes] += count
    return figures


def rebuild(league: League) -> int:
    """Set every player's figures in `league` to `from_scratch`; how many differed."""
    expected = {player: figures.as_stored() for player, figures in from_scratch(league).items()}
    stored = {
        row.player_id: tuple(getattr(row, name) for name in FIELDS)
        for row in PlayerFigures.objects.filter(league=league)
    }
    # A row of no card (all of a player's cards gone) is right as all nothing.
    nothing = Tally().as_stored()
    differed = sum(
        1
        for player in stored.keys() | expected.keys()
        if stored.get(player, nothing) != expected.get(player, nothing)
    )
    if differed:
        PlayerFigures.objects.filter(league=league).delete()
        PlayerFigures.objects.bulk_create(
            PlayerFigures(league=league, player_id=player, **dict(zip(FIELDS, kept, strict=True)))
            for player, kept in expected.items()
        )
    return differed

"""Writes of a league's stored figures: each person's card at a finished night table
scored as the league scores it (`CardResult`), kept by the writes that change them.

A result entered, reported or finished live, a correction and a substitute named score
one table again (a night scored by matchpoints: the whole night, whose tables are
compared); a change of the league's rules scores its open seasons again. The work is
one table's or one night's, whatever the league's history. `rebuild_figures` scores a
league again from scratch, night by night, and says what it changed: the repair tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import Count, F, Q

from games.engine import scoring_pairs
from games.engine.match import HOLES
from games.models import Hole, Scorecard, Table

from ..attendance.selectors import credited_to, rated_cards
from ..bounds import MAX_SEASON_POINTS
from ..duplicate.matchpoints import counts_by_matchpoints
from ..handicaps.services import freeze
from ..models import League, LeagueNight, NightTable
from . import figures
from .models import CardResult
from .scoring import Scoring


def score_table(night_table: NightTable) -> None:
    """Score `night_table`'s cards again, and on a night scored by matchpoints every
    table of its night (their points are worked out together)."""
    night = night_table.night
    league = night.season.league
    if counts_by_matchpoints(league, night):
        score_night(night)
    else:
        _score(league, night, [night_table])


def score_night(night: LeagueNight) -> None:
    """Score every table of `night` again."""
    _score(night.season.league, night, list(night.tables.all()))


def score_open_seasons(league: League) -> None:
    """Score every night of the league's open seasons again (its rules changed): a
    closed season keeps the figures it closed with."""
    nights = LeagueNight.objects.filter(season__league=league, season__closed_at__isnull=True)
    for night in nights.select_related("season__league").order_by("date", "pk"):
        score_night(night)


def _cards(tables: Sequence[NightTable]) -> list[Scorecard]:
    return list(
        Scorecard.objects.filter(
            table__night_table__in=[t.pk for t in tables],
            table__status=Table.Status.FINISHED,
            player__isnull=False,
        )
        .annotate(
            night_id=F("table__night_table__night_id"),
            night_table_id=F("table__night_table__pk"),
            table_kind=F("table__kind"),
            regulation_holes=Count("holes", filter=Q(holes__number__lte=HOLES)),
        )
        .order_by("table_id", "position")
    )


def pairs_made(cards: Sequence[Scorecard]) -> dict[int, tuple[int, int]]:
    """Per card at a live table (`_cards`): the pairs it scored on the regulation holes
    whose final layouts are known, and how many such holes. One query, none without a
    live card (a paper table keeps no layouts)."""
    by_table: dict[int, list[Scorecard]] = {}
    for card in cards:
        if card.table_kind == Table.Kind.LIVE:
            by_table.setdefault(card.table_id, []).append(card)
    made = {card.pk: (0, 0) for cards in by_table.values() for card in cards}
    if not by_table:
        return made
    holes = Hole.objects.filter(table_id__in=by_table, number__lte=HOLES)
    for table_id, seats, state in holes.values_list("table_id", "seat_positions", "state"):
        state = state or {}
        if state.get("phase") != "over" or "layouts" not in state:
            continue
        for card in by_table[table_id]:
            if card.position not in seats:
                continue
            try:
                pairs = len(
                    scoring_pairs(state["variant"], state["layouts"][seats.index(card.position)])
                )
            except (KeyError, ValueError):
                continue
            made[card.pk] = (made[card.pk][0] + pairs, made[card.pk][1] + 1)
    return made


def _score(league: League, night: LeagueNight, tables: Iterable[NightTable]) -> None:
    tables = list(tables)
    cards = _cards(tables)
    old = CardResult.objects.filter(night_table__in=[t.pk for t in tables])
    # Scored while the old figures are kept, and the players' figures agree with them.
    written = _results(league, night, cards) if cards else []
    taken = figures.contributions(old)
    old.delete()
    CardResult.objects.bulk_create(written)
    added = [
        (card.player_id, *(getattr(result, name) for name in figures.CONTRIBUTION[1:]))
        for card, result in zip(cards, written, strict=True)
    ]
    figures.move(league, taken, added)


def _results(league: League, night: LeagueNight, cards: Sequence[Scorecard]) -> list[CardResult]:
    """The stored figures of `cards`, as the league scores them."""
    credit = credited_to(league, cards)
    rated = rated_cards(league, cards, credit)
    # Every card's player plays off the night's handicap: frozen when seated, or now.
    handicaps = freeze(night, {card.player_id for card in cards})
    scoring = Scoring(
        league,
        cards,
        [night] if counts_by_matchpoints(league, night) else [],
        night_handicaps={night.pk: handicaps},
    )
    pairs = pairs_made(cards)
    spreads = figures.card_spreads(card.pk for card in cards)
    return [
        CardResult(
            scorecard=card,
            night_table_id=card.night_table_id,
            counts_for_id=credit[card.pk],
            rated=card.pk in rated,
            holes=card.regulation_holes,
            handicap_numerator=handicap.numerator,
            handicap_denominator=handicap.denominator,
            place=scoring.place(card),
            points=_kept(scoring.points(card)),
            pairs=pairs.get(card.pk, (0, 0))[0],
            pairs_holes=pairs.get(card.pk, (0, 0))[1],
            strokes=card.total,
            spread=spreads.get(card.pk, {}),
        )
        for card in cards
        for handicap in [scoring.handicap(card)]
    ]


def _kept(points: int) -> int:
    """Points as a stored figure holds them: a league's points saved before they were
    bound can exceed any column; past the season's bound they are refused at its close
    all the same (`bounds.check_season_points`)."""
    return max(-MAX_SEASON_POINTS - 1, min(points, MAX_SEASON_POINTS + 1))


@dataclass(frozen=True)
class Repair:
    """What `rebuild_figures` changed: cards whose stored figures differed, added or gone,
    and players whose figures over their cards differed."""

    changed: int
    added: int
    removed: int
    players: int = 0

    def __str__(self) -> str:
        if not (self.changed or self.added or self.removed or self.players):
            return "every stored figure was right"
        said = f"{self.changed} card(s) scored differently"
        said += f", {self.added} added, {self.removed} removed"
        return said + (f"; {self.players} player(s)' figures differed" if self.players else "")


_COMPARED = (
    "counts_for_id",
    "rated",
    "holes",
    "handicap_numerator",
    "handicap_denominator",
    "place",
    "points",
    "pairs",
    "pairs_holes",
    "strokes",
    "spread",
)


def _snapshot(league: League) -> dict[int, tuple]:
    return {
        row[0]: row[1:]
        for row in CardResult.objects.filter(night_table__night__season__league=league).values_list(
            "scorecard_id", *_COMPARED
        )
    }


def rebuild_figures(*, league: League) -> Repair:
    """Score every night of the league again from scratch, oldest first (a handicap not
    frozen yet is worked out from the nights before), and say what changed. A closed
    season's standings stay as they were frozen."""
    before = _snapshot(league)
    for night in LeagueNight.objects.filter(season__league=league).order_by("date", "pk"):
        score_night(night)
    after = _snapshot(league)
    # Scoring again moved each player's figures by what their cards' figures changed:
    # they differ from their cards now only if they had drifted from them.
    players = figures.rebuild(league)
    return Repair(
        changed=sum(1 for pk in before.keys() & after.keys() if before[pk] != after[pk]),
        added=len(after.keys() - before.keys()),
        removed=len(before.keys() - after.keys()),
        players=players,
    )

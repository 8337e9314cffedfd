"""Scorecards: one card per seat of a match, strokes per hole, total and place.

Live tables write a hole's strokes here when the hole ends; paper league tables
write all their holes at once, after `check_paper_scores` has found nothing wrong.
Totals and places are always recomputed from the holes (by the engine's match
rules), never typed in.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.engine import Variant, get_variant, hole_score_range, with_house_rules
from games.engine.match import HOLES, MatchStatus, match_status

from .models import Scorecard, ScorecardHole, Seat, Table, hole_name, results_recorded


def open_scorecards(*, table: Table) -> list[Scorecard]:
    """Make sure every seat of `table` has its (empty) card, named as the seat is. In
    three queries however many seats (an event's round opens a dozen tables at once):
    its callers hold the table's row, or made the table."""
    seats = list(table.seats.select_related("player").order_by("position"))
    held = {card.position: card for card in Scorecard.objects.filter(table=table)}
    cards, new, renamed = [], [], []
    for seat in seats:
        player, name = seat.player, seat.name[:60]
        card = held.get(seat.position)
        if card is None:
            card = Scorecard(table=table, position=seat.position, player=player, name=name)
            new.append(card)
        elif card.player_id != (player.pk if player else None) or card.name != name:
            card.player, card.name = player, name
            renamed.append(card)
        cards.append(card)
    Scorecard.objects.bulk_create(new)
    Scorecard.objects.bulk_update(renamed, ["player", "name"])
    return cards


@dataclass(frozen=True)
class Row:
    """One card's line on a scorecard: its strokes by hole, None where none were taken."""

    card: Scorecard
    strokes: list[int | None]


@dataclass(frozen=True)
class Grid:
    """A table's scorecards: its cards by seat position with their strokes by hole.

    The one scorecard type: the live table, the replay, league pages and CSV print it;
    the writer scores a hole's end on it (`scored`), and so does every other process
    following the same hole's end on its copy.
    """

    cards: tuple[Scorecard, ...]
    #: Strokes by hole number, then seat position.
    played: dict[int, dict[int, int]]

    @classmethod
    def of(cls, cards: Sequence[Scorecard]) -> Grid:
        """The grid of `cards` (one table's, their holes prefetched)."""
        cards = sorted(cards, key=lambda card: card.position)
        played: dict[int, dict[int, int]] = {}
        for card in cards:
            for hole in card.holes.all():
                played.setdefault(hole.number, {})[card.position] = hole.strokes
        return cls(tuple(cards), played)

    @classmethod
    def from_rows(cls, rows: Sequence[tuple[Scorecard, int | None, int | None]]) -> Grid:
        """The grid of a table's cards as `store.read_table` reads them."""
        cards: dict[int, Scorecard] = {}
        played: dict[int, dict[int, int]] = {}
        for card, number, strokes in rows:
            cards[card.position] = card
            if number is not None:
                played.setdefault(number, {})[card.position] = strokes
        return cls(tuple(cards[p] for p in sorted(cards)), played)

    @classmethod
    def read(cls, table: Table | int) -> Grid:
        """The grid of `table` (or of the table with that id), in two queries."""
        table_id = getattr(table, "pk", table)
        cards = Scorecard.objects.filter(table_id=table_id).prefetch_related("holes")
        return cls.of(list(cards))

    @property
    def numbers(self) -> list[int]:
        """The holes a card prints: the nine, and any playoff hole played."""
        return list(range(1, max(HOLES, max(self.played, default=0)) + 1))

    @property
    def rows(self) -> list[Row]:
        numbers = self.numbers
        return [
            Row(card, [self.played.get(n, {}).get(card.position) for n in numbers])
            for card in self.cards
        ]

    def by_hole(self) -> list[list[int | None]]:
        """Strokes by hole played, then seat position; None where a seat sat out."""
        return [
            [self.played[n].get(card.position) for card in self.cards] for n in sorted(self.played)
        ]

    def status(self) -> MatchStatus:
        """The match so far: totals, places and what comes next."""
        return match_status(self.by_hole(), len(self.cards))

    def scored(self, number: int, strokes: dict[int, int]) -> Grid:
        """This grid with hole `number`'s `strokes` (by seat position) and the totals and
        places (once the match is over) they make."""
        positions = {card.position for card in self.cards}
        played = {**self.played, number: {p: v for p, v in strokes.items() if p in positions}}
        status = match_status(
            [[played[n].get(card.position) for card in self.cards] for n in sorted(played)],
            len(self.cards),
        )
        cards = []
        for column, card in enumerate(self.cards):
            after = (status.totals[column], status.places[column] if status.over else None)
            if after != (card.total, card.place):
                card = copy.copy(card)
                card.total, card.place = after
            cards.append(card)
        return Grid(tuple(cards), played)

    def changes(self, before: Grid, number: int) -> tuple[list, list]:
        """What writes this grid over `before`, which lacks hole `number`'s strokes:
        (card id, number, strokes) rows and the (card id, total, place) of the cards
        whose results changed."""
        ids = {card.position: card.pk for card in self.cards}
        holes = [(ids[p], number, value) for p, value in self.played.get(number, {}).items()]
        results = [
            (card.pk, card.total, card.place)
            for card, old in zip(self.cards, before.cards, strict=True)
            if (card.total, card.place) != (old.total, old.place)
        ]
        return holes, results


def hole_scores(table: Table) -> list[list[int | None]]:
    """Strokes by hole then seat position; None where a seat did not play a hole."""
    return Grid.read(table).by_hole()


@transaction.atomic(savepoint=False)
@transaction.atomic(savepoint=False)
def refresh_results(*, table: Table) -> MatchStatus:
    """Recompute every card's total and place of `table` from its holes."""
    grid = Grid.read(table)
    status = grid.status()
    changed = []
    for card in grid.cards:
        total = status.totals[card.position]
        place = status.places[card.position] if status.over else None
        if (card.total, card.place) != (total, place):
            card.total, card.place = total, place
            changed.append(card)
    Scorecard.objects.bulk_update(changed, ["total", "place"])
    return status


# --- Paper matches --------------------------------------------------------------------


@dataclass(frozen=True)
class ScoreProblem:
    """One thing wrong with entered scores: where (hole number, seat position) and what."""

    message: str
    hole: int | None = None
    position: int | None = None


class PaperScoreError(ValueError):
    """Entered scores break a rule; `problems` says each one, for the form to show."""

    def __init__(self, problems: Sequence[ScoreProblem]):
        self.problems = list(problems)
        super().__init__(" ".join(problem.message for problem in self.problems))


def check_paper_scores(
    variant: str | Variant, hole_scores: Sequence[Sequence[object]], names: Sequence[str]
) -> MatchStatus:
    """The finished match's status, or `PaperScoreError` listing every problem.

    `hole_scores` holds one list per hole (the nine regulation holes, then playoff
    holes) with one entry per seat: strokes as an int, or None where a seat did not
    play. Every seat plays the nine holes; a playoff hole follows only a tie for the
    lowest total and only the tied players' strokes are entered on it; each score
    must be one the variant's layout can make; and the match must end with a winner.
    """
    players = len(names)
    low, high = hole_score_range(variant)
    game = get_variant(variant).name
    problems: list[ScoreProblem] = []
    if len(hole_scores) < HOLES:
        problems.append(
            ScoreProblem(f"A match has {HOLES} holes; {len(hole_scores)} were entered.")
        )
    for index, scores in enumerate(hole_scores):
        number = index + 1
        if len(scores) != players:
            problems.append(
                ScoreProblem(f"{hole_name(number)} needs one entry per player.", number)
            )
            continue
        for position, strokes in enumerate(scores):
            if strokes is None:
                if number <= HOLES:
                    problems.append(
                        ScoreProblem(
                            f"{hole_name(number)}: enter strokes for {names[position]}.",
                            number,
                            position,
                        )
                    )
            elif type(strokes) is not int:
                problems.append(
                    ScoreProblem(
                        f"{hole_name(number)}: strokes for {names[position]} "
                        "must be a whole number.",
                        number,
                        position,
                    )
                )
            elif not low <= strokes <= high:
                problems.append(
                    ScoreProblem(
                        f"{hole_name(number)}: {strokes} is not a {game} score "
                        f"(a hole scores {low} to {high}).",
                        number,
                        position,
                    )
                )
    if problems:
        raise PaperScoreError(problems)

    for index in range(HOLES, len(hole_scores)):
        number = index + 1
        before = match_status(hole_scores[:index], players)
        if before.over:
            raise PaperScoreError(
                [
                    ScoreProblem(
                        f"{hole_name(number)} was entered, but the match was decided after "
                        f"{hole_name(index).lower()}: a playoff is played only on a tie for "
                        "the lowest total.",
                        number,
                    )
                ]
            )
        outsiders = [
            position
            for position, strokes in enumerate(hole_scores[index])
            if strokes is not None and position not in before.contenders
        ]
        missing = [p for p in before.contenders if hole_scores[index][p] is None]
        tied = " and ".join(names[p] for p in before.contenders)
        problems = [
            ScoreProblem(
                f"{hole_name(number)}: only the tied players ({tied}) play the playoff.",
                number,
                position,
            )
            for position in outsiders
        ] + [
            ScoreProblem(f"{hole_name(number)}: enter strokes for {names[p]}.", number, p)
            for p in missing
        ]
        if problems:
            raise PaperScoreError(problems)

    status = match_status(hole_scores, players)
    if not status.over:
        tied = " and ".join(names[p] for p in status.contenders)
        raise PaperScoreError(
            [
                ScoreProblem(
                    f"{tied} are tied after {hole_name(len(hole_scores)).lower()}: "
                    f"enter a playoff hole between them."
                )
            ]
        )
    return status


@transaction.atomic
def open_paper_table(
    *,
    variant: str,
    players: Sequence,
    host=None,
    deal_seed: int | None = None,
    house_rules: Sequence[str] = (),
) -> Table:
    """A table played with a physical deck: its seats (players in order) and empty cards."""
    rules = with_house_rules(variant, house_rules)
    if not rules.min_players <= len(players) <= rules.max_players:
        raise ValueError(f"{rules.name} is for {rules.min_players} to {rules.max_players} players.")
    fields = {"deal_seed": deal_seed} if deal_seed is not None else {}
    table = Table.objects.create(
        variant=variant,
        house_rules=list(rules.house_rule_keys),
        kind=Table.Kind.PAPER,
        status=Table.Status.PLAYING,
        host=host,
        seat_count=len(players),
        is_public=False,
        started_at=timezone.now(),
        **fields,
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, player=player)
        for position, player in enumerate(players)
    )
    # A new table has no cards yet: each seat's is made in one insert, named as
    # `open_scorecards` names it.
    Scorecard.objects.bulk_create(
        Scorecard(table=table, position=position, player=player, name=player.name[:60])
        for position, player in enumerate(players)
    )
    return table


@transaction.atomic
def record_paper_results(*, table: Table, hole_scores: Sequence[Sequence[object]]) -> MatchStatus:
    """Write every hole of a paper table at once and finish it; nothing on error.

    Results are entered once: a change afterwards is a correction (`correct_hole`).
    """
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if locked.kind != Table.Kind.PAPER:
        raise ValueError("Only a table played with a physical deck takes paper results.")
    if locked.status == Table.Status.FINISHED:
        raise ValueError("This table's results are in; change a hole with a correction.")
    cards = open_scorecards(table=table)
    check_paper_scores(table.rules, hole_scores, [card.name for card in cards])
    ScorecardHole.objects.filter(scorecard__table=table).delete()
    ScorecardHole.objects.bulk_create(
        ScorecardHole(scorecard=cards[position], number=index + 1, strokes=strokes)
        for index, scores in enumerate(hole_scores)
        for position, strokes in enumerate(scores)
        if strokes is not None
    )
    status = refresh_results(table=table)
    table.status = Table.Status.FINISHED
    table.finished_at = timezone.now()
    table.save(update_fields=["status", "finished_at"])
    results_recorded.send(sender=Table, table=table)
    return status


@transaction.atomic
def correct_hole(*, scorecard: Scorecard, number: int, strokes: int) -> int:
    """Change the strokes of one recorded hole and refresh the match; the old value back.

    The whole match must still follow the rules afterwards (`check_paper_scores`), so a
    correction that would leave a tie without a playoff, or a playoff without a tie,
    is refused and nothing changes.
    """
    hole = ScorecardHole.objects.select_for_update().get(scorecard=scorecard, number=number)
    old = hole.strokes
    hole.strokes = strokes
    hole.save(update_fields=["strokes"])
    table = scorecard.table
    names = list(table.scorecards.order_by("position").values_list("name", flat=True))
    if table.status == Table.Status.FINISHED:
        check_paper_scores(table.rules, hole_scores(table), names)
    else:
        low, high = hole_score_range(table.rules)
        if not low <= strokes <= high:
            raise PaperScoreError([ScoreProblem(f"A hole scores {low} to {high}.", number)])
    refresh_results(table=table)
    if table.status == Table.Status.FINISHED:
        results_recorded.send(sender=Table, table=table)
    return old

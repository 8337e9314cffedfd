"""Writes of results: a paper table's holes entered by an organiser, and a score corrected with
the old value, who, when and why (organisers only, while the season is open). Each
scores the table as the league scores it (its stored figures) and rates its match,
as games tells the leagues of the write (`leagues.signals`), and once committed tells
the night's boards.

Scorecards themselves are written through `games.scorecards` and `games.services`,
except that a correction takes playoff holes it made unnecessary off the cards
(`correct_score`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import get_text_list

from games import lobby, scorecards
from games.models import Scorecard, ScorecardHole, Table, hole_name

from ..guards import require_open, require_organiser
from ..models import NightTable, Player, ScoreCorrection
from ..news import send_night_changed
from . import selectors


@transaction.atomic
def enter_night_results(
    *, night_table: NightTable, hole_scores: Sequence[Sequence[object]], by: Player
) -> None:
    """Record a paper table's holes (validated by the match rules) and rerate."""
    require_organiser(by, night_table.night.season.league.club)
    record_paper_results(night_table=night_table, hole_scores=hole_scores)


@transaction.atomic
def record_paper_results(
    *, night_table: NightTable, hole_scores: Sequence[Sequence[object]]
) -> None:
    """What the organiser's entry writes, for whoever the caller has let enter it: the
    table's holes on its scorecards (checked by the match rules), the table finished and
    the league rerated. A paper table's own players reach it through their report
    (`leagues.reporting.services`), once every hole is confirmed."""
    require_open(night_table.night.season)
    # Its cards are scored and its match rated as games says they are written
    # (`leagues.signals.score_recorded_results`).
    scorecards.record_paper_results(table=night_table.table, hole_scores=hole_scores)
    send_night_changed(night_table.night_id)


@dataclass(frozen=True)
class Correction:
    """What a correction recorded: the changed hole, and any playoff holes it removed."""

    changed: ScoreCorrection
    removed: list[ScoreCorrection]

    @property
    def removed_holes(self) -> list[str]:
        """The names of the removed playoff holes, in order."""
        return [hole_name(n) for n in sorted({c.hole_number for c in self.removed})]


@transaction.atomic
def correct_score(
    *,
    scorecard: Scorecard,
    number: int,
    strokes: int,
    reason: str,
    by: Player,
    remove_playoffs: bool = False,
) -> Correction:
    """Change one hole of a league scorecard, keeping the old value, who, when and why.

    A correction may decide a finished match before its playoff did (a tie after nine
    holes is no longer one): its playoff holes are then no longer needed. They are
    removed only with `remove_playoffs`, each with its own record in the log; without
    it the correction is refused, saying so. A correction that keeps the playoff
    needed leaves it as it is. The table is scored again, so standings follow at once,
    and its match and those after it are rated again.
    """
    night_table = NightTable.objects.select_related("night__season__league__club").get(
        table=scorecard.table
    )
    require_organiser(by, night_table.night.season.league.club)
    return record_correction(
        scorecard=scorecard,
        number=number,
        strokes=strokes,
        reason=reason,
        by=by,
        remove_playoffs=remove_playoffs,
    )


#: The code of the error `record_correction` raises when a correction decides a match
#: before its playoff and the caller did not ask to remove the playoff.
PLAYOFFS_UNNEEDED = "playoffs_unneeded"


@transaction.atomic
def record_correction(
    *,
    scorecard: Scorecard,
    number: int,
    strokes: int,
    reason: str,
    by: Player,
    remove_playoffs: bool = False,
) -> Correction:
    """`correct_score` for whoever the caller has let change the hole: a paper table's
    players agreeing on a change to a hole they had confirmed (`leagues.reporting`)."""
    night_table = NightTable.objects.select_related("night__season__league__club").get(
        table=scorecard.table
    )
    league_id = night_table.night.season.league_id
    require_open(night_table.night.season)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say why the score changes."})
    table = Table.objects.select_for_update().get(pk=scorecard.table_id)
    after = selectors.corrected_match(scorecard, number, strokes)
    removed = []
    if after.unneeded:
        # Anything else wrong with the corrected match is named first.
        scorecards.check_paper_scores(table.rules, after.scores, after.names)
        holes = [hole_name(n) for n in after.unneeded]
        if not remove_playoffs:
            decided = hole_name(after.decided_after).lower()
            one = len(holes) == 1
            listed = get_text_list(holes, "and")
            raise ValidationError(
                {
                    "remove_playoffs": ValidationError(
                        f"With this correction the match is decided after {decided}, so "
                        f"{listed} {'is' if one else 'are'} no longer "
                        f"needed: tick the box to remove {'it' if one else 'them'}.",
                        # For callers without the box to word it their own way.
                        code=PLAYOFFS_UNNEEDED,
                        params={"decided": decided, "holes": listed, "one": one},
                    )
                }
            )
        why = (
            f"No longer needed once {scorecard.name}'s "
            f"{hole_name(number).lower()} was corrected: {reason}"
        )
        unneeded = ScorecardHole.objects.filter(
            scorecard__table=table, number__in=after.unneeded
        ).order_by("number", "scorecard__position")
        removed = [
            ScoreCorrection(
                scorecard_id=hole.scorecard_id,
                league_id=league_id,
                hole_number=hole.number,
                old_strokes=hole.strokes,
                new_strokes=None,
                reason=why,
                corrected_by=by,
            )
            for hole in unneeded
        ]
        # games has no door for taking holes off a card; correct_scorecard below
        # recomputes the totals and places and checks the match that is left.
        unneeded.delete()
    old = lobby.correct_scorecard(scorecard=scorecard, number=number, strokes=strokes)
    # Saved in this order so that the log, newest first, shows the change above the
    # playoff holes it removed.
    for record in removed:
        record.save()
    changed = ScoreCorrection.objects.create(
        scorecard=scorecard,
        league_id=league_id,
        hole_number=number,
        old_strokes=old,
        new_strokes=strokes,
        reason=reason,
        corrected_by=by,
    )
    send_night_changed(night_table.night_id)
    return Correction(changed=changed, removed=removed)

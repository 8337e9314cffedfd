"""Writes of table reports: a hole entered, confirmed, disputed or settled (a paper
table's code is made as it is seated, `codes`).

Every write holds the report's row, then reads the hole, so that two phones writing
the same hole one after the other (on any process) meet: a write carries the version
of the hole it was made on, and one made on an older version is refused with the newer
hole (`HoleConflict`), never applied over it. A hole is checked by the results form's
own rules (`games.scorecards.check_paper_scores`) and nothing changes when it fails.

Confirmed holes count as the organiser's entry does: once every hole of the match is
confirmed they are written through `results.services.record_paper_results`, the
function the organiser's results form writes through, and a later change to a hole
once confirmed is a correction (`results.services.record_correction` once the table
has results, a `ScoreCorrection` before).
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from games import announce
from games.engine.match import HOLES
from games.models import Scorecard, ScorecardHole, Table, hole_name
from games.scorecards import PaperScoreError, ScoreProblem, check_paper_scores

from ..guards import require_open, require_organiser
from ..models import (
    NightTable,
    Player,
    ReportedHole,
    ReportEntry,
    ScoreCorrection,
    TableReport,
)
from ..news import send_night_changed
from ..results import services as results
from . import selectors

KEY_REUSED = (
    "This entry's key was sent before with other figures: nothing is recorded. "
    "Look at the hole again, then enter it."
)
NOT_SEATED = "Only the players seated at this table, and the league's organisers, may report it."


class HoleConflict(Exception):
    """The hole changed since the writer read it: `hole` is what it holds now."""

    def __init__(self, hole: ReportedHole):
        self.hole = hole
        super().__init__(f"{hole.name} was changed meanwhile.")


def report_group(report_id: int) -> str:
    """The channel-layer group of a table report's open pages (its players' phones)."""
    return f"table_report_{report_id}"


def _held(report: TableReport) -> tuple[TableReport, NightTable]:
    """Lock the report's row (every write of its holes passes here, one at a time) and
    refuse a closed season. Once the write commits, the table's open report pages hear
    of it at once (a write refused rolls back, and says nothing)."""
    locked = TableReport.objects.select_for_update().get(pk=report.pk)
    night_table = NightTable.objects.select_related("table", "night__season__league__club").get(
        pk=locked.night_table_id
    )
    require_open(night_table.night.season)
    announce.group_changed(report_group(locked.pk), {"type": "report.changed"})
    return locked, night_table


def _sent_before(
    report: TableReport, key: uuid.UUID | None, kind: str, number: int, sent: dict, by: Player
) -> bool:
    """Whether the entry under `key` was recorded already (a phone sending again what it
    kept while offline): then the write answers as it did and changes nothing. A key
    sent before with anything else (another hole, kind, player or figures) is refused.
    Called with the report's row held, so that two sends of one key meet here."""
    if key is None:
        return False
    found = ReportEntry.objects.filter(key=key).first()
    if found is None:
        return False
    if (found.report_id, found.kind, found.number, found.by_id, found.digest) != (
        report.pk,
        kind,
        number,
        by.pk,
        _digest(sent),
    ):
        raise ValidationError(KEY_REUSED)
    return True


def _remember(
    report: TableReport, key: uuid.UUID | None, kind: str, number: int, sent: dict, by: Player
) -> None:
    """Keep the key of an entry recorded, in the write's own transaction."""
    if key is not None:
        ReportEntry.objects.create(
            key=key, report=report, kind=kind, number=number, digest=_digest(sent), by=by
        )


def _digest(sent: dict) -> str:
    return hashlib.sha256(json.dumps(sent, sort_keys=True, default=str).encode()).hexdigest()


def _require_seated(by: Player, night_table: NightTable, *, organiser_too: bool) -> None:
    if selectors.is_seated(by, night_table.table):
        return
    if organiser_too and selectors.may_report(by, night_table):
        return
    raise PermissionDenied(NOT_SEATED)


def _hole(report: TableReport, number: int) -> ReportedHole | None:
    return ReportedHole.objects.select_for_update().filter(report=report, number=number).first()


def _entered(report: TableReport, number: int, version: int) -> ReportedHole:
    """The hole to confirm or dispute, at the version the player saw."""
    hole = _hole(report, number)
    if hole is None:
        raise ValidationError(f"Nothing is entered for {hole_name(number).lower()} yet.")
    _check_version(hole, version)
    return hole


def _check_version(hole: ReportedHole | None, version: int) -> None:
    if (hole.version if hole else 0) != version:
        if hole is None:  # entered, then taken back: nothing to show
            raise ValidationError("This hole has changed: look again.")
        raise HoleConflict(hole)


def check_hole(
    *, report: TableReport, number: int, strokes: Sequence[object], names: Sequence[str]
) -> list[int | None]:
    """`strokes` for hole `number`, as the results form checks them: its problems
    with this hole are raised (`PaperScoreError`), those of holes still to enter are not."""
    table = report.night_table.table
    if not 1 <= number <= HOLES + 20:
        raise ValidationError("There is no such hole.")
    holes = list(report.holes.exclude(number=number))
    if number > HOLES:
        missing = sorted(set(range(1, number)) - {hole.number for hole in holes})
        if missing:
            raise PaperScoreError(
                [
                    ScoreProblem(
                        f"{hole_name(number)} follows the holes before it: enter "
                        f"{hole_name(missing[0]).lower()} first.",
                        number,
                    )
                ]
            )
    grid = selectors.grid_of(holes)
    while len(grid) < number:
        grid.append([None] * len(names))
    grid[number - 1] = list(strokes)
    # Rows past this one are left out: a playoff is checked against the holes before it.
    grid = grid[: max(number, HOLES)]
    try:
        check_paper_scores(table.rules, grid, names)
    except PaperScoreError as error:
        mine = [problem for problem in error.problems if problem.hole == number]
        if mine:
            raise PaperScoreError(mine) from None
    if number > HOLES and all(value is None for value in strokes):
        raise PaperScoreError([ScoreProblem(f"{hole_name(number)}: enter the strokes.", number)])
    return list(strokes)


@transaction.atomic
def enter_hole(
    *,
    report: TableReport,
    number: int,
    strokes: Sequence[object],
    version: int,
    by: Player,
    reason: str = "",
    key: uuid.UUID | None = None,
) -> ReportedHole | None:
    """A seated player (or an organiser) enters hole `number`'s strokes, seat by seat.

    `version` is the hole's version the player saw (0 for a hole not entered yet). The
    hole then waits for another player's confirmation. A change to confirmed strokes
    needs a `reason`: it becomes a correction once confirmed. An entry whose `key` was
    recorded already changes nothing (None).
    """
    report, night_table = _held(report)
    _require_seated(by, night_table, organiser_too=True)
    sent = {"strokes": list(strokes), "version": version, "reason": reason}
    if _sent_before(report, key, ReportEntry.Kind.ENTER, number, sent, by):
        return None
    hole = _hole(report, number)
    _check_version(hole, version)
    names = [seat.name for seat in selectors.seats_of(night_table.table)]
    strokes = check_hole(report=report, number=number, strokes=strokes, names=names)
    reason = reason.strip()
    if hole is None:
        hole = ReportedHole(report=report, number=number, version=0)
    before = _counted(hole, night_table)
    if before is not None and before != strokes and not reason:
        raise ValidationError(
            {"reason": f"{hole_name(number)} was confirmed: say why its strokes change."}
        )
    hole.strokes = strokes
    hole.state = ReportedHole.State.ENTERED
    hole.entered_by = by
    hole.checked_by = None
    hole.dispute_reason = ""
    hole.change_reason = reason if before is not None and before != strokes else ""
    hole.version += 1
    hole.save()
    _remember(report, key, ReportEntry.Kind.ENTER, number, sent, by)
    return hole


def _counted(hole: ReportedHole, night_table: NightTable) -> list[int | None] | None:
    """The strokes of the hole that count now: on the scorecards once the table has
    results, else as last confirmed (None if never)."""
    if night_table.table.status == Table.Status.FINISHED:
        # Two queries whatever the seats: each card's strokes at the hole (None where it
        # has none), in seat order.
        positions = Scorecard.objects.filter(table=night_table.table).values_list(
            "position", flat=True
        )
        strokes = dict(
            ScorecardHole.objects.filter(
                scorecard__table=night_table.table, number=hole.number
            ).values_list("scorecard__position", "strokes")
        )
        return [strokes.get(p) for p in sorted(positions)]
    return hole.confirmed_strokes


@transaction.atomic
def confirm_hole(
    *, report: TableReport, number: int, version: int, by: Player, key: uuid.UUID | None = None
) -> ReportedHole | None:
    """Another player of the table confirms the hole as entered; it counts from then on.
    A confirmation whose `key` was recorded already changes nothing (None)."""
    report, night_table = _held(report)
    _require_seated(by, night_table, organiser_too=False)
    sent = {"version": version}
    if _sent_before(report, key, ReportEntry.Kind.CONFIRM, number, sent, by):
        return None
    hole = _entered(report, number, version)
    if hole.state != ReportedHole.State.ENTERED:
        raise ValidationError(f"{hole.name} is {hole.get_state_display().lower()}.")
    if hole.entered_by_id == by.pk:
        raise ValidationError("Another player of the table confirms the strokes you entered.")
    _count(hole, night_table, by=by, corrected_by=hole.entered_by or by)
    _remember(report, key, ReportEntry.Kind.CONFIRM, number, sent, by)
    return hole


@transaction.atomic
def dispute_hole(
    *,
    report: TableReport,
    number: int,
    version: int,
    by: Player,
    reason: str,
    key: uuid.UUID | None = None,
) -> ReportedHole | None:
    """Another player of the table disputes the hole, saying why; the organiser settles it
    (or the players enter it again). A dispute whose `key` was recorded already changes
    nothing (None)."""
    report, night_table = _held(report)
    _require_seated(by, night_table, organiser_too=False)
    sent = {"version": version, "reason": reason}
    if _sent_before(report, key, ReportEntry.Kind.DISPUTE, number, sent, by):
        return None
    hole = _entered(report, number, version)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say what is wrong with the strokes."})
    if hole.state != ReportedHole.State.ENTERED:
        raise ValidationError(f"{hole.name} is {hole.get_state_display().lower()}.")
    if hole.entered_by_id == by.pk:
        raise ValidationError("Enter the hole again to change the strokes you entered.")
    hole.state = ReportedHole.State.DISPUTED
    hole.checked_by = by
    hole.dispute_reason = reason
    hole.version += 1
    hole.save()
    _remember(report, key, ReportEntry.Kind.DISPUTE, number, sent, by)
    return hole


@transaction.atomic
def settle_hole(
    *,
    report: TableReport,
    number: int,
    strokes: Sequence[object],
    version: int,
    by: Player,
    reason: str = "",
    key: uuid.UUID | None = None,
) -> ReportedHole | None:
    """An organiser settles a hole (disputed, waiting, or not entered at all) with the
    strokes that stand: it counts at once. A change to strokes once confirmed needs a
    `reason`, and is a correction. A settlement whose `key` was recorded already changes
    nothing (None)."""
    report, night_table = _held(report)
    require_organiser(by, night_table.night.season.league.club)
    sent = {"strokes": list(strokes), "version": version, "reason": reason}
    if _sent_before(report, key, ReportEntry.Kind.SETTLE, number, sent, by):
        return None
    hole = _hole(report, number)
    _check_version(hole, version)
    names = [seat.name for seat in selectors.seats_of(night_table.table)]
    strokes = check_hole(report=report, number=number, strokes=strokes, names=names)
    if hole is None:
        hole = ReportedHole(report=report, number=number, version=0, entered_by=by)
    before = _counted(hole, night_table)
    reason = reason.strip()
    if before is not None and before != strokes and not reason:
        raise ValidationError(
            {"reason": f"{hole_name(number)} was confirmed: say why its strokes change."}
        )
    hole.strokes = strokes
    hole.change_reason = reason
    _count(hole, night_table, by=by, corrected_by=by)
    _remember(report, key, ReportEntry.Kind.SETTLE, number, sent, by)
    return hole


def _count(
    hole: ReportedHole, night_table: NightTable, *, by: Player, corrected_by: Player
) -> None:
    """Make the hole's strokes count: a change to counted strokes is a correction, and
    the match is written as the organiser's entry writes it once every hole is in."""
    before = _counted(hole, night_table)
    cards = list(Scorecard.objects.filter(table=night_table.table).order_by("position"))
    finished = night_table.table.status == Table.Status.FINISHED
    if before is not None and before != hole.strokes:
        reason = hole.change_reason or f"{hole.name} changed on the table's report."
        for card, old, new in zip(cards, before, hole.strokes, strict=True):
            if old == new:
                continue
            if finished and old is not None and new is not None:
                _correct(card, hole, new, reason, corrected_by)
            elif finished:
                raise ValidationError(
                    f"{hole.name}: a seat's hole cannot be added or taken off a finished "
                    "card here; ask an organiser to correct the score."
                )
            else:
                ScoreCorrection.objects.create(
                    scorecard=card,
                    league_id=night_table.night.season.league_id,
                    hole_number=hole.number,
                    old_strokes=old,
                    new_strokes=new,
                    reason=reason,
                    corrected_by=corrected_by,
                )
    hole.confirmed_strokes = hole.strokes
    hole.state = ReportedHole.State.CONFIRMED
    hole.checked_by = by
    hole.dispute_reason = ""
    hole.version += 1
    hole.save()
    send_night_changed(night_table.night_id)  # the room's boards show it
    if not finished:
        _finish_when_complete(night_table, hole.report)


def _correct(card: Scorecard, hole: ReportedHole, strokes: int, reason: str, by: Player) -> None:
    """Correct a finished card's hole from the report. A change that decides the match
    before its playoff is refused in the table's words: the report has no box to take the
    playoff off, which the organiser's correction page has."""
    try:
        results.record_correction(
            scorecard=card, number=hole.number, strokes=strokes, reason=reason, by=by
        )
    except ValidationError as error:
        fields = getattr(error, "error_dict", {})
        unneeded = next(
            (e for e in fields.get("remove_playoffs", ()) if e.code == results.PLAYOFFS_UNNEEDED),
            None,
        )
        if unneeded is None:
            raise
        found = unneeded.params
        raise ValidationError(
            f"{hole.name}: with this change the match is decided after {found['decided']}, "
            f"so {found['holes']} {'is' if found['one'] else 'are'} no longer needed. A "
            "table's report cannot take a playoff off: ask an organiser to correct the "
            "score on the table's correction page."
        ) from None


def _finish_when_complete(night_table: NightTable, report: TableReport) -> None:
    """Every hole confirmed and the match complete by the rules: the table's results
    are written through the organiser's own door."""
    holes = list(report.holes.order_by("number"))
    if any(hole.state != ReportedHole.State.CONFIRMED for hole in holes):
        return
    grid = selectors.grid_of(holes, confirmed=True)
    names = [seat.name for seat in selectors.seats_of(night_table.table)]
    try:
        check_paper_scores(night_table.table.rules, grid, names)
    except PaperScoreError:
        return  # holes still to play, or a playoff to enter
    results.record_paper_results(night_table=night_table, hole_scores=grid)

"""Who may see a paper table's report: its page and its socket ask the same."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404

from .. import deal_results
from ..models import TableReport
from ..roles import role_in
from . import selectors, services


def report_for(user, code: str) -> TableReport:
    """The report of `code` as `user` may see it (its page, or its socket): 404 for a
    code no table has or anyone outside the club, 403 for a member who is neither
    seated at the table nor an organiser."""
    report = selectors.report_by_code(code)
    if report is None:
        raise Http404("No table has that code.")
    night_table = report.night_table
    if role_in(user, night_table.night.season.league.club) is None and not (
        selectors.is_seated(user, night_table.table)
    ):
        raise Http404("No table has that code.")
    if not selectors.may_report(user, night_table):
        raise PermissionDenied(services.NOT_SEATED)
    if deal_results.hides_any(night_table.table, user):
        raise PermissionDenied(
            "You are seated at a table still playing these deals: ask another organiser "
            "to settle this one."
        )
    return report

"""CSV downloads that open safely in a spreadsheet.

A spreadsheet reads a cell that starts with `=`, `+`, `-` or `@` (or a tab or a
carriage return before one) as a formula, so a player who names themselves
`=HYPERLINK(...)` could run it on the organiser's machine. Such text cells get a
leading single quote, which spreadsheets show as plain text; numbers stay numbers.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable

from django.http import HttpResponse

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def safe_cell(value: object) -> object:
    """`value` as a CSV cell that no spreadsheet takes for a formula."""
    if (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not _PLAIN_NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


class SafeWriter:
    """A `csv.writer` whose every cell goes through `safe_cell`."""

    def __init__(self, stream) -> None:
        self._writer = csv.writer(stream)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([safe_cell(value) for value in row])


def csv_response(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """An attachment named `filename` and the writer that fills it."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeWriter(response)

"""A club's roster as a spreadsheet exports it: a CSV file of names and email addresses,
read into rows to invite and rows refused, each with its reason. Pure: no records.

What it takes: commas or semicolons (Excel writes semicolons where a comma is the
decimal mark), UTF-8 with or without a byte order mark, quoted fields, and a header row
naming the columns ("Name", "E-mail address", "First name" and "Last name" ...) or none
(then a row is a name and an address, in either order: the address is the cell that
is one, the second when both are). What it refuses, whole: a file
over `MAX_BYTES`, one that is not UTF-8 text, one of more than `MAX_ROWS` rows. What it
refuses by row: an address Django's `EmailValidator` refuses, a name too long, the same
address twice, and a cell that starts as a spreadsheet formula does (=, +, -, @): such a
row is refused, not neutralised, so that no one is invited under a name nobody typed.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.core.validators import validate_email

#: The largest file read: a roster of `MAX_ROWS` rows fits many times over.
MAX_BYTES = 1_000_000
#: The most rows read.
MAX_ROWS = 2_000
#: A name's longest (the invitation's field).
MAX_NAME = 80
#: What a spreadsheet runs as a formula at the start of a cell.
FORMULA_STARTS = ("=", "+", "-", "@")

_EMAIL_HEADERS = {"email", "e-mail", "mail", "email address", "e-mail address", "emailaddress"}
_NAME_HEADERS = {"name", "full name", "fullname", "player", "member", "display name"}
_FIRST_HEADERS = {"first name", "firstname", "given name", "forename"}
_LAST_HEADERS = {"last name", "lastname", "surname", "family name"}


class RosterRefused(Exception):
    """The whole file is refused; the message says why, in words for the organiser."""


@dataclass(frozen=True)
class Row:
    """A row of the roster: its line in the file, the name and address it gives, and why
    it is refused (empty for a row to invite)."""

    line: int
    name: str
    email: str
    problem: str = ""


def _text(data: bytes) -> str:
    if len(data) > MAX_BYTES:
        raise RosterRefused(
            f"The file is {len(data) / 1_000_000:.1f} MB: a roster may be {MAX_BYTES // 1000} kB"
            " at most. Save the names and addresses alone as CSV."
        )
    if b"\x00" in data:
        raise RosterRefused("This is not a CSV file: save the roster as CSV (UTF-8) and try again.")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RosterRefused(
            'This file is not UTF-8 text: save the roster as "CSV UTF-8" and try again.'
        ) from error


def _delimiter(text: str) -> str:
    """Commas or semicolons: the one whose reading of the first lines finds an address
    (or a header naming one) on more of them; the more frequent one on a tie."""
    head = [line for line in text.splitlines()[:10] if line.strip()]

    def score(delimiter: str) -> tuple[int, int]:
        rows = list(csv.reader(head, delimiter=delimiter))
        found = sum(
            1
            for cells in rows
            if any(_is_email(c.strip()) or _key(c) in _EMAIL_HEADERS for c in cells)
        )
        return found, sum(len(cells) for cells in rows)

    try:
        return max((",", ";"), key=score)
    except csv.Error:
        return ","


def _key(cell: str) -> str:
    return " ".join(cell.strip().lower().replace("_", " ").split())


def _columns(header: list[str]) -> dict[str, int] | None:
    """Where the name and the address are, when `header` names them; else None."""
    keys = [_key(cell) for cell in header]
    found: dict[str, int] = {}
    for index, key in enumerate(keys):
        for part, names in (
            ("email", _EMAIL_HEADERS),
            ("name", _NAME_HEADERS),
            ("first", _FIRST_HEADERS),
            ("last", _LAST_HEADERS),
        ):
            if key in names and part not in found:
                found[part] = index
    return found if "email" in found else None


def _name_and_email(cells: list[str], columns: dict[str, int] | None) -> tuple[str, str]:
    def cell(index: int | None) -> str:
        return cells[index].strip() if index is not None and index < len(cells) else ""

    if columns is not None:
        name = cell(columns.get("name"))
        if not name:
            name = " ".join(
                part for part in (cell(columns.get("first")), cell(columns.get("last"))) if part
            )
        return name, cell(columns["email"])
    cells = [c.strip() for c in cells]
    # The second cell, as "name, address" rows have it, unless another is the address.
    order = [1, *(i for i in range(len(cells)) if i != 1)] if len(cells) > 1 else [0]
    at = next((i for i in order if _is_email(cells[i])), None)
    if at is None:
        at = next((i for i in order if "@" in cells[i]), order[0] if len(cells) > 1 else None)
    rest = [c for i, c in enumerate(cells) if i != at and c]
    return (rest[0] if rest else ""), cell(at)


def _is_email(text: str) -> bool:
    try:
        validate_email(text)
    except ValidationError:
        return False
    return True


def _problem(name: str, email: str, seen: dict[str, int]) -> str:
    for what, value in (("name", name), ("address", email)):
        if value.startswith(FORMULA_STARTS):
            return (
                f"The {what} starts with {value[0]!r}, as a spreadsheet formula does: "
                "the row is refused, not changed."
            )
    if not email:
        return "No email address."
    if not _is_email(email):
        return f"{email!r} is not an email address this site can mail."
    if len(name) > MAX_NAME:
        return f"The name is longer than {MAX_NAME} characters."
    if any(ord(ch) < 32 for ch in name):
        return "The name holds a control character."
    first = seen.get(email.casefold())
    if first is not None:
        return f"The same address as line {first}."
    return ""


def read_roster(data: bytes) -> list[Row]:
    """The roster's rows, each to invite or refused with its reason; blank rows left out.

    Raises `RosterRefused` for a file refused whole.
    """
    text = _text(data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    rows: list[Row] = []
    seen: dict[str, int] = {}
    columns: dict[str, int] | None = None
    try:
        for index, cells in enumerate(reader):
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if index == 0:
                columns = _columns(cells)
                if columns is not None:
                    continue
            if len(rows) >= MAX_ROWS:
                raise RosterRefused(
                    f"The file has more than {MAX_ROWS:,} rows: import the roster in parts."
                )
            name, email = _name_and_email(cells, columns)
            problem = _problem(name, email, seen)
            if not problem:
                seen[email.casefold()] = line
            rows.append(Row(line=line, name=name, email=email, problem=problem))
    except csv.Error as error:
        raise RosterRefused(f"The file is not CSV as a spreadsheet writes it: {error}.") from error
    if not rows:
        raise RosterRefused("The file holds no names and addresses.")
    return rows

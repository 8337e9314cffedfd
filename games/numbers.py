"""The one reading of a number a request carries (a query parameter, a form's value, a
socket frame's field) outside a form's own number field.

Only plain digits 0-9 count: `str.isdigit()` passes "²", which `int()` refuses, and
`int()` reads "３", "٣", " 3", "+3" and "3_0" as numbers the page never offered.
"""

from __future__ import annotations

#: Digits enough for any count or id a page offers, and few enough to bound the work.
MAX_DIGITS = 9


def whole_number(value: object, *, digits: int = MAX_DIGITS) -> int | None:
    """`value` as a whole number when it is a string of 1 to `digits` plain digits (or
    already an int, as a JSON frame's number is), else None: the caller answers with its
    own message."""
    if type(value) is int:
        return value
    if isinstance(value, str) and 0 < len(value) <= digits and value.isascii():
        return int(value) if value.isdecimal() else None
    return None

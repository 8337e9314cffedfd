"""A paper table's short code, made as the table is seated: the card page and the
report page then only read it.

Seating calls it, so it sits below reporting's other writes, among the writes that
seating may call.
"""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from games.models import Table

from ..models import NightTable, TableReport
from .selectors import CODE_ALPHABET, CODE_LENGTH


def new_code() -> str:
    """A fresh code of unmistakable characters (not yet checked against the others)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def give_code(*, night_table: NightTable) -> TableReport:
    """The paper table's report with its short code: made now, or the one it has."""
    if night_table.table.kind != Table.Kind.PAPER:
        raise ValidationError("Only a table played with a physical deck reports itself.")
    existing = TableReport.objects.filter(night_table=night_table).first()
    if existing is not None:
        return existing
    for _ in range(10):
        try:
            with transaction.atomic():
                return TableReport.objects.create(night_table=night_table, code=new_code())
        except IntegrityError:  # the code is taken: draw again
            continue
    raise RuntimeError("No free table code was found.")

"""A paper table's results entered by an organiser, and a score corrected with its reason;
`strokes_field` and `typed_strokes` are the cell every form of strokes shares."""

from __future__ import annotations

import re

from django import forms

from games.engine.match import HOLES
from games.models import Table, hole_heading, hole_name
from games.scorecards import PaperScoreError, check_paper_scores
from games.text import validate_shown_lines

PLAYOFF_ROWS = 3
_WHOLE_NUMBER = re.compile(r"^[+-]?\d{1,4}$")


def strokes_field(label: str) -> forms.CharField:
    """A cell for one player's strokes on one hole: text, so that anything typed comes
    back with a sentence about it, and a numeric keypad on a phone."""
    return forms.CharField(
        required=False,
        max_length=6,
        label=label,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3, "autocomplete": "off"}),
    )


def typed_strokes(raw: str | None) -> object:
    """A cell as `check_paper_scores` reads it: None when empty, an int when it is a whole
    number, else the text as typed (which it names as not a whole number)."""
    raw = (raw or "").strip()
    if raw == "":
        return None
    return int(raw) if _WHOLE_NUMBER.match(raw) else raw


class PaperResultsForm(forms.Form):
    """Strokes per hole for every card of a paper table: nine holes, then playoffs.

    The cells are text so that anything typed comes back with a sentence about it;
    the match rules themselves are checked by `games.scorecards.check_paper_scores`.
    """

    def __init__(self, *args, table: Table, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.names = names
        self.numbers = list(range(1, HOLES + PLAYOFF_ROWS + 1))
        self.problems: list[str] = []
        self.hole_scores: list[list[object]] = []
        for number in self.numbers:
            for position, name in enumerate(names):
                label = f"{name}, {hole_name(number).lower()}"
                self.fields[self.cell(number, position)] = strokes_field(label)

    @staticmethod
    def cell(number: int, position: int) -> str:
        return f"h{number}_s{position}"

    def _rows(self, numbers):
        for number in numbers:
            heading = hole_heading(number)
            yield heading, [self[self.cell(number, p)] for p in range(len(self.names))]

    def regulation_rows(self):
        """(row heading, [bound fields]) of the nine holes, for the template's grid."""
        return self._rows(n for n in self.numbers if n <= HOLES)

    def playoff_rows(self):
        """(row heading, [bound fields]) of the playoff holes."""
        return self._rows(n for n in self.numbers if n > HOLES)

    def totals(self) -> list[int]:
        """Each player's strokes over the nine holes as typed so far, to check against the
        paper card; a cell that is not a whole number counts nothing (it is marked)."""
        totals = [0] * len(self.names)
        for number in range(1, HOLES + 1):
            for position in range(len(self.names)):
                raw = str(self[self.cell(number, position)].value() or "").strip()
                if _WHOLE_NUMBER.match(raw):
                    totals[position] += int(raw)
        return totals

    def clean(self):
        data = super().clean()
        grid: list[list[object]] = []
        for number in self.numbers:
            grid.append(
                [typed_strokes(data.get(self.cell(number, p))) for p in range(len(self.names))]
            )
        # Trailing empty rows were never played; an empty row in the middle is reported.
        while grid and all(value is None for value in grid[-1]):
            grid.pop()
        try:
            check_paper_scores(self.table.rules, grid, self.names)
        except PaperScoreError as error:
            # Every problem is listed once (`problems`); a cell's own is also marked on it.
            marked = False
            for problem in error.problems:
                self.problems.append(problem.message)
                if problem.hole is not None and problem.position is not None:
                    self.add_error(self.cell(problem.hole, problem.position), problem.message)
                    marked = True
            if marked:
                raise forms.ValidationError(
                    "Nothing was saved: fix the scores marked below."
                ) from None
            raise forms.ValidationError("Nothing was saved.") from None
        self.hole_scores = grid
        return data


class CorrectionForm(forms.Form):
    """One hole of one card at a table, its new strokes and why."""

    scorecard = forms.TypedChoiceField(coerce=int, label="Player")
    number = forms.TypedChoiceField(coerce=int, label="Hole")
    strokes = forms.IntegerField(label="New strokes")
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=500, validators=[validate_shown_lines]
    )
    remove_playoffs = forms.BooleanField(
        required=False,
        label="Remove playoff holes this correction makes unnecessary",
        help_text="If the corrected scores decide the match without its playoff, its holes "
        "come off the cards; the log keeps their strokes.",
    )

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, **kwargs)
        self.cards = {card.pk: card for card in table.scorecards.order_by("position")}
        self.fields["scorecard"].choices = [(pk, card.name) for pk, card in self.cards.items()]
        numbers = sorted(
            set(
                table.scorecards.values_list("holes__number", flat=True).exclude(holes__number=None)
            )
        )
        self.fields["number"].choices = [(n, hole_name(n)) for n in numbers]
        if not any(n > HOLES for n in numbers):
            del self.fields["remove_playoffs"]

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("Say why the score changes.")
        return reason

    def clean(self):
        data = super().clean()
        card = self.cards.get(data.get("scorecard"))
        if card is not None and "number" in data:
            if not card.holes.filter(number=data["number"]).exists():
                self.add_error("number", f"{card.name} did not play that hole.")
            data["card"] = card
        return data

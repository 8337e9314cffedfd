"""The forms of a table report: a hole's strokes seat by seat (cells as the results
form's, read as it reads them), a dispute's reason, and the short code typed."""

from __future__ import annotations

from django import forms

from games.text import validate_shown_lines

from ..results.forms import strokes_field, typed_strokes


class HoleForm(forms.Form):
    """One hole's strokes for the seats that play it, and the version it was read at."""

    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        required=False,
        max_length=500,
        validators=[validate_shown_lines],
        label="Why the confirmed strokes change",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, number: int, names: list[str], seats: list[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.number = number
        self.names = names
        self.seats = seats
        for position in seats:
            # The section's heading names the hole; each cell is named for its player.
            field = strokes_field(names[position])
            field.widget.attrs.update(
                {"class": "stroke-input", "pattern": "-?[0-9]*", "enterkeyhint": "next"}
            )
            self.fields[self.cell(position)] = field

    @staticmethod
    def cell(position: int) -> str:
        return f"s{position}"

    def cells(self):
        return [self[self.cell(position)] for position in self.seats]

    @property
    def strokes(self) -> list[object]:
        """Seat by seat, as `check_paper_scores` reads them (None for a seat sitting out)."""
        data = self.cleaned_data
        return [
            typed_strokes(data.get(self.cell(p))) if p in self.seats else None
            for p in range(len(self.names))
        ]


class DisputeForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    reason = forms.CharField(
        max_length=500,
        validators=[validate_shown_lines],
        label="What is wrong",
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


class VersionForm(forms.Form):
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class CodeForm(forms.Form):
    code = forms.CharField(
        max_length=12,
        label="Table code",
        help_text="The six letters and digits on the table card.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )

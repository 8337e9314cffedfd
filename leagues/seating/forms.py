"""How a night is seated: at random or by rating, seats a table, live or paper, byes."""

from __future__ import annotations

from django import forms

from games.models import Table


class SeatingForm(forms.Form):
    method = forms.ChoiceField(
        choices=[("random", "At random"), ("balanced", "Balanced by rating (snake seeding)")],
        initial="random",
    )
    seats_per_table = forms.IntegerField(min_value=2, max_value=8, initial=4)
    kind = forms.ChoiceField(
        choices=Table.Kind.choices, initial=Table.Kind.PAPER, label="Tables are played"
    )
    paper_tables = forms.IntegerField(
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
        label="Of the live tables, how many play on paper",
        help_text="The last tables are played with a physical deck; on a night of duplicate "
        "deals each gets a deal sheet, so it deals the same courses.",
    )

    byes = forms.BooleanField(
        required=False,
        label="Full tables only",
        help_text="The players left over sit the night out with a bye (those with the fewest "
        "byes this season first); the league says what a bye earns.",
    )

    def clean_paper_tables(self) -> int:
        return self.cleaned_data.get("paper_tables") or 0

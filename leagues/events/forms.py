"""The organiser's forms of events: a new event (the game and house rules as a league's
form offers them), an entrant added, two players kept apart."""

from __future__ import annotations

from django import forms

from games.forms import HouseRulesWidget, refused_house_rules
from games.models import Table, house_rule_choices

from ..bounds import MAX_PAPER_TABLES, bound
from ..models import Event, League, Player
from .models import MAX_ROUND_DAYS
from .services import MAX_ROUNDS, SEATS


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class EventForm(forms.ModelForm):
    house_rules = forms.MultipleChoiceField(
        label="House rules",
        choices=house_rule_choices,
        required=False,
        widget=HouseRulesWidget,
        help_text="Every table of the event plays them: those of the event's game.",
    )

    class Meta:
        model = Event
        fields = (
            "name",
            "format",
            "variant",
            "house_rules",
            "seats_per_table",
            "rounds",
            "advance",
            "table_kind",
            "paper_tables",
            "turn_timer",
            "move_time",
            "round_days",
            "starts_at",
            "entry_closes_at",
            "late_entries",
            "max_entries",
            "league",
        )
        labels = {
            "variant": "Game",
            "seats_per_table": "Seats a table",
            "rounds": "Rounds",
            "advance": "Knockout: go through from each table",
            "table_kind": "Tables are played",
            "paper_tables": "Of the live tables, how many play on paper",
            "turn_timer": "Turn timer at live tables",
            "move_time": "Pace of live tables",
            "round_days": "Turn-based: days a round",
            "starts_at": "Starts",
            "entry_closes_at": "Entry closes",
            "late_entries": "Organisers may add late entries",
            "league": "League (seeds a knockout by its ratings)",
        }
        widgets = {
            "format": forms.RadioSelect,
            "starts_at": DateTimeInput(),
            "entry_closes_at": DateTimeInput(),
        }

    def __init__(self, *args, club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(club=club)
        self.fields["league"].required = False
        self.fields["paper_tables"].required = False
        self.fields["turn_timer"].required = False
        self.fields["move_time"].required = False
        # Every number bound, with the bound in words (the services check them again).
        low, high = SEATS
        # Seats within reason here; the game's own bounds are the services' to name.
        bound(self.fields["seats_per_table"], 0, 99, f"A table seats {low} to {high}.")
        bound(self.fields["rounds"], 1, MAX_ROUNDS, f"An event has 1 to {MAX_ROUNDS} rounds.")
        bound(self.fields["advance"], 1, high - 1, f"1 to {high - 1} go through from a table.")
        bound(
            self.fields["paper_tables"],
            0,
            MAX_PAPER_TABLES,
            f"0 to {MAX_PAPER_TABLES} tables a round play on paper.",
        )
        days = f"A round lasts 1 to {MAX_ROUND_DAYS} days."
        bound(self.fields["round_days"], 1, MAX_ROUND_DAYS, days)

    def clean_paper_tables(self) -> int:
        return self.cleaned_data.get("paper_tables") or 0

    def clean_turn_timer(self) -> int:
        return self.cleaned_data.get("turn_timer") or Table.Timer.OFF

    def clean_move_time(self) -> int:
        return self.cleaned_data.get("move_time") or Table.MoveTime.LIVE

    def clean(self):
        data = super().clean()
        refused = refused_house_rules(data.get("variant", ""), data.get("house_rules", []))
        if refused:
            self.add_error("house_rules", refused)
        return data


class EntryForm(forms.Form):
    """An organiser enters a member (a late entry after the cut-off)."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), label="Member")

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = members


class ApartForm(forms.Form):
    """Two entrants never to share a table, when a seating can avoid it."""

    first = forms.ModelChoiceField(queryset=Player.objects.none(), label="Keep")
    second = forms.ModelChoiceField(queryset=Player.objects.none(), label="apart from")

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = members
        self.fields["second"].queryset = members

    def clean(self):
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different players.")
        return data

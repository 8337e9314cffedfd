"""A season's and a night's forms: a new season, a new night, a night moved; a night
played as an online round (its time per move, opening and due time)."""

from __future__ import annotations

from django import forms
from django.utils import timezone

from ..models import LeagueNight, Season


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


ROUND_FIELDS = ("online", "move_time", "opens_at", "due_at")
ROUND_WIDGETS = {"opens_at": DateTimeInput(), "due_at": DateTimeInput()}


class RoundFields:
    """A night's form that may make it an online round: its date is then the opening's
    day (`LeagueNight.clean`), so the date may be left out."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].required = False
        self.fields["date"].help_text = "An online round's is the day it opens."

    def clean(self) -> dict:
        data = super().clean()
        if data.get("online") and data.get("opens_at"):
            data["date"] = timezone.localdate(data["opens_at"])
        elif not data.get("date") and "date" not in self.errors:
            self.add_error("date", "Give the night's date.")
        if not data.get("online"):
            data["move_time"] = data["opens_at"] = data["due_at"] = None
        return data


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ("name", "start", "end")
        widgets = {"start": DateInput(), "end": DateInput()}


class NightForm(RoundFields, forms.ModelForm):
    class Meta:
        model = LeagueNight
        fields = ("date", "start_time", "venue", "duplicate_deals", *ROUND_FIELDS)
        widgets = {"date": DateInput(), "start_time": TimeInput(format="%H:%M"), **ROUND_WIDGETS}


class ScheduleForm(RoundFields, forms.ModelForm):
    """When and where a night is played; whether it is an online round, and its times."""

    class Meta:
        model = LeagueNight
        fields = ("date", "start_time", "venue", *ROUND_FIELDS)
        widgets = {"date": DateInput(), "start_time": TimeInput(format="%H:%M"), **ROUND_WIDGETS}

"""A season's and a night's forms: a new season, a new night, a night moved."""

from __future__ import annotations

from django import forms

from ..models import LeagueNight, Season


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ("name", "start", "end")
        widgets = {"start": DateInput(), "end": DateInput()}


class NightForm(forms.ModelForm):
    class Meta:
        model = LeagueNight
        fields = ("date", "start_time", "venue", "duplicate_deals")
        widgets = {"date": DateInput(), "start_time": TimeInput(format="%H:%M")}


class ScheduleForm(forms.ModelForm):
    """When and where a night is played."""

    class Meta:
        model = LeagueNight
        fields = ("date", "start_time", "venue")
        widgets = {"date": DateInput(), "start_time": TimeInput(format="%H:%M")}

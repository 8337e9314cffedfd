"""The organiser's form for an announcement."""

from __future__ import annotations

from django import forms

from ..models import League
from .models import BODY_LENGTH, SUBJECT_LENGTH


class AnnouncementForm(forms.Form):
    league = forms.ModelChoiceField(
        queryset=League.objects.none(),
        required=False,
        empty_label="Every member of the club",
        label="To",
        help_text="A league's: the members who played one of its nights.",
    )
    subject = forms.CharField(max_length=SUBJECT_LENGTH)
    body = forms.CharField(
        label="Text", max_length=BODY_LENGTH, widget=forms.Textarea(attrs={"rows": 8})
    )

    def __init__(self, *args, club, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = League.objects.filter(club=club)

    def clean_subject(self) -> str:
        subject = " ".join(self.cleaned_data["subject"].split())
        if not subject:
            raise forms.ValidationError("Give the announcement a subject.")
        return subject

    def clean_body(self) -> str:
        body = self.cleaned_data["body"].strip()
        if not body:
            raise forms.ValidationError("Write the announcement's text.")
        return body

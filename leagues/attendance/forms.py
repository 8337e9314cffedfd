"""Who plays a night: the members present, a member away, a substitute in their place."""

from __future__ import annotations

from django import forms

from games.numbers import whole_number
from games.text import validate_shown

from ..models import Player
from ..words import possessive


class NightPlayersForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Players present",
    )

    # The members checked in when the form was drawn, as ids: one who checks in after
    # that stays present when the form is saved.
    seen = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, members, left_out: dict[int, str] | None = None, **kwargs):
        """`left_out`: members a team's line-up leaves out tonight, by id, with the team's
        name: they may play, but do not count for the team, and the form says so."""
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = members
        left_out = left_out or {}
        self.fields["players"].label_from_instance = lambda player: (
            f"{player} (not in {possessive(left_out[player.pk])} line-up: plays, but not for "
            "the team)"
            if player.pk in left_out
            else str(player)
        )

    def clean_seen(self) -> set[int]:
        parts = self.cleaned_data["seen"].split(",")
        numbers = {whole_number(part.strip()) for part in parts if part.strip()}
        if None in numbers:
            raise forms.ValidationError("The page was out of date: look again, then save.")
        return numbers


class AbsenceForm(forms.Form):
    """A member away tonight, with or without notice."""

    prefix = "absence"

    player = forms.ModelChoiceField(queryset=Player.objects.none(), label="Member away")
    notice = forms.TypedChoiceField(
        choices=[("1", "With notice"), ("0", "Without notice")],
        coerce=lambda value: value == "1",
        initial="1",
        widget=forms.RadioSelect,
        label="Told the club",
    )

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = members


class SubstituteForm(forms.Form):
    """Who plays for a member tonight: another member, or a guest named here."""

    prefix = "substitute"

    member = forms.ModelChoiceField(queryset=Player.objects.none(), label="Plays for")
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, label="Substitute (a member)"
    )
    guest_name = forms.CharField(
        max_length=40,
        required=False,
        validators=[validate_shown],
        label="or a guest's name",
        help_text="A guest has no account: they play the member's own seat, at a paper table.",
    )

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members
        self.fields["player"].queryset = members

    def clean(self) -> dict:
        cleaned = super().clean()
        if bool(cleaned.get("player")) == bool((cleaned.get("guest_name") or "").strip()):
            raise forms.ValidationError(
                "Name one substitute: a member, or a guest who has no account."
            )
        return cleaned

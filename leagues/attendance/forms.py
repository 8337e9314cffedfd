"""Who plays a night: the members present, a member away, a substitute in their place."""

from __future__ import annotations

from django import forms
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.numbers import whole_number
from games.text import validate_shown

from ..models import Player
from ..words import possessive


def html_attrs(attrs: dict) -> SafeString:
    """A widget's `attrs` as Django's attrs.html writes them."""
    return mark_safe(
        "".join(
            f" {conditional_escape(name)}"
            if value is True
            else format_html(' {}="{}"', name, value)
            for name, value in attrs.items()
            if value is not False
        )
    )


class MemberSelect(forms.Select):
    """Django's select, the same HTML written here rather than through a template an
    option: a night's page draws three lists of every member of the club."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        options = "".join(
            format_html('\n  <option value="{}"', option["value"])
            + html_attrs(option["attrs"])
            + format_html(">{}</option>\n", option["label"])
            for _group, choices, _index in widget["optgroups"]
            for option in choices
        )
        select = format_html('<select name="{}"', widget["name"]) + html_attrs(widget["attrs"])
        return mark_safe(f"{select}>{options}\n</select>")


def one_member_list(*member_forms: forms.Form) -> None:
    """Draw the member lists (`MemberSelect`) of `member_forms`, each of the same members,
    from one reading of them rather than a query a list."""
    fields = [
        field
        for form in member_forms
        for field in form.fields.values()
        if isinstance(field.widget, MemberSelect)
    ]
    choices = list(iter(fields[0].choices))  # iter: no count query for its length
    for field in fields:
        field.widget.choices = choices


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

    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), widget=MemberSelect, label="Member away"
    )
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

    member = forms.ModelChoiceField(
        queryset=Player.objects.none(), widget=MemberSelect, label="Plays for"
    )
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(),
        widget=MemberSelect,
        required=False,
        label="Substitute (a member)",
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

"""A club's forms: a new club's name, a league's settings and rules, a member added with
their role, and a member's role changed."""

from __future__ import annotations

from django import forms

from games.forms import HouseRulesWidget, refused_house_rules
from games.models import house_rule_choices

from ..models import Club, League, Membership, Player
from ..usernames import username_key
from .models import LEAGUE_RULES


class LeagueForm(forms.ModelForm):
    house_rules = forms.MultipleChoiceField(
        label="House rules",
        choices=house_rule_choices,
        required=False,
        widget=HouseRulesWidget,
        help_text="Every table of the league's nights plays them: those of the league's game.",
    )

    class Meta:
        model = League
        fields = (
            "name",
            "variant",
            "house_rules",
            "points_per_place",
            "night_points",
            "points_from",
            *LEAGUE_RULES,
        )
        # A choice too long for a select's one line in a narrow column reads whole
        # beside a radio, wrapped.
        widgets = {"night_points": forms.RadioSelect, "team_score": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Left out, a night earns points by place, as before the choice existed.
        self.fields["night_points"].required = False
        self.fields["points_from"].required = False
        # Absences, byes and substitutes keep the league's defaults when left out.
        for name in (
            "absence_points",
            "absence_fixed_points",
            "bye_points",
            "bye_fixed_points",
            "substitute_counts",
            "stand_in_level",
            "team_size",
            "team_score",
            "team_counted",
        ):
            self.fields[name].required = False

    def clean(self):
        data = super().clean()
        refused = refused_house_rules(data.get("variant", ""), data.get("house_rules", []))
        if refused:
            # Left out of the league, so its own check adds no second, coarser error.
            self.add_error("house_rules", refused)
        for name in ("team_size", "team_score", "team_counted"):
            data[name] = self._or_default(name)  # left out: no teams
        return data

    def _or_default(self, name: str):
        value = self.cleaned_data.get(name)
        return League._meta.get_field(name).default if value in (None, "") else value

    def clean_absence_points(self) -> str:
        return self._or_default("absence_points")

    def clean_absence_fixed_points(self) -> int:
        return self._or_default("absence_fixed_points")

    def clean_bye_points(self) -> str:
        return self._or_default("bye_points")

    def clean_bye_fixed_points(self) -> int:
        return self._or_default("bye_fixed_points")

    def clean_substitute_counts(self) -> str:
        return self._or_default("substitute_counts")

    def clean_stand_in_level(self) -> str:
        return self._or_default("stand_in_level")

    def clean_night_points(self) -> str:
        return self.cleaned_data.get("night_points") or League.NightPoints.PLACE

    def clean_points_from(self) -> str:
        return self.cleaned_data.get("points_from") or League.Strokes.GROSS


class MemberForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.PLAYER)

    def clean_username(self) -> Player:
        username = self.cleaned_data["username"]
        key = username_key(username.strip())
        # An account whose name clashed before keys were kept is found by its name alone.
        player = (
            Player.objects.filter(username_key=key).first()
            or Player.objects.filter(username=username.strip()).first()
        )
        if player is None:
            raise forms.ValidationError("No player has that username.")
        return player


class ClubForm(forms.ModelForm):
    """A new club: its name (its address is made from it)."""

    class Meta:
        model = Club
        fields = ("name",)
        help_texts = {"name": "As members know it; you are its first organiser."}

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not any(ch.isalnum() for ch in name):
            raise forms.ValidationError("A club's name needs a letter or a digit.")
        return name


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Membership.Role.choices)

"""The forms of a team league's pages: its team settings, a team, a member, a captain,
and a night's line-up."""

from __future__ import annotations

from django import forms

from ..bounds import bound
from ..models import League, Player
from .models import FEWEST_MEMBERS, MOST_MEMBERS


class TeamRulesForm(forms.ModelForm):
    """Whether the league plays in teams, and how a team's night score is made."""

    class Meta:
        model = League
        fields = ("team_size", "team_score", "team_counted")
        widgets = {"team_score": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Every number bound, with the bound in words (the model checks them together).
        bound(
            self.fields["team_size"],
            0,
            MOST_MEMBERS,
            f"A team has {FEWEST_MEMBERS} to {MOST_MEMBERS} members (0: not a team league).",
        )
        bound(
            self.fields["team_counted"],
            1,
            MOST_MEMBERS,
            f"The best n counts 1 to {MOST_MEMBERS} members' points.",
        )


class TeamForm(forms.Form):
    """A new team: its name, its members and which of them captains it."""

    prefix = "team"

    name = forms.CharField(max_length=60, label="Team name")
    members = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple, label="Members"
    )
    captain = forms.ModelChoiceField(queryset=Player.objects.none(), label="Captain")

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = members
        self.fields["captain"].queryset = members


class TeamPlayerForm(forms.Form):
    """One member of the club: to add to a team, or to name its captain."""

    player = forms.ModelChoiceField(queryset=Player.objects.none(), label="Member")

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = members


class LineUpForm(forms.Form):
    """Who of a team plays a night."""

    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Playing tonight",
    )

    def __init__(self, *args, members, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = members

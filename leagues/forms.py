"""Forms: accounts, and the organiser's forms for leagues, nights, results and corrections."""

from __future__ import annotations

import re

from django import forms
from django.contrib.auth.forms import UserCreationForm

from games.engine.match import HOLES
from games.forms import HouseRulesWidget, refused_house_rules
from games.models import Table, hole_heading, hole_name, house_rule_choices
from games.scorecards import HandScoreError, check_hand_scores
from games.text import validate_shown, validate_shown_lines

from .accounts import selectors
from .bounds import MAX_PAPER_TABLES
from .clubs.services import LEAGUE_RULES
from .models import League, LeagueNight, Membership, Player, Season
from .usernames import USERNAME_TAKEN, username_key
from .words import possessive

PLAYOFF_ROWS = 3
_WHOLE_NUMBER = re.compile(r"^[+-]?\d{1,4}$")


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: only used to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "display_name", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if Player.objects.filter(username_key=username_key(username)).exists():
            raise forms.ValidationError(USERNAME_TAKEN)
        return username

    def clean_email(self) -> str:
        return _own_email(self.cleaned_data["email"])


def _own_email(email: str, player: Player | None = None) -> str:
    """`email` as stored, refused if another account than `player`'s has it."""
    email = Player.objects.normalize_email(email.strip())
    if selectors.email_in_use(email, other_than=player):
        raise forms.ValidationError(selectors.EMAIL_TAKEN)
    return email


class AccountForm(forms.ModelForm):
    """What a player may change about themselves: the name others see, and their email."""

    email = forms.EmailField(
        required=False,
        help_text="Optional: for a forgotten password, and league reminders and results.",
    )

    class Meta:
        model = Player
        fields = ("display_name", "email", "email_reminders", "email_results")

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        validate_shown(name)
        return name

    def clean_email(self) -> str:
        return _own_email(self.cleaned_data["email"], self.instance)


class DateInput(forms.DateInput):
    input_type = "date"


class TimeInput(forms.TimeInput):
    input_type = "time"


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
        return {int(part) for part in parts if part.strip().isdigit()}


class SeatingForm(forms.Form):
    method = forms.ChoiceField(
        choices=[("random", "At random"), ("balanced", "Balanced by rating (snake seeding)")],
        initial="random",
    )
    seats_per_table = forms.IntegerField(min_value=2, max_value=8, initial=4)
    kind = forms.ChoiceField(
        choices=Table.Kind.choices, initial=Table.Kind.HAND, label="Tables are played"
    )
    paper_tables = forms.IntegerField(
        min_value=0,
        max_value=MAX_PAPER_TABLES,
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


def strokes_field(label: str) -> forms.CharField:
    """A cell for one player's strokes on one hole: text, so that anything typed comes
    back with a sentence about it, and a numeric keypad on a phone."""
    return forms.CharField(
        required=False,
        max_length=6,
        label=label,
        widget=forms.TextInput(attrs={"inputmode": "numeric", "size": 3, "autocomplete": "off"}),
    )


def typed_strokes(raw: str | None) -> object:
    """A cell as `check_hand_scores` reads it: None when empty, an int when it is a whole
    number, else the text as typed (which it names as not a whole number)."""
    raw = (raw or "").strip()
    if raw == "":
        return None
    return int(raw) if _WHOLE_NUMBER.match(raw) else raw


class HandResultsForm(forms.Form):
    """Strokes per hole for every card of a hand-played table: nine holes, then playoffs.

    The cells are text so that anything typed comes back with a sentence about it;
    the match rules themselves are checked by `games.scorecards.check_hand_scores`.
    """

    def __init__(self, *args, table: Table, names: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.table = table
        self.names = names
        self.numbers = list(range(1, HOLES + PLAYOFF_ROWS + 1))
        self.problems: list[str] = []
        self.hole_scores: list[list[object]] = []
        for number in self.numbers:
            for position, name in enumerate(names):
                label = f"{name}, {hole_name(number).lower()}"
                self.fields[self.cell(number, position)] = strokes_field(label)

    @staticmethod
    def cell(number: int, position: int) -> str:
        return f"h{number}_s{position}"

    def _rows(self, numbers):
        for number in numbers:
            heading = hole_heading(number)
            yield heading, [self[self.cell(number, p)] for p in range(len(self.names))]

    def regulation_rows(self):
        """(row heading, [bound fields]) of the nine holes, for the template's grid."""
        return self._rows(n for n in self.numbers if n <= HOLES)

    def playoff_rows(self):
        """(row heading, [bound fields]) of the playoff holes."""
        return self._rows(n for n in self.numbers if n > HOLES)

    def totals(self) -> list[int]:
        """Each player's strokes over the nine holes as typed so far, to check against the
        paper card; a cell that is not a whole number counts nothing (it is marked)."""
        totals = [0] * len(self.names)
        for number in range(1, HOLES + 1):
            for position in range(len(self.names)):
                raw = str(self[self.cell(number, position)].value() or "").strip()
                if _WHOLE_NUMBER.match(raw):
                    totals[position] += int(raw)
        return totals

    def clean(self):
        data = super().clean()
        grid: list[list[object]] = []
        for number in self.numbers:
            grid.append(
                [typed_strokes(data.get(self.cell(number, p))) for p in range(len(self.names))]
            )
        # Trailing empty rows were never played; an empty row in the middle is reported.
        while grid and all(value is None for value in grid[-1]):
            grid.pop()
        try:
            check_hand_scores(self.table.rules, grid, self.names)
        except HandScoreError as error:
            # Every problem is listed once (`problems`); a cell's own is also marked on it.
            marked = False
            for problem in error.problems:
                self.problems.append(problem.message)
                if problem.hole is not None and problem.position is not None:
                    self.add_error(self.cell(problem.hole, problem.position), problem.message)
                    marked = True
            if marked:
                raise forms.ValidationError(
                    "Nothing was saved: fix the scores marked below."
                ) from None
            raise forms.ValidationError("Nothing was saved.") from None
        self.hole_scores = grid
        return data


class CorrectionForm(forms.Form):
    """One hole of one card at a table, its new strokes and why."""

    scorecard = forms.TypedChoiceField(coerce=int, label="Player")
    number = forms.TypedChoiceField(coerce=int, label="Hole")
    strokes = forms.IntegerField(label="New strokes")
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}), max_length=500, validators=[validate_shown_lines]
    )
    remove_playoffs = forms.BooleanField(
        required=False,
        label="Remove playoff holes this correction makes unnecessary",
        help_text="If the corrected scores decide the match without its playoff, its holes "
        "come off the cards; the log keeps their strokes.",
    )

    def __init__(self, *args, table: Table, **kwargs):
        super().__init__(*args, **kwargs)
        self.cards = {card.pk: card for card in table.scorecards.order_by("position")}
        self.fields["scorecard"].choices = [(pk, card.name) for pk, card in self.cards.items()]
        numbers = sorted(
            set(
                table.scorecards.values_list("holes__number", flat=True).exclude(holes__number=None)
            )
        )
        self.fields["number"].choices = [(n, hole_name(n)) for n in numbers]
        if not any(n > HOLES for n in numbers):
            del self.fields["remove_playoffs"]

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError("Say why the score changes.")
        return reason

    def clean(self):
        data = super().clean()
        card = self.cards.get(data.get("scorecard"))
        if card is not None and "number" in data:
            if not card.holes.filter(number=data["number"]).exists():
                self.add_error("number", f"{card.name} did not play that hole.")
            data["card"] = card
        return data

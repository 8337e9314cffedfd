"""Forms for setting up a table and taking a seat at one."""

from __future__ import annotations

from django import forms

from games import engine
from games.engine.bots import BOT_LEVELS

from .models import Table, house_rule_choices, house_rule_games, variant_choices
from .numbers import whole_number
from .pace import MAX_AWAY_DAYS

MAX_SEATS = max(v.max_players for v in engine.VARIANTS.values())
#: Playing hours on offer for a turn-based table, as "first hour-hour they end".
PLAYING_HOURS = [
    ("", "Any hour"),
    ("8-22", "8:00 to 22:00"),
    ("9-21", "9:00 to 21:00"),
    ("7-23", "7:00 to 23:00"),
]
SEAT_CHOICES = [("open", "Open for a player")] + [(level, f"Bot: {level}") for level in BOT_LEVELS]


class HouseRulesWidget(forms.CheckboxSelectMultiple):
    """The house rules' boxes, each naming the games that offer it (`data-games`), so
    that the page shows only those of the game chosen (static/js/house-rules.js)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        option["attrs"]["data-games"] = " ".join(house_rule_games().get(str(value), []))
        return option


def refused_house_rules(variant_key: str, keys) -> str | None:
    """Why `keys` are refused for the game `variant_key`, in words; None when every one
    is a house rule of that game (as the page offers them once the game is chosen)."""
    variant = engine.VARIANTS.get(variant_key)
    if variant is None:
        return None
    offered = {rule.key for rule in variant.house_rule_options}
    labels = dict(house_rule_choices())
    foreign = [labels.get(key, key).partition(" (")[0] for key in keys if key not in offered]
    if not foreign:
        return None
    named = " and ".join(f"“{name}”" for name in foreign)
    verb = "is not a house rule" if len(foreign) == 1 else "are not house rules"
    return f"{named} {verb} of {variant.name}: choose only that game's house rules."


class CreateTableForm(forms.Form):
    """A new table: the game, its seats (open or bots), who may find it, the turn timer."""

    variant = forms.ChoiceField(label="Game", choices=variant_choices)
    seat_count = forms.IntegerField(
        label="Seats",
        min_value=2,
        max_value=MAX_SEATS,
        initial=2,
        help_text="How many players, you included.",
    )
    house_rules = forms.MultipleChoiceField(
        label="House rules",
        choices=house_rule_choices,
        required=False,
        widget=HouseRulesWidget,
        help_text="Optional: those of the game chosen.",
    )
    is_public = forms.TypedChoiceField(
        label="Who can join",
        choices=[("1", "Anyone (listed in the lobby)"), ("0", "Only people with the invite link")],
        coerce=lambda value: value == "1",
        initial="1",
        help_text="Either way you get an invite link to send.",
    )
    turn_timer = forms.TypedChoiceField(
        label="Turn timer",
        choices=Table.Timer.choices,
        coerce=int,
        initial=0,
        help_text="When time runs out a bot makes the move, so nobody waits on a lost player.",
    )

    move_time = forms.TypedChoiceField(
        label="Pace",
        choices=Table.MoveTime.choices,
        coerce=int,
        required=False,
        empty_value=0,
        initial=0,
        help_text="Turn-based: everyone moves when they like, within the time per move; "
        "when it runs out a bot makes the move.",
    )
    playing_hours = forms.ChoiceField(
        label="Playing hours (turn-based)",
        choices=PLAYING_HOURS,
        required=False,
        initial="",
        help_text="No deadline falls outside them in a player's own time zone.",
    )
    away_days = forms.IntegerField(
        label="Days away allowed (turn-based)",
        required=False,
        min_value=0,
        max_value=MAX_AWAY_DAYS,
        initial=3,
        help_text="The break each player may take in the match, pausing their clock.",
    )

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        for position in range(1, MAX_SEATS):
            self.fields[f"seat_{position}"] = forms.ChoiceField(
                label=f"Seat {position + 1}",
                choices=SEAT_CHOICES,
                initial="open",
                required=False,
            )

    def main_fields(self):
        return [
            self[name]
            for name in ("variant", "seat_count", "house_rules", "is_public", "turn_timer")
        ]

    def game_fields(self):
        return [self["variant"], self["seat_count"], self["house_rules"]]

    def setting_fields(self):
        return [self["is_public"], self["turn_timer"]]

    def pace_fields(self):
        return [self["move_time"], self["playing_hours"], self["away_days"]]

    def playing_hours_chosen(self) -> tuple[int, int] | None:
        """The playing hours chosen, as (first hour, hour they end), or None."""
        value = self.cleaned_data.get("playing_hours") or ""
        if not value:
            return None
        first, last = value.split("-")
        return int(first), int(last)

    @staticmethod
    def seat_ranges() -> dict[str, list[int]]:
        """Players each game allows, for the page to keep the seat count in range."""
        return {key: [v.min_players, v.max_players] for key, v in engine.VARIANTS.items()}

    def seat_fields(self):
        return [self[f"seat_{position}"] for position in range(1, MAX_SEATS)]

    def clean(self):
        data = super().clean()
        variant = engine.VARIANTS.get(data.get("variant", ""))
        count = data.get("seat_count")
        if variant and count and not variant.min_players <= count <= variant.max_players:
            self.add_error(
                "seat_count",
                f"{variant.name} is for {variant.min_players} to {variant.max_players} players.",
            )
        refused = variant and refused_house_rules(variant.key, data.get("house_rules", []))
        if data.get("move_time") and data.get("turn_timer"):
            self.add_error("turn_timer", "A turn-based table has a time per move: turn this off.")
        if refused:
            self.add_error("house_rules", refused)
        elif variant and "house_rules" in data:
            try:
                rules = engine.with_house_rules(variant, data["house_rules"])
            except ValueError as error:
                self.add_error("house_rules", str(error))
            else:
                data["house_rules"] = list(rules.house_rule_keys)
        return data

    def bots(self) -> dict[int, str]:
        """Bot levels by seat position (the host sits at seat 0)."""
        count = self.cleaned_data["seat_count"]
        return {
            position: level
            for position in range(1, count)
            if (level := self.cleaned_data.get(f"seat_{position}") or "open") != "open"
        }


class JoinForm(forms.Form):
    """The seat a player asks for: a position from 0, or none for the first free seat."""

    position = forms.CharField(required=False)

    def clean_position(self) -> int | None:
        value = self.cleaned_data["position"]
        if value == "":
            return None
        position = whole_number(value, digits=2)
        if position is None:
            raise forms.ValidationError("Choose a seat by its number.")
        return position


class BreakForm(forms.Form):
    """A player's break from a turn-based table: away for a number of days from now."""

    days = forms.IntegerField(label="Away for (days)", min_value=1, max_value=MAX_AWAY_DAYS)

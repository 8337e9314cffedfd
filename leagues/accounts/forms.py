"""A player's own forms: signing up, what they may change about themselves, and their
account closed (on their password)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm

from games import pace
from games.text import validate_shown

from ..models import Player
from ..usernames import USERNAME_TAKEN, username_key
from . import selectors, services
from .models import UNKNOWN_ZONE


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


def _zone_choices() -> list[tuple[str, str]]:
    zones = [(zone, zone.replace("_", " ")) for zone in pace.zone_names()]
    return [("", "None chosen: this device's"), *zones]


class AccountForm(forms.ModelForm):
    """What a player may change about themselves: the name others see, their email, which
    mail they get, and their time zone."""

    email = forms.EmailField(
        required=False,
        help_text="Optional: for a forgotten password, and league reminders and results.",
    )
    time_zone = forms.ChoiceField(
        label=Player._meta.get_field("time_zone").verbose_name,
        required=False,
        choices=_zone_choices,
        error_messages={"invalid_choice": UNKNOWN_ZONE},
        help_text=Player._meta.get_field("time_zone").help_text,
    )

    class Meta:
        model = Player
        fields = (
            "display_name",
            "email",
            "email_reminders",
            "email_results",
            "turn_mail",
            "time_zone",
        )

    def clean_display_name(self) -> str:
        name = self.cleaned_data["display_name"].strip()
        validate_shown(name)
        return name

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # A form that leaves the turn mail out (an older page) keeps the choice as it is.
        self.fields["turn_mail"].required = False

    def clean_email(self) -> str:
        return _own_email(self.cleaned_data["email"], self.instance)

    def clean_turn_mail(self) -> str:
        return self.cleaned_data["turn_mail"] or self.instance.turn_mail

    def clean_time_zone(self) -> str:
        # A form that leaves the time zone out (an older page) keeps it as it is.
        if "time_zone" not in self.data:
            return self.instance.time_zone
        return self.cleaned_data["time_zone"]


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's form for a forgotten password, its mail sent by a task
    (`services.mail_password_reset`): the request waits for no mail server."""

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        services.mail_password_reset.enqueue(
            player_id=context["user"].pk,
            domain=context["domain"],
            site_name=context["site_name"],
            protocol=context["protocol"],
        )


class CloseAccountForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="To be sure it is you. Closing cannot be undone.",
    )

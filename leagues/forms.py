"""Account forms."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm

from .models import Player


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        required=False, help_text="Optional: only used to reset a forgotten password."
    )

    class Meta(UserCreationForm.Meta):
        model = Player
        fields = ("username", "display_name", "email")

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if Player.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError("That username is taken. Please choose another.")
        return username

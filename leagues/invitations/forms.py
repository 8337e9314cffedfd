"""The forms of a club's ways in: the join link's limits, addresses to invite, and a
roster file (read whole here, refused whole with a clear message)."""

from __future__ import annotations

import re
from datetime import timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from .roster import MAX_BYTES, RosterRefused, Row, read_roster
from .services import MAX_ADDRESSES


class JoinLinkForm(forms.Form):
    days = forms.IntegerField(
        label="Good for (days)",
        required=False,
        min_value=1,
        max_value=365,
        help_text="Leave empty for a link that does not expire.",
    )
    max_uses = forms.IntegerField(
        label="Uses at most",
        required=False,
        min_value=1,
        max_value=10_000,
        help_text="Leave empty for any number of people.",
    )

    def expires_at(self):
        days = self.cleaned_data.get("days")
        return None if days is None else timezone.now() + timedelta(days=days)


class InviteForm(forms.Form):
    addresses = forms.CharField(
        label="Email addresses",
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=MAX_ADDRESSES * 260,
        help_text=f"One a line, or separated by commas: {MAX_ADDRESSES} at most. "
        "For a longer list, import a roster.",
    )

    def clean_addresses(self) -> list[str]:
        found = [part.strip() for part in re.split(r"[\s,;]+", self.cleaned_data["addresses"])]
        found = [part for part in found if part]
        if not found:
            raise ValidationError("Give at least one email address.")
        if len(found) > MAX_ADDRESSES:
            raise ValidationError(
                f"{len(found)} addresses: {MAX_ADDRESSES} at most at once (import a roster)."
            )
        bad = []
        for address in found:
            try:
                validate_email(address)
            except ValidationError:
                bad.append(address)
        if bad:
            raise ValidationError(
                "Not email addresses this site can mail: " + ", ".join(repr(b) for b in bad[:10])
            )
        return found


class RosterForm(forms.Form):
    roster = forms.FileField(
        label="Roster (CSV)",
        help_text="Names and email addresses, as a spreadsheet saves them as CSV "
        "(commas or semicolons, UTF-8), with a header row or none.",
    )

    def clean_roster(self) -> list[Row]:
        upload = self.cleaned_data["roster"]
        if upload.size > MAX_BYTES:
            raise ValidationError(
                f"The file is {upload.size / 1_000_000:.1f} MB: a roster may be "
                f"{MAX_BYTES // 1000} kB at most. Save the names and addresses alone as CSV."
            )
        try:
            return read_roster(upload.read(MAX_BYTES + 1))
        except RosterRefused as error:
            raise ValidationError(str(error)) from error

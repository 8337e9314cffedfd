"""A night's frozen handicaps, shown read only on the night in the admin."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped
from ..models import NightHandicap


class NightHandicapInline(ClubScoped, admin.TabularInline):
    """Read only: a night's handicaps are frozen when it is seated."""

    model = NightHandicap
    club_path = "night__season__league__club"
    parent_club_path = "season__league__club"
    organiser_can_add = False
    extra = 0
    fields = ("player", "handicap", "frozen_at")
    readonly_fields = fields
    can_delete = False
    verbose_name = "frozen handicap"

    @admin.display(description="handicap (strokes a hole)")
    def handicap(self, frozen):
        return f"{float(frozen.value):+.1f}"

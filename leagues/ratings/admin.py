"""Ratings in the admin: read only (they are rebuilt from the scorecards)."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import Rating


@admin.register(Rating)
class RatingAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "league__club"
    list_display = ("player", "league", "ordinal_display", "mu", "sigma", "matches")
    list_filter = (
        ("league__club", Scoped),
        ("league", Scoped),
    )
    search_fields = ("player__username", "player__display_name")
    readonly_fields = ("league", "player", "mu", "sigma", "matches")

    @admin.display(description="ordinal")
    def ordinal_display(self, rating):
        return f"{rating.ordinal:.2f}"

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

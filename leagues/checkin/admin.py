"""Check-ins in the admin: read only, scoped to the organiser's clubs."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import CheckIn


@admin.register(CheckIn)
class CheckInAdmin(ClubScoped, admin.ModelAdmin):
    """Read only: members check in themselves, and the night's page undoes it."""

    club_path = "night__season__league__club"
    list_display = ("player", "night", "checked_in_at")
    list_filter = (("night__season__league__club", Scoped), ("night__season", Scoped))
    search_fields = ("player__username", "player__display_name")
    date_hierarchy = "checked_in_at"
    list_select_related = ("player", "night__season__league")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

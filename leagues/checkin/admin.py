"""Check-ins in the admin: read only, scoped to the organiser's clubs, and shown on the
night too (`CheckInInline`)."""

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


class CheckInInline(ClubScoped, admin.TabularInline):
    """Read only: members check in themselves, from the night's page or its door sign."""

    model = CheckIn
    club_path = "night__season__league__club"
    parent_club_path = "season__league__club"
    organiser_can_add = False
    extra = 0
    fields = ("player", "checked_in_at")
    readonly_fields = fields
    can_delete = False

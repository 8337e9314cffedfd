"""Teams and line-ups in the admin: read only (the teams page makes and changes them,
through the services that keep a member on one team and a team to its size), scoped
to the organiser's clubs; a team may be deleted."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import LineUp, Team, TeamMember


class TeamMemberInline(ClubScoped, admin.TabularInline):
    model = TeamMember
    club_path = "team__league__club"
    parent_club_path = "league__club"
    fields = ("player", "is_captain")
    readonly_fields = fields
    extra = 0
    organiser_can_add = False
    organiser_can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Team)
class TeamAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "league__club"
    list_display = ("name", "league")
    list_filter = (("league__club", Scoped), ("league", Scoped))
    search_fields = ("name", "members__player__username", "members__player__display_name")
    readonly_fields = ("league", "name", "created_at")
    inlines = [TeamMemberInline]
    organiser_can_add = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(LineUp)
class LineUpAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "team__league__club"
    list_display = ("team", "night", "set_by", "set_at")
    list_filter = (("team__league__club", Scoped), ("team__league", Scoped))
    readonly_fields = ("team", "night", "players", "set_by", "set_at")
    list_select_related = ("team", "night__season", "set_by")

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

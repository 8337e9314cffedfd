"""Clubs, their members and their leagues in the admin; an organiser sees their own clubs."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from ..admin_scope import ClubScoped, Scoped
from ..models import Club, League, Membership


class MembershipInline(ClubScoped, admin.TabularInline):
    model = Membership
    club_path = "club"
    parent_club_path = ""
    extra = 0


@admin.register(Club)
class ClubAdmin(ClubScoped, admin.ModelAdmin):
    organiser_can_add = False
    organiser_can_delete = False
    list_display = ("name", "slug", "member_count", "league_count")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                members_n=Count("memberships", distinct=True),
                leagues_n=Count("leagues", distinct=True),
            )
        )

    @admin.display(description="members", ordering="members_n")
    def member_count(self, club):
        return club.members_n

    @admin.display(description="leagues", ordering="leagues_n")
    def league_count(self, club):
        return club.leagues_n

    def has_add_permission(self, request, obj=None):
        return request.user.is_superuser


@admin.register(League)
class LeagueAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "club"
    list_display = (
        "name",
        "club",
        "variant",
        "house_rules",
        "points_per_place",
        "night_points",
        "points_from",
    )
    list_filter = (
        ("club", Scoped),
        "variant",
        "night_points",
        "points_from",
    )
    search_fields = ("name", "club__name")

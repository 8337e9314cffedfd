"""Clubs, their members and their leagues in the admin; an organiser sees their own clubs.
A superuser approves a club waiting for it, suspends a club, or lets it run again."""

from __future__ import annotations

from django.contrib import admin, messages
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
    list_display = ("name", "slug", "status", "member_count", "league_count")
    list_filter = ("status",)
    search_fields = ("name", "slug")
    actions = ["approve", "suspend"]
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

    def get_readonly_fields(self, request, obj=None):
        # Only a superuser approves or suspends a club.
        fields = super().get_readonly_fields(request, obj)
        return fields if request.user.is_superuser else (*fields, "status")

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not request.user.is_superuser:
            actions.pop("approve", None)
            actions.pop("suspend", None)
        return actions

    @admin.action(description="Approve, or let run again, the selected clubs")
    def approve(self, request, queryset):
        changed = queryset.exclude(status=Club.Status.ACTIVE).update(status=Club.Status.ACTIVE)
        self.message_user(request, f"{changed} club(s) run now.", messages.SUCCESS)

    @admin.action(description="Suspend the selected clubs (their pages read only)")
    def suspend(self, request, queryset):
        changed = queryset.exclude(status=Club.Status.SUSPENDED).update(
            status=Club.Status.SUSPENDED
        )
        self.message_user(request, f"{changed} club(s) suspended.", messages.SUCCESS)


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

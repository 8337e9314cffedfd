"""Night boards' links in the admin: read only, revoked through the board's service."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import NightBoard
from . import services as board_services


@admin.register(NightBoard)
class NightBoardAdmin(ClubScoped, admin.ModelAdmin):
    """A night's board links: read only, revoked through the board's service, which
    closes the boards open on them."""

    club_path = "night__season__league__club"
    list_display = ("night", "created_by", "created_at", "revoked", "revoked_at")
    list_filter = (("night__season__league__club", Scoped), "revoked")
    readonly_fields = [f.name for f in NightBoard._meta.fields]
    actions = ["revoke"]

    @admin.action(description="Revoke the selected links (their boards close)")
    def revoke(self, request, queryset):
        for board in queryset.filter(revoked=False).select_related("night__season__league__club"):
            board_services.revoke_board(night=board.night, by=request.user)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

"""A club's invitations in the admin, to read: who was invited, by whom, and what came of
it. They are sent, sent again and withdrawn on the club's invitations page (a secret is
made only there, and only its hash is kept)."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import Invitation


@admin.register(Invitation)
class InvitationAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "club"
    list_display = ("email", "club", "invited_by", "sent_at", "accepted_at", "withdrawn_at")
    list_filter = (("club", Scoped),)
    search_fields = ("email", "name", "club__name")
    exclude = ("secret_hash",)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

"""A night's absences and substitutes, shown read only on the night in the admin."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped
from ..models import Absence, Substitute


class AbsenceInline(ClubScoped, admin.TabularInline):
    """Read only: absences are marked on the night's page, which checks them."""

    model = Absence
    club_path = "night__season__league__club"
    parent_club_path = "season__league__club"
    organiser_can_add = False
    extra = 0
    fields = ("player", "kind")
    readonly_fields = fields
    can_delete = False


class SubstituteInline(AbsenceInline):
    model = Substitute
    fields = ("member", "player", "guest_name")
    readonly_fields = fields

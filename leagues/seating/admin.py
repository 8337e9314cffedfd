"""A night's tables in the admin: read only, scoped to the organiser's clubs."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import NightTable


class NightTableInline(ClubScoped, admin.TabularInline):
    model = NightTable
    club_path = "night__season__league__club"
    parent_club_path = "season__league__club"
    organiser_can_add = False
    extra = 0
    fields = ("number", "table", "kind", "status")
    readonly_fields = ("number", "table", "kind", "status")
    can_delete = False

    @admin.display(description="kind")
    def kind(self, night_table):
        return night_table.table.get_kind_display()

    @admin.display(description="status")
    def status(self, night_table):
        return night_table.table.get_status_display()


@admin.register(NightTable)
class NightTableAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "night__season__league__club"
    organiser_can_add = False
    list_display = ("__str__", "number", "night", "kind", "status", "players")
    list_filter = (
        ("night__season__league__club", Scoped),
        ("night__season", Scoped),
        ("night", Scoped),
        "table__kind",
    )
    search_fields = ("table__scorecards__name", "night__season__league__name")
    readonly_fields = ("night", "table", "number")
    list_select_related = ("night__season__league", "table")

    @admin.display(description="kind", ordering="table__kind")
    def kind(self, night_table):
        return night_table.table.get_kind_display()

    @admin.display(description="status", ordering="table__status")
    def status(self, night_table):
        return night_table.table.get_status_display()

    @admin.display(description="players")
    def players(self, night_table):
        return ", ".join(seat.name for seat in night_table.table.seats.all())

"""Seasons and nights in the admin; a night shows its rooms' records (tables, check-ins,
absences, substitutes, frozen handicaps) read only, each room's inline."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Count

from ..admin_scope import ClubScoped, Scoped
from ..attendance.admin import AbsenceInline, SubstituteInline
from ..checkin.admin import CheckInInline
from ..handicaps.admin import NightHandicapInline
from ..models import LeagueNight, Season
from ..seating.admin import NightTableInline
from ..seating.online import queue_steps


@admin.register(Season)
class SeasonAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "league__club"
    list_display = ("name", "league", "club_name", "start", "end")
    list_filter = (
        ("league__club", Scoped),
        ("league", Scoped),
    )
    search_fields = ("name", "league__name", "league__club__name")
    date_hierarchy = "start"

    @admin.display(description="club", ordering="league__club__name")
    def club_name(self, season):
        return season.league.club.name


@admin.register(LeagueNight)
class LeagueNightAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "season__league__club"
    list_display = ("date", "season", "club_name", "duplicate_deals", "online", "table_count")
    list_filter = (
        ("season__league__club", Scoped),
        ("season", Scoped),
        "duplicate_deals",
        "online",
    )
    readonly_fields = ("opened_at", "played_out_at")
    search_fields = ("season__name", "season__league__name")
    date_hierarchy = "date"
    filter_horizontal = ("players",)
    inlines = [
        NightTableInline,
        CheckInInline,
        AbsenceInline,
        SubstituteInline,
        NightHandicapInline,
    ]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(tables_n=Count("tables", distinct=True))

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # An online round's opening and play-out are queued for their (new) times.
        if {"online", "opens_at", "due_at"} & set(form.changed_data):
            queue_steps(obj)

    @admin.display(description="club", ordering="season__league__club__name")
    def club_name(self, night):
        return night.season.league.club.name

    @admin.display(description="tables", ordering="tables_n")
    def table_count(self, night):
        return night.tables_n

"""Events in the admin: their settings, entries and pairs kept apart, scoped by club.
Rounds and their tables are the system's: read only here."""

from __future__ import annotations

from django.contrib import admin

from ..admin_scope import ClubScoped, Scoped
from ..models import Event, EventApart, EventEntry, EventRound


class EntryInline(ClubScoped, admin.TabularInline):
    model = EventEntry
    club_path = "event__club"
    parent_club_path = "club"
    extra = 0
    fields = ("player", "late", "checked_in_at", "dropped")
    raw_id_fields = ("player",)


class ApartInline(ClubScoped, admin.TabularInline):
    model = EventApart
    club_path = "event__club"
    parent_club_path = "club"
    extra = 0
    raw_id_fields = ("first", "second")


@admin.register(Event)
class EventAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "club"
    list_display = ("name", "club", "format", "status", "starts_at")
    list_filter = (("club", Scoped), "format", "status")
    readonly_fields = ("status", "finished_at", "champion", "created_by")
    raw_id_fields = ("champion",)
    inlines = [EntryInline, ApartInline]


@admin.register(EventRound)
class EventRoundAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "event__club"
    list_display = ("event", "number", "seated_at", "deadline", "closed_at")
    list_filter = (("event__club", Scoped),)
    readonly_fields = [f.name for f in EventRound._meta.fields]
    organiser_can_add = False
    organiser_can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

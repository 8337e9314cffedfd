from django.contrib import admin

from . import deal_visibility
from .models import ChatMessage, Hole, Move, Scorecard, ScorecardHole, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "variant",
        "house_rules",
        "kind",
        "status",
        "host",
        "seat_count",
        "created_at",
    )
    list_filter = ("variant", "kind", "status")
    inlines = [SeatInline]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    readonly_fields = ("seq", "seat", "action", "by_bot", "created_at")
    can_delete = False


@admin.register(Hole)
class HoleAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "dealer", "version", "finished_at")
    inlines = [MoveInline]
    readonly_fields = ("state",)

    def get_queryset(self, request):
        hidden = deal_visibility.unplayed_deals(request.user).hidden_tables("table__")
        return super().get_queryset(request).exclude(hidden)


class ScorecardHoleInline(admin.TabularInline):
    model = ScorecardHole
    extra = 0


@admin.register(Scorecard)
class ScorecardAdmin(admin.ModelAdmin):
    list_display = ("name", "table", "total", "place")
    inlines = [ScorecardHoleInline]

    def get_queryset(self, request):
        hidden = deal_visibility.unplayed_deals(request.user).hidden_tables("table__")
        return super().get_queryset(request).exclude(hidden)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "table", "author", "text", "hidden", "created_at")
    list_filter = ("hidden",)
    raw_id_fields = ("table", "author", "hidden_by")

"""Paper tables' reports in the admin: read only, scoped to the organiser's clubs."""

from __future__ import annotations

from django.contrib import admin

from .. import deal_results
from ..admin_scope import ClubScoped, Scoped
from ..models import ReportedHole, TableReport


class ReportedHoleInline(ClubScoped, admin.TabularInline):
    """A report's holes, to read: they change through the report page, which keeps each
    hole's version and logs a change to confirmed strokes as a correction."""

    model = ReportedHole
    parent_club_path = "night_table__night__season__league__club"
    fields = readonly_fields = (
        "number", "strokes", "state", "entered_by", "checked_by", "dispute_reason",
        "change_reason", "version", "updated_at",
    )  # fmt: skip
    extra = 0
    can_delete = False


@admin.register(TableReport)
class TableReportAdmin(ClubScoped, admin.ModelAdmin):
    """A paper table's code, and what its players reported hole by hole."""

    club_path = "night_table__night__season__league__club"
    list_display = ("night_table", "code", "confirmed", "waiting", "disputed", "created_at")
    list_filter = (("night_table__night__season__league__club", Scoped),)
    search_fields = ("code",)
    readonly_fields = ("night_table", "code", "created_at")
    inlines = [ReportedHoleInline]

    def get_queryset(self, request):
        hidden = deal_results.hidden_scorecards(request.user, "night_table__table__")
        return super().get_queryset(request).exclude(hidden).prefetch_related("holes")

    def _count(self, report, state) -> int:
        return sum(hole.state == state for hole in report.holes.all())

    @admin.display(description="confirmed")
    def confirmed(self, report):
        return self._count(report, ReportedHole.State.CONFIRMED)

    @admin.display(description="waiting")
    def waiting(self, report):
        return self._count(report, ReportedHole.State.ENTERED)

    @admin.display(description="disputed")
    def disputed(self, report):
        return self._count(report, ReportedHole.State.DISPUTED)

    def has_add_permission(self, request, obj=None):
        return False

"""The admin for players, clubs, leagues, seasons, nights, tables, scorecards and corrections.

Superusers see everything. An organiser who is staff but not a superuser sees and
changes only the records of the clubs they organise; Django's model permissions are
not needed for that, the club membership decides. A changed hole on a scorecard is
saved as a correction (with its reason) through the results room's service
(`leagues.results.services.correct_score`).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db.models import Count

from games.engine.match import HOLES
from games.models import ScorecardHole, hole_name
from games.scorecards import HandScoreError, check_hand_scores, hole_scores

from . import deal_results
from .admin_scope import ClubScoped, Scoped

# Each room's own admin registers its models.
from .board import admin as board_admin  # noqa: F401
from .checkin import admin as checkin_admin  # noqa: F401
from .events import admin as events_admin  # noqa: F401
from .models import (
    Absence,
    CheckIn,
    Club,
    League,
    LeagueNight,
    LeagueScorecard,
    Membership,
    NightHandicap,
    NightTable,
    Player,
    Rating,
    ScoreCorrection,
    Season,
    Substitute,
)
from .reporting import admin as reporting_admin  # noqa: F401
from .results import services
from .teams import admin as teams_admin  # noqa: F401


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
        ("Fairway", {"fields": ("display_name",)}),
    )
    add_fieldsets = (
        *UserAdmin.add_fieldsets,
        ("Fairway", {"fields": ("display_name",)}),
    )
    list_display = ("username", "display_name", "email", "is_staff", "date_joined")
    search_fields = ("username", "display_name", "email")


# --- Clubs, leagues, seasons, nights ---------------------------------------------------


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


class CheckInInline(AbsenceInline):
    """Read only: members check in themselves, from the night's page or its door sign."""

    model = CheckIn
    fields = ("player", "checked_in_at")
    readonly_fields = fields


class SubstituteInline(AbsenceInline):
    model = Substitute
    fields = ("member", "player", "guest_name")
    readonly_fields = fields


class NightHandicapInline(ClubScoped, admin.TabularInline):
    """Read only: a night's handicaps are frozen when it is seated."""

    model = NightHandicap
    club_path = "night__season__league__club"
    parent_club_path = "season__league__club"
    organiser_can_add = False
    extra = 0
    fields = ("player", "handicap", "frozen_at")
    readonly_fields = fields
    can_delete = False
    verbose_name = "frozen handicap"

    @admin.display(description="handicap (strokes a hole)")
    def handicap(self, frozen):
        return f"{float(frozen.value):+.1f}"


@admin.register(LeagueNight)
class LeagueNightAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "season__league__club"
    list_display = ("date", "season", "club_name", "duplicate_deals", "table_count")
    list_filter = (
        ("season__league__club", Scoped),
        ("season", Scoped),
        "duplicate_deals",
    )
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

    @admin.display(description="club", ordering="season__league__club__name")
    def club_name(self, night):
        return night.season.league.club.name

    @admin.display(description="tables", ordering="tables_n")
    def table_count(self, night):
        return night.tables_n


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


# --- Scorecards and corrections --------------------------------------------------------


class HoleCorrectionForm(forms.ModelForm):
    """A hole's strokes with the reason any change needs."""

    reason = forms.CharField(
        required=False, max_length=500, help_text="Needed when the strokes change."
    )

    class Meta:
        model = ScorecardHole
        fields = ("strokes",)

    def clean(self):
        data = super().clean()
        if "strokes" in self.changed_data and not (data.get("reason") or "").strip():
            self.add_error("reason", "A correction needs a reason.")
        return data


class HoleCorrectionFormSet(forms.BaseInlineFormSet):
    """Refuses changes that would break the match rules, before anything is saved."""

    def clean(self):
        super().clean()
        changed = [f for f in self.forms if f.instance.pk and "strokes" in f.changed_data]
        if not changed or any(f.errors for f in self.forms):
            return
        table = self.instance.table
        season = table.night_table.night.season
        if season.is_closed:
            raise forms.ValidationError(
                f"{season.name} is closed: its standings are frozen and its scores stay as "
                "they were."
            )
        if table.status != table.Status.FINISHED:
            return
        grid = hole_scores(table)
        numbers = sorted(
            set(
                ScorecardHole.objects.filter(scorecard__table=table).values_list(
                    "number", flat=True
                )
            )
        )
        for form in changed:
            grid[numbers.index(form.instance.number)][self.instance.position] = form.cleaned_data[
                "strokes"
            ]
        names = list(table.scorecards.order_by("position").values_list("name", flat=True))
        try:
            check_hand_scores(table.rules, grid, names)
        except HandScoreError as error:
            problems = [p.message for p in error.problems]
            if numbers and numbers[-1] > HOLES:
                problems.append(
                    "A correction that makes the playoff unnecessary can remove its holes: "
                    "use “Correct a score” on the night's page."
                )
            raise forms.ValidationError(problems) from None


class ScorecardHoleInline(ClubScoped, admin.TabularInline):
    model = ScorecardHole
    club_path = "scorecard__table__night_table__night__season__league__club"
    parent_club_path = "table__night_table__night__season__league__club"
    form = HoleCorrectionForm
    formset = HoleCorrectionFormSet
    fields = ("hole", "strokes", "reason")
    readonly_fields = ("hole",)
    extra = 0
    can_delete = False
    organiser_can_add = False
    organiser_can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="hole")
    def hole(self, scorecard_hole):
        return hole_name(scorecard_hole.number)


@admin.register(LeagueScorecard)
class LeagueScorecardAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "table__night_table__night__season__league__club"
    organiser_can_add = False
    organiser_can_delete = False
    list_display = ("name", "player", "night", "table_number", "total", "place")
    list_filter = (
        ("table__night_table__night__season__league__club", Scoped),
        ("table__night_table__night__season", Scoped),
        ("table__night_table__night", Scoped),
    )
    search_fields = ("name", "player__username", "player__display_name")
    list_select_related = ("player", "table__night_table__night__season__league")
    fields = ("name", "player", "table", "position", "total", "place")
    readonly_fields = fields
    inlines = [ScorecardHoleInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .filter(table__night_table__isnull=False)
            .exclude(deal_results.hidden_scorecards(request.user))
        )

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="night", ordering="table__night_table__night__date")
    def night(self, card):
        return card.table.night_table.night

    @admin.display(description="table", ordering="table__night_table__number")
    def table_number(self, card):
        return card.table.night_table.number

    def save_formset(self, request, form, formset, change):
        if formset.model is not ScorecardHole:
            return super().save_formset(request, form, formset, change)
        # What formset.save() would have recorded, for the admin's change message.
        formset.new_objects, formset.deleted_objects, formset.changed_objects = [], [], []
        for hole_form in formset.forms:
            if hole_form.instance.pk and "strokes" in hole_form.changed_data:
                formset.changed_objects.append((hole_form.instance, ["strokes"]))
                services.correct_score(
                    scorecard=form.instance,
                    number=hole_form.instance.number,
                    strokes=hole_form.cleaned_data["strokes"],
                    reason=hole_form.cleaned_data["reason"],
                    by=request.user,
                )


@admin.register(ScoreCorrection)
class ScoreCorrectionAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "scorecard__table__night_table__night__season__league__club"
    list_display = (
        "corrected_at",
        "scorecard",
        "hole",
        "old_strokes",
        "new_strokes",
        "corrected_by",
        "reason",
    )
    list_filter = (
        ("scorecard__table__night_table__night__season__league__club", Scoped),
        ("scorecard__table__night_table__night__season", Scoped),
    )
    search_fields = ("scorecard__name", "reason", "corrected_by__username")
    readonly_fields = [f.name for f in ScoreCorrection._meta.fields]

    def get_queryset(self, request):
        hidden = deal_results.hidden_scorecards(request.user, "scorecard__table__")
        return super().get_queryset(request).exclude(hidden)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    @admin.display(description="hole", ordering="hole_number")
    def hole(self, correction):
        return correction.hole_name


@admin.register(Rating)
class RatingAdmin(ClubScoped, admin.ModelAdmin):
    club_path = "league__club"
    list_display = ("player", "league", "ordinal_display", "mu", "sigma", "matches")
    list_filter = (
        ("league__club", Scoped),
        ("league", Scoped),
    )
    search_fields = ("player__username", "player__display_name")
    readonly_fields = ("league", "player", "mu", "sigma", "matches")

    @admin.display(description="ordinal")
    def ordinal_display(self, rating):
        return f"{rating.ordinal:.2f}"

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

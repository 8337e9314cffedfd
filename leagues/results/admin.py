"""Scorecards and corrections in the admin. A changed hole on a scorecard is saved as a
correction (with its reason) through the results room's service (`services.correct_score`)."""

from __future__ import annotations

from django import forms
from django.contrib import admin

from games.engine.match import HOLES
from games.models import ScorecardHole, hole_name
from games.scorecards import PaperScoreError, check_paper_scores, hole_scores

from .. import deal_results
from ..admin_scope import ClubScoped, Scoped
from ..models import LeagueScorecard, ScoreCorrection
from . import services


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
            check_paper_scores(table.rules, grid, names)
        except PaperScoreError as error:
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
    club_path = "league__club"
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
        ("league__club", Scoped),
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

"""The admin's scoping by club: an organiser who is staff but not a superuser sees and
changes only the records of the clubs they organise (`ClubScoped`), in every room's
admin."""

from __future__ import annotations

from django.contrib import admin

from .clubs.selectors import organised_clubs
from .models import Club, League, LeagueNight, Season

#: A relation filter whose choices come from the (club-scoped) queryset.
Scoped = admin.RelatedOnlyFieldListFilter


# --- Scoping by club -------------------------------------------------------------------


def _club_of(obj, path: str) -> Club:
    for part in filter(None, path.split("__")):
        obj = getattr(obj, part)
    return obj


class ClubScoped:
    """Limits an admin (or inline) to the clubs the user organises.

    `club_path` is the lookup from the model to its Club ("" for Club itself);
    `organiser_can_add` / `organiser_can_delete` say what organisers may do
    beyond viewing and changing.
    """

    club_path = ""
    #: For an inline: the lookup from the parent object (what permission checks get).
    parent_club_path: str | None = None
    organiser_can_add = True
    organiser_can_delete = True

    def _clubs(self, request):
        if not hasattr(request, "_organised_club_ids"):
            request._organised_club_ids = set(
                organised_clubs(request.user).values_list("pk", flat=True)
            )
        return request._organised_club_ids

    def _allowed(self, request, obj=None) -> bool:
        if not request.user.is_active or not request.user.is_staff:
            return False
        clubs = self._clubs(request)
        if obj is None:
            return bool(clubs)
        path = self.parent_club_path if self.parent_club_path is not None else self.club_path
        return _club_of(obj, path).pk in clubs

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        lookup = f"{self.club_path}__in" if self.club_path else "pk__in"
        return queryset.filter(**{lookup: self._clubs(request)}).distinct()

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if not request.user.is_superuser:
            paths = {Club: "pk", League: "club", Season: "league__club"}
            paths[LeagueNight] = "season__league__club"
            model = db_field.related_model
            if model in paths:
                # Only an active club's records take new ones (a held club's are read only).
                status = "status" if model is Club else f"{paths[model]}__status"
                kwargs["queryset"] = model.objects.filter(
                    **{f"{paths[model]}__in": self._clubs(request), status: Club.Status.ACTIVE}
                )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request):
        return request.user.is_superuser or self._allowed(request)

    def has_view_permission(self, request, obj=None):
        return request.user.is_superuser or self._allowed(request, obj)

    def _writable(self, request, obj=None) -> bool:
        """An organiser's writes: their club's records, while the club is active (one
        waiting for approval or suspended is read only, in the admin as on its pages)."""
        if not self._allowed(request, obj):
            return False
        if obj is None:
            return True
        path = self.parent_club_path if self.parent_club_path is not None else self.club_path
        return _club_of(obj, path).is_active

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser or self._writable(request, obj)

    def has_add_permission(self, request, obj=None):
        if request.user.is_superuser:
            return True
        return self.organiser_can_add and self._writable(request, obj)

    def has_delete_permission(self, request, obj=None):
        if request.user.is_superuser:
            return True
        return self.organiser_can_delete and self._writable(request, obj)

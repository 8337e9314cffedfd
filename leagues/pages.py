"""What every league page shares: who may open it, the records its address names, and
the trail of records above it that its breadcrumb shows.

Who may do what: anonymous visitors are sent to log in; a club's pages are 404 for
anyone outside it (they do not learn it exists); members may look; only organisers
change anything (403 for a member who tries).
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Club, League, LeagueNight, NightTable, Season
from .roles import role_in

#: The session key under which the seating form's last choices are offered again.
SEATING_CHOICES_KEY = "leagues:seating"


def member_role(request: HttpRequest, club: Club) -> str:
    """The visitor's role in `club`; 404 for anyone outside it."""
    role = role_in(request.user, club)
    if role is None:
        raise Http404("No such club.")
    return role


def organiser_only(request: HttpRequest, club: Club) -> None:
    """404 outside the club, 403 for a member who is not an organiser."""
    if member_role(request, club) != "organiser":
        raise PermissionDenied("Only the club's organisers may do that.")


def league_or_404(league_id: int) -> League:
    return get_object_or_404(League.objects.select_related("club"), pk=league_id)


def season_or_404(season_id: int) -> Season:
    return get_object_or_404(Season.objects.select_related("league__club"), pk=season_id)


def night_or_404(night_id: int) -> LeagueNight:
    return get_object_or_404(
        LeagueNight.objects.select_related("season__league__club"), pk=night_id
    )


def night_table_or_404(night_table_id: int) -> NightTable:
    return get_object_or_404(
        NightTable.objects.select_related("table", "night__season__league__club"),
        pk=night_table_id,
    )


def crumbs(
    record: League | Season | LeagueNight | NightTable, *, public: bool = False
) -> dict[str, object]:
    """`record` and the records above it, by the names the page templates give them
    (`night_table`, `night`, `season`, `league`, `club`): the breadcrumb's trail.

    A public page's trail stops at the league: its club has no public page.
    """
    trail: dict[str, object] = {}
    if isinstance(record, NightTable):
        trail["night_table"] = record
        record = record.night
    if isinstance(record, LeagueNight):
        trail["night"] = record
        record = record.season
    if isinstance(record, Season):
        trail["season"] = record
        record = record.league
    trail["league"] = record
    if not public:
        trail["club"] = record.club
    return trail

"""A season's standings as a CSV download (the season's page shows them)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from .. import deal_results
from ..exports import csv_response
from ..pages import member_role, season_or_404


@require_GET
@login_required
def standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's standings as a CSV download."""
    season = season_or_404(season_id)
    member_role(request, season.league.club)
    filename = f"{slugify(season.league.name)}-{slugify(season.name)}-standings.csv"
    response, writer = csv_response(filename)
    writer.writerow(
        ["place", "player", "matches", "holes", "strokes", "strokes_per_hole", "wins",
         "points", "movement", "net_strokes", "net_per_hole", "nights_away", "byes",
         "points_for_away_and_byes"]
    )  # fmt: skip
    for row in deal_results.standings(season, request.user):
        movement = "new" if row.is_new else ("" if row.movement is None else row.movement)
        writer.writerow(
            [row.place, row.player.name, row.matches, row.holes, row.strokes,
             row.mean_display, row.wins, row.points, movement, row.net_display,
             row.net_mean_display, row.absences, row.byes, row.missed_points]
        )  # fmt: skip
    return response

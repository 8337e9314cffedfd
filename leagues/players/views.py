"""A player's page in a league: figures, charts of the latest matches and ratings, and
the matches a page at a time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .. import deal_results
from ..clubs.selectors import may_see_player
from ..handicaps import selectors as handicaps
from ..models import Player
from ..pages import crumbs, league_or_404
from ..ratings.selectors import rating_history
from . import charts, selectors


@require_GET
@login_required
def player(request: HttpRequest, league_id: int, player_id: int) -> HttpResponse:
    """A player's record in a league: their figures over every match, charts of their
    latest matches and ratings, and their matches a page at a time (`?page=`), newest
    first.

    404 unless the visitor shares the league with the player (`may_see_player`), so
    that nobody reads the names of people outside their leagues by trying ids.
    """
    league = league_or_404(league_id)
    person = Player.objects.filter(pk=player_id).first()
    if person is None or not may_see_player(request.user, person, league):
        raise Http404("No such player in this league.")
    hidden = deal_results.hidden_scorecards(request.user)
    record = selectors.player_record(league, person, leave_out=hidden)
    page = selectors.matches_page(
        league, person, request.GET.get("page"), leave_out=hidden, record=record
    )
    history = rating_history(league, person, latest=selectors.RECENT_MATCHES)
    strokes_chart = charts.line_chart(
        [(f"{line.date:%d %b}", line.card.total) for line in record.matches]
    )
    rating_chart = charts.line_chart(
        [(f"{c.night_table.night.date:%d %b}", c.ordinal) for c in history], digits=1
    )
    given_away_chart = charts.line_chart(
        [(f"{day:%d %b}", away) for day, away in selectors.given_away_by_match(record)],
        digits=1,
    )
    given_away_nights = selectors.given_away_by_night(record)
    rating = league.ratings.filter(player=person).first()
    return render(
        request,
        "leagues/player.html",
        {
            **crumbs(league),
            "person": person,
            "record": record,
            "page": page,
            "recent_matches": selectors.RECENT_MATCHES,
            "rating": rating,
            "history": history,
            "strokes_chart": strokes_chart,
            "rating_chart": rating_chart,
            "given_away_chart": given_away_chart,
            "given_away_nights": given_away_nights,
            "spread_chart": charts.histogram(record.spread),
            "handicap": handicaps.display(handicaps.worked_out(league, [person.pk])[person.pk]),
            "handicap_rule": handicaps.HANDICAP_RULE,
        },
    )

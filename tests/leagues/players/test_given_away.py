"""The player page charts the strokes a player gave away a hole, match by match."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Hole, HoleReview
from leagues.players.selectors import given_away_by_match, given_away_by_night, player_record
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

#: A decision as a review stores it (its figures play no part here).
DECISION = {"version": 3, "played": {"type": "flip", "position": 0}, "cost": 0.5}


def _reviewed(night_table, position, given):
    for number, away in enumerate(given, start=1):
        hole = Hole.objects.create(
            table=night_table.table,
            number=number,
            dealer=0,
            seat_positions=[0, 1],
            finished_at=timezone.now(),
        )
        HoleReview.objects.create(
            hole=hole, position=position, given_away=away, samples=1, decisions=[DECISION]
        )


def test_the_trend_is_the_mean_given_away_a_reviewed_hole_per_match(client):
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    league = make_league(make_club(organiser=make_player(), members=[ann, bea]))
    season = make_season(league)
    first = played_table(make_night(season, date(2026, 3, 1)), [ann, bea], even_holes(40, 45))
    second = played_table(make_night(season, date(2026, 3, 8)), [ann, bea], even_holes(38, 41))
    later = played_table(make_night(season, date(2026, 3, 15)), [ann, bea], even_holes(38, 41))
    _reviewed(first, 0, [2.0, 1.0])
    _reviewed(second, 0, [0.5])
    HoleReview.objects.create(
        hole=Hole.objects.get(table=second.table, number=1),
        position=1,
        given_away=9,
        samples=1,
        decisions=[DECISION],
    )
    # The third night's hole was played for Ann by a bot: no decision of hers, no figure.
    third = Hole.objects.create(
        table=later.table, number=1, dealer=0, seat_positions=[0, 1], finished_at=timezone.now()
    )
    HoleReview.objects.create(hole=third, position=0, given_away=0, samples=1)
    trend = given_away_by_match(player_record(league, ann))
    assert trend == [(date(2026, 3, 1), 1.5), (date(2026, 3, 8), 0.5)]
    client.force_login(ann)
    page = client.get(reverse("leagues:player", args=[league.pk, ann.pk])).content.decode()
    assert "Strokes given away per hole" in page and 'id="given-away-chart-title"' in page


def test_a_night_s_figure_is_given_away_a_reviewed_hole_over_all_its_matches(client):
    """Two matches on one night: their holes count alike (3.5 over 3 holes), not the
    mean of the two matches' means; another seat's review counts for nothing."""
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    league = make_league(make_club(organiser=make_player(), members=[ann, bea]))
    season = make_season(league)
    first_night = make_night(season, date(2026, 3, 1))
    early = played_table(first_night, [ann, bea], even_holes(40, 45))
    late = played_table(first_night, [bea, ann], even_holes(41, 39))
    second = played_table(make_night(season, date(2026, 3, 8)), [ann, bea], even_holes(38, 41))
    played_table(make_night(season, date(2026, 3, 15)), [ann, bea], even_holes(38, 41))
    _reviewed(early, 0, [2.0, 1.0])
    _reviewed(late, 1, [0.5])
    _reviewed(second, 0, [0.25, 0.75])
    HoleReview.objects.create(
        hole=Hole.objects.get(table=late.table, number=1),
        position=0,
        given_away=9,
        samples=1,
        decisions=[DECISION],
    )
    nights = given_away_by_night(player_record(league, ann))
    assert [(n.night.date, n.holes, n.total) for n in nights] == [
        (date(2026, 3, 1), 3, 3.5),
        (date(2026, 3, 8), 2, 1.0),
    ]
    assert nights[0].per_hole == pytest.approx(3.5 / 3) and nights[1].per_hole == 0.5
    client.force_login(bea)
    page = client.get(reverse("leagues:player", args=[league.pk, ann.pk])).content.decode()
    table = page.split('id="given-away-nights"', 1)[1].split("</table>", 1)[0]
    assert "<caption" in table
    rows = table.split("<tbody>", 1)[1].split("</tr>")[:-1]
    assert len(rows) == 2
    assert "1 Mar 2026" in rows[0] and ">3<" in rows[0] and ">3.5<" in rows[0]
    assert ">1.17<" in rows[0]
    assert "8 Mar 2026" in rows[1] and ">2<" in rows[1] and ">0.50<" in rows[1]

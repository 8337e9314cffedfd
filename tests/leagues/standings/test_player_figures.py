"""A player's figures kept over their cards: moved by each write, and put right by the
repair tool when they have drifted from their cards."""

from __future__ import annotations

from datetime import date

import pytest

from leagues.models import PlayerFigures
from leagues.players.selectors import player_record
from leagues.results.services import correct_score
from leagues.standings.services import rebuild_figures
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def test_a_correction_moves_the_players_figures_and_the_repair_tool_puts_drift_right():
    organiser = make_player("olive")
    ann, bea = make_player("ann"), make_player("bea")
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    season = make_season(league)
    first = played_table(make_night(season, date(2026, 3, 1)), [ann, bea], even_holes(20, 25))
    played_table(make_night(season, date(2026, 3, 8)), [ann, bea], even_holes(30, 22))
    record = player_record(league, ann)
    # Ann: 12 + 8 ones on night 1, 22 + 8 ones on night 2; one win.
    assert (record.played, record.wins, record.match_strokes) == (2, 1, 50)
    assert record.spread == [(1, 16), (12, 1), (22, 1)]

    # Her 12 corrected to 20 on night 1: Bea wins it, and Ann's figures move with it.
    card = first.table.scorecards.get(player=ann)
    correct_score(scorecard=card, number=1, strokes=20, reason="Misread", by=organiser)
    record = player_record(league, ann)
    assert (record.played, record.wins, record.match_strokes) == (2, 0, 58)
    assert record.spread == [(1, 16), (20, 1), (22, 1)]
    assert str(rebuild_figures(league=league)) == "every stored figure was right"

    # Figures that drifted from the cards are found, said and put right.
    PlayerFigures.objects.filter(player=ann).update(played=7, spread={"3": 1})
    assert str(rebuild_figures(league=league)) == (
        "0 card(s) scored differently, 0 added, 0 removed; 1 player(s)' figures differed"
    )
    record = player_record(league, ann)
    assert (record.played, record.spread) == (2, [(1, 16), (20, 1), (22, 1)])

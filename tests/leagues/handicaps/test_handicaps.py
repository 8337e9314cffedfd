"""Handicaps and net standings, worked out by hand for a league of two."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest
from django.urls import reverse

from leagues.duplicate import matchpoints
from leagues.handicaps import selectors as handicaps
from leagues.models import League, NightHandicap, NightTable
from leagues.players.selectors import player_record
from leagues.results.services import correct_score, enter_night_results
from leagues.seating.services import seat_night
from leagues.standings.selectors import season_standings
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
from tests.leagues.duplicate.test_duplicate import three_tables  # noqa: F401 (a fixture)
from tests.leagues.reference import by_night

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

ANN_NIGHT_1 = [1, 2, 3, 4, 5, 6, 7, 8, 9]  # 45
BEA_NIGHT_1 = [5, 5, 5, 5, 5, 6, 6, 6, 6]  # 49


@pytest.fixture
def two_nights():
    """Night 1: Ann 45, Bea 49. Night 2: Ann 30, Bea 40 (22 and 32 on hole 1, then 1s).

    Handicaps for night 1: none yet, so 0 each: net is gross, Ann wins.
    For night 2, from night 1's 18 holes: the league's mean is 94/18 = 47/9.
    Ann has 9 holes, so her best 5 count: 1..5, mean 3; handicap 3 - 47/9 = -20/9.
    Bea's best 5 are five 5s: 5 - 47/9 = -2/9.
    Net on night 2: Ann 30 + 20 = 50, Bea 40 + 2 = 42: Bea wins net.
    """
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    club = make_club(organiser=make_player(), members=[ann, bea])
    league = make_league(club, points="6,4,2,0")
    season = make_season(league)
    first = make_night(season, date(2026, 3, 1))
    holes = [list(pair) for pair in zip(ANN_NIGHT_1, BEA_NIGHT_1, strict=True)]
    played_table(first, [ann, bea], holes)
    second = make_night(season, date(2026, 3, 8))
    played_table(second, [ann, bea], even_holes(30, 40))
    return league, season, (first, second), (ann, bea)


def test_a_handicap_takes_the_best_ten_of_the_last_twenty_holes():
    # The last 20 are 1..20 (the five 20s before them drop out); the best 10 are 1..10.
    assert handicaps.handicap([20] * 5 + list(range(1, 21)), Fraction(5)) == Fraction(1, 2)
    # With 9 holes the best 5 count.
    assert handicaps.handicap(ANN_NIGHT_1, Fraction(47, 9)) == Fraction(-20, 9)
    assert handicaps.handicap([], Fraction(5)) == 0
    assert handicaps.display(Fraction(-20, 9)) == "-2.2"
    assert handicaps.display(Fraction(1, 2)) == "+0.5"
    assert handicaps.display(Fraction(0)) == "0.0"


def test_handicaps_are_frozen_from_the_nights_before(two_nights):
    league, _season, (first, second), (ann, bea) = two_nights
    nights = by_night(league)
    # Frozen as the first night's results were recorded: no holes before, so 0.
    assert nights[first.pk] == {ann.pk: 0, bea.pk: 0}
    assert nights[second.pk] == {ann.pk: Fraction(-20, 9), bea.pk: Fraction(-2, 9)}
    # For the next night, from all 36 holes: the league's mean is 164/36 = 41/9.
    # Ann's 18 holes: her best 9 are nine 1s, mean 1: 1 - 41/9 = -32/9.
    # Bea's best 9: eight 1s and a 5, mean 13/9: 13/9 - 41/9 = -28/9.
    assert nights[None] == {ann.pk: Fraction(-32, 9), bea.pk: Fraction(-28, 9)}
    # The stored figures give the next night's the same.
    assert handicaps.worked_out(league, [ann.pk, bea.pk]) == nights[None]


def test_gross_standings_go_by_strokes_as_played(two_nights):
    _league, season, _nights, (ann, bea) = two_nights
    rows = season_standings(season)
    table = [(r.place, r.player, r.points, r.wins) for r in rows]
    assert table == [(1, ann, 12, 2), (2, bea, 8, 0)]
    # Net is shown beside gross: Ann 45 + 50 = 95, Bea 49 + 42 = 91.
    assert [(r.net_strokes, r.net_display) for r in rows] == [(95, "95.0"), (91, "91.0")]


def test_net_standings_let_the_newer_player_win(two_nights):
    """Net: Ann 6 + 4 = 10, Bea 4 + 6 = 10, a net win each; net strokes per hole break
    the tie: Bea 91/18 = 5.06 before Ann 95/18 = 5.28."""
    league, season, _nights, (ann, bea) = two_nights
    league.points_from = League.Strokes.NET
    league.save()
    rows = season_standings(season)
    table = [(r.place, r.player, r.points, r.wins) for r in rows]
    assert table == [(1, bea, 10, 1), (2, ann, 10, 1)]
    assert [r.net_mean_display for r in rows] == ["5.06", "5.28"]
    record = player_record(league, ann)
    lines = [(m.handicap_display, m.net_display, m.place, m.points) for m in record.matches]
    assert lines == [
        ("0.0", "45.0", 1, 6),
        ("-2.2", "50.0", 2, 4),
    ]


def test_the_player_page_shows_the_handicap_and_its_formula(client, two_nights):
    league, _season, _nights, (ann, _bea) = two_nights
    client.force_login(ann)
    page = client.get(reverse("leagues:player", args=[league.pk, ann.pk])).content.decode()
    assert "-3.6" in page
    assert "best 10 of their last 20" in page


def test_net_matchpoints_compare_strokes_less_the_handicap(three_tables):  # noqa: F811
    """Dan plays off 2.5 a hole: 2.5 on hole 1 and -0.5 on the rest beat Ann and Gus on
    every deal (36 of 36). Ann: hole 1 beats Gus only, 2; then ties Gus, 8: 10. Gus:
    0 on hole 1, then ties Ann: 8."""
    _league, _season, night, people, _organiser = three_tables
    comparison = matchpoints.compare(night, handicaps={people["Dan"].pk: Fraction(5, 2)})
    results = {r.card.name: r for r in comparison.results}
    assert {name: results[name].matchpoints for name in ("Dan", "Ann", "Gus")} == {
        "Dan": 36,
        "Ann": 10,
        "Gus": 8,
    }
    assert results["Dan"].place == 1


def _seat(night, organiser, people) -> NightTable:
    night.players.set(people)
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=2)
    return night_table


def _enter(night_table, organiser, by_player: dict) -> None:
    """Enter a paper table's holes, given each player's nine strokes."""
    order = [seat.player for seat in night_table.table.seats.order_by("position")]
    holes = [list(row) for row in zip(*(by_player[p] for p in order), strict=True)]
    enter_night_results(night_table=night_table, hole_scores=holes, by=organiser)


def test_a_correction_to_an_earlier_night_leaves_a_later_nights_frozen_handicaps():
    """As in `two_nights`, but seated and entered as a club does. Seating night 2 freezes
    Ann's -20/9 and Bea's -2/9 (from night 1's holes); night 2's net: Ann 30 + 20 = 50,
    Bea 40 + 2 = 42.

    Ann's first hole of night 1 is then corrected from 1 to 10. Worked out afresh, the
    league's mean would be 103/18 and Ann's best 5 (2..6) mean 4: 4 - 103/18 = -31/18,
    her night 2 net 30 + 15.5 = 45.5; Bea's 5 - 103/18 = -13/18, 40 + 6.5 = 46.5: Ann
    would win night 2 net after the fact. Frozen, night 2 is as it was.
    """
    organiser = make_player("olive")
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    league.points_from = League.Strokes.NET
    league.save()
    season = make_season(league)
    first, second = make_night(season, date(2026, 3, 1)), make_night(season, date(2026, 3, 8))
    first_table = _seat(first, organiser, [ann, bea])
    assert by_night(league)[first.pk] == {ann.pk: 0, bea.pk: 0}
    _enter(first_table, organiser, {ann: ANN_NIGHT_1, bea: BEA_NIGHT_1})
    second_table = _seat(second, organiser, [ann, bea])
    _enter(second_table, organiser, {ann: [22] + [1] * 8, bea: [32] + [1] * 8})
    frozen = {ann.pk: Fraction(-20, 9), bea.pk: Fraction(-2, 9)}
    assert by_night(league)[second.pk] == frozen

    def night_2() -> list[tuple[str, str, int | None]]:
        lines = [line for line in player_record(league, ann).matches if line.date == second.date]
        lines += [line for line in player_record(league, bea).matches if line.date == second.date]
        return [(line.handicap_display, line.net_display, line.place) for line in lines]

    assert night_2() == [("-2.2", "50.0", 2), ("-0.2", "42.0", 1)]

    card = first_table.table.scorecards.get(player=ann)
    correct_score(scorecard=card, number=1, strokes=10, reason="Ten", by=organiser)
    assert by_night(league)[second.pk] == frozen
    assert night_2() == [("-2.2", "50.0", 2), ("-0.2", "42.0", 1)]
    # Night 1 itself moved: Ann 54 against Bea's 49.
    assert [(r.player, r.net_strokes) for r in season_standings(season)] == [
        (bea, 49 + 42),
        (ann, 54 + 50),
    ]
    # A night whose handicaps were never frozen has them worked out afresh from the
    # nights before when the repair tool scores it (as it does any such night kept from
    # before its figures were stored), and frozen then.
    NightHandicap.objects.filter(night=second).delete()
    assert by_night(league)[second.pk][ann.pk] == Fraction(-31, 18)
    rebuild_figures(league=league)
    assert night_2()[0] == ("-1.7", "45.5", 1)
    assert NightHandicap.objects.get(night=second, player=ann).value == Fraction(-31, 18)


def test_seating_a_night_again_keeps_the_handicaps_frozen_the_first_time():
    organiser = make_player("olive")
    ann, bea = make_player("ann"), make_player("bea")
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    season = make_season(league)
    first, second = make_night(season, date(2026, 3, 1)), make_night(season, date(2026, 3, 8))
    _enter(_seat(first, organiser, [ann, bea]), organiser, {ann: ANN_NIGHT_1, bea: BEA_NIGHT_1})
    _seat(second, organiser, [ann, bea])
    card = first.tables.get().table.scorecards.get(player=ann)
    correct_score(scorecard=card, number=1, strokes=10, reason="Ten", by=organiser)
    _seat(second, organiser, [ann, bea])
    assert by_night(league)[second.pk][ann.pk] == Fraction(-20, 9)
    assert NightHandicap.objects.filter(night=second).count() == 2


def test_a_handicap_counts_the_last_twenty_holes_across_the_cards_they_fall_on():
    """Ann's last 20 holes are nights 4 and 3 (all 5s) and the last two holes of night 2
    (1 and 2): her best 10 are 1, 2 and eight 5s, 43/10. The league's mean over every
    rated hole: Ann 0 + 3 + 90, Bea 4 x 27, over 72 holes, 67/24. Her handicap for the
    fifth night: 43/10 - 67/24 = 181/120, frozen when it is seated."""
    organiser = make_player("olive")
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    league = make_league(make_club(organiser=organiser, members=[ann, bea]))
    season = make_season(league)
    ann_nights = [[0] * 9, [0] * 7 + [1, 2], [5] * 9, [5] * 9]
    for number, strokes in enumerate(ann_nights, start=1):
        night = make_night(season, date(2026, 3, number))
        _enter(_seat(night, organiser, [ann, bea]), organiser, {ann: strokes, bea: [3] * 9})
    assert handicaps.worked_out(league, [ann.pk])[ann.pk] == Fraction(181, 120)
    assert by_night(league)[None][ann.pk] == Fraction(181, 120)
    fifth = make_night(season, date(2026, 3, 5))
    _seat(fifth, organiser, [ann, bea])
    assert NightHandicap.objects.get(night=fifth, player=ann).value == Fraction(181, 120)

"""CSV exports of standings and scorecards: headers, rows and download names."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from leagues.exports import safe_cell
from leagues.models import Absence, League, Membership
from tests.factories import even_holes, make_player, played_table

pytestmark = pytest.mark.django_db


def rows(response):
    return list(csv.reader(io.StringIO(response.content.decode("utf-8"))))


def test_standings_csv(client, club_night):
    cn = club_night
    cn.league.name = "Tuesday League"
    cn.league.save()
    cn.season.name = "Spring 2026"
    cn.season.save()
    played_table(cn.night, [cn.member, *cn.others], even_holes(30, 40, 35))
    client.force_login(cn.member)
    response = client.get(reverse("leagues:standings_csv", args=[cn.season.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="tuesday-league-spring-2026-standings.csv"'
    )
    assert rows(response) == [
        ["place", "player", "matches", "holes", "strokes", "strokes_per_hole", "wins", "points",
         "movement", "net_strokes", "net_per_hole", "nights_away", "byes",
         "points_for_away_and_byes"],
        # A first night: everyone plays off 0, so net is gross.
        ["1", "Mia", "1", "9", "30", "3.33", "1", "6", "", "30.0", "3.33", "0", "0", "0"],
        ["2", "Pia", "1", "9", "35", "3.89", "0", "4", "", "35.0", "3.89", "0", "0", "0"],
        ["3", "Noah", "1", "9", "40", "4.44", "0", "2", "", "40.0", "4.44", "0", "0", "0"],
    ]  # fmt: skip


def test_standings_csv_counts_nights_away_and_the_points_they_earned(client, club_night):
    cn = club_night
    League.objects.filter(pk=cn.league.pk).update(
        absence_points=League.Missed.FIXED, absence_fixed_points=2
    )
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 40))
    Absence.objects.create(night=cn.night, player=cn.others[1], kind=Absence.Kind.NOTICE)
    client.force_login(cn.member)
    got = rows(client.get(reverse("leagues:standings_csv", args=[cn.season.pk])))
    away = {row[1]: row[-3:] for row in got[1:]}
    assert away == {"Mia": ["0", "0", "0"], "Noah": ["0", "0", "0"], "Pia": ["1", "0", "2"]}


def test_scorecards_csv_has_a_row_per_card_and_a_column_per_hole(client, club_night):
    cn = club_night
    played_table(cn.night, [cn.member, cn.others[0]], even_holes(30, 31))
    client.force_login(cn.member)
    response = client.get(reverse("leagues:night_scorecards_csv", args=[cn.night.pk]))
    assert (
        response["Content-Disposition"] == 'attachment; filename="night-2026-03-01-scorecards.csv"'
    )
    got = rows(response)
    assert got[0] == ["table", "kind", "status", "player", *[f"hole_{n}" for n in range(1, 10)],
                      "total", "place"]  # fmt: skip
    # Table 1 has no results yet: empty holes, no place, and a status in the night
    # page's words (a paper table is never "playing" on the site).
    assert got[1] == ["1", "hand", "results to enter", "Mia", *[""] * 9, "0", ""]
    assert got[4] == ["2", "hand", "finished", "Mia", "22", *["1"] * 8, "30", "1"]
    assert got[5] == ["2", "hand", "finished", "Noah", "23", *["1"] * 8, "31", "2"]
    assert len(got) == 6


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
        ("+SUM(A1:A2)", "'+SUM(A1:A2)"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Mia", "Mia"),
        ("-", "'-"),
        ("-5", "-5"),
        ("-0.56", "-0.56"),
        (-5, -5),
        (3, 3),
    ],
)
def test_a_cell_a_spreadsheet_would_run_is_kept_as_text(value, cell):
    assert safe_cell(value) == cell


def test_formulas_in_names_are_neutralised_in_both_exports_and_numbers_stay_numbers(
    client, club_night
):
    cn = club_night
    evil = make_player("evil", display_name="=cmd|' /C calc'!A0")
    at = make_player("at", display_name="@SUM(1+1)")
    for player in (evil, at):
        Membership.objects.create(club=cn.club, player=player)
    holes = even_holes(20, 30)
    holes[1] = [-5, 1]
    played_table(cn.night, [evil, at], holes)
    client.force_login(cn.member)

    standings = rows(client.get(reverse("leagues:standings_csv", args=[cn.season.pk])))
    assert [row[1] for row in standings[1:]] == ["'=cmd|' /C calc'!A0", "'@SUM(1+1)"]
    assert standings[1][4] == str(sum(row[0] for row in holes))

    cards = rows(client.get(reverse("leagues:night_scorecards_csv", args=[cn.night.pk])))
    evil_row = next(row for row in cards if row[0] == "2" and row[3].endswith("A0"))
    assert evil_row[3] == "'=cmd|' /C calc'!A0"
    assert evil_row[4:13] == [str(row[0]) for row in holes]
    assert evil_row[5] == "-5"
    assert any(row[3] == "'@SUM(1+1)" for row in cards)

"""In a real browser: an organiser marks an absence and a substitute, and reads the standings."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from leagues.models import League
from tests.factories import (
    PASSWORD,
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = pytest.mark.e2e


def test_organiser_marks_an_absence_and_a_substitute_and_reads_the_standings(daphne_server, page):
    organiser = make_player("olive", display_name="Olive")
    ann, bea, cat, dan, eve = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan", "Eve")
    )
    club = make_club(organiser=organiser, members=[ann, bea, cat, dan, eve])
    league = make_league(club, points="6,3,1,0")
    League.objects.filter(pk=league.pk).update(
        absence_points=League.Missed.FIXED,
        absence_fixed_points=2,
        substitute_counts=League.SubstituteCounts.MEMBER,
    )
    season = make_season(league)
    # Last week: Ann 30, Bea 40, Cat 50, Dan 60 -> 6, 3, 1, 0.
    played_table(
        make_night(season, date(2026, 3, 3)), [ann, bea, cat, dan], even_holes(30, 40, 50, 60)
    )
    night = make_night(season, date(2026, 3, 10))

    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(daphne_server.url + night.get_absolute_url())

    for name in ("Ann", "Bea", "Cat"):
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Save players present").click()
    expect(page.get_by_text("3 players present.")).to_be_visible()

    # Dan sent word he cannot come; Cat has to leave, and Eve plays for her.
    page.get_by_label("Member away", exact=True).select_option(label="Dan")
    page.get_by_label("With notice").check()
    page.get_by_role("button", name="Mark away").click()
    expect(page.get_by_text("Dan: Absent, with notice.")).to_be_visible()
    page.get_by_label("Plays for", exact=True).select_option(label="Cat")
    page.get_by_label("Substitute (a member)").select_option(label="Eve")
    page.get_by_role("button", name="Name substitute").click()
    expect(page.get_by_text("Eve plays for Cat.")).to_be_visible()
    away = page.locator("#away")
    expect(away).to_contain_text("Dan: Absent, with notice")
    expect(away).to_contain_text("Cat: Eve plays for them")
    expect(away).to_contain_text("An absence with notice earns 2 points")

    # Nonsense is refused, with a reason, and changes nothing.
    page.get_by_label("Plays for", exact=True).select_option(label="Ann")
    page.get_by_role("button", name="Name substitute").click()
    expect(page.get_by_role("alert")).to_contain_text("Name one substitute")

    page.get_by_label("Seats per table").fill("3")
    page.get_by_role("button", name="Seat players").click()
    expect(page.get_by_text("Players seated at 1 tables.")).to_be_visible()
    page.get_by_role("link", name="Enter results").click()
    totals = {"Ann": 40, "Bea": 30, "Eve": 35}
    for name, total in totals.items():
        page.get_by_label(f"{name}, hole 1", exact=True).fill(str(total - 8))
        for number in range(2, 10):
            page.get_by_label(f"{name}, hole {number}", exact=True).fill("1")
    page.get_by_role("button", name="Save results").click()
    expect(page.get_by_text("Results saved for table 1.")).to_be_visible()

    page.goto(daphne_server.url + season.get_absolute_url())
    rows = page.locator("table.standings tbody tr")
    # Bea 3 + 6 = 9; Ann 6 + 1 = 7; Cat 1 + Eve's 3 = 4; Dan 0 + 2 for his absence = 2.
    expected = [("Bea", "9"), ("Ann", "7"), ("Cat", "4"), ("Dan", "2")]
    expect(rows).to_have_count(len(expected))
    for index, (name, points) in enumerate(expected):
        expect(rows.nth(index).locator("th")).to_have_text(name)
        expect(rows.nth(index).locator("td.points")).to_have_text(points)
    expect(rows.nth(3).locator("td.away")).to_contain_text("1 (2 pts)")
    expect(page.locator("table.standings caption")).to_contain_text(
        "A substitute's result counts for the member who was away."
    )

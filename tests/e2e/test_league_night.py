"""In a real browser: an organiser runs a league night and the standings change."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import expect

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

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_organiser_creates_a_night_enters_a_paper_table_and_sees_the_standings_change(
    daphne_server, page
):
    organiser = make_player("olive", display_name="Olive")
    ann, bea, cat, dan = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan")
    )
    club = make_club("Fairway Golf Club", organiser=organiser, members=[ann, bea, cat, dan])
    league = make_league(club)
    league.name = "Tuesday Play Nine"
    league.save()
    season = make_season(league, start=date(2026, 1, 1), end=date(2026, 6, 30))
    season.name = "Spring 2026"
    season.save()
    # Last week: Ann beat Bea, Cat beat Dan.
    last_week = make_night(season, date(2026, 3, 3))
    played_table(last_week, [ann, bea], even_holes(30, 40))
    played_table(last_week, [cat, dan], even_holes(32, 41))

    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.goto(daphne_server.url + f"/leagues/seasons/{season.pk}/")
    standings = page.locator("table.standings tbody tr")
    expect(standings.first).to_contain_text("Ann")

    page.get_by_label("Date").fill("2026-03-10")
    page.get_by_role("button", name="Create night").click()
    expect(
        page.get_by_role("heading", name=re.compile("night, Tuesday 10 March 2026"))
    ).to_be_visible()

    for name in ("Ann", "Bea", "Cat", "Dan"):
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Save players present").click()
    expect(page.get_by_text("4 players present.")).to_be_visible()

    page.get_by_label("Seats per table").fill("4")
    page.get_by_role("button", name="Seat players").click()
    expect(page.get_by_text("Players seated at 1 tables.")).to_be_visible()

    page.get_by_role("link", name="Enter results").click()
    # This week Dan plays the round of his life; Ann has a bad night.
    totals = {"Ann": 45, "Bea": 33, "Cat": 38, "Dan": 20}
    for name, total in totals.items():
        page.get_by_label(f"{name}, hole 1", exact=True).fill(str(total - 8))
        for number in range(2, 10):
            page.get_by_label(f"{name}, hole {number}", exact=True).fill("1")
    # The running totals follow the typing, to check against the paper card.
    seated = page.locator("table.entry-grid thead th").all_inner_texts()[1:]
    totals_row = page.locator("tbody.totals output")
    bea = totals_row.nth(seated.index("Bea"))
    expect(totals_row).to_have_text([str(totals[name]) for name in seated])
    # A typo first: the total leaves it out, nothing is saved and the cell is named.
    page.get_by_label("Bea, hole 4", exact=True).fill("x")
    expect(bea).to_have_text("32")
    page.get_by_role("button", name="Save results").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Hole 4: strokes for Bea must be a whole number."
    )
    expect(bea).to_have_text("32")
    page.wait_for_load_state()
    page.get_by_label("Bea, hole 4", exact=True).fill("1")
    expect(bea).to_have_text("33")
    page.get_by_role("button", name="Save results").click()
    expect(page.get_by_text("Results saved for table 1.")).to_be_visible()
    expect(page.locator("#table-1")).to_contain_text("Finished")
    # The print button prints; the printed scorecards leave the flash message out.
    page.wait_for_load_state()  # its script is loaded, as a person sees the page done
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    page.get_by_role("button", name="Print scorecards").click()
    page.wait_for_function("window.printed === 1")
    page.emulate_media(media="print")
    expect(page.get_by_text("Results saved for table 1.")).to_be_hidden()
    expect(page.locator("#table-1")).to_be_visible()
    page.emulate_media(media="screen")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "night.png"), full_page=True)

    page.get_by_role("link", name="Spring 2026").first.click()
    rows = page.locator("table.standings tbody tr")
    # Before: Ann 6 (30 strokes), Cat 6 (32), Bea 4 (40), Dan 4 (41).
    # Now: Dan 4+6=10, Cat 6+2=8 (one win), Bea 4+4=8 (none), Ann 6+0=6.
    expect(rows.nth(0)).to_contain_text("Dan")
    expect(rows.nth(0)).to_contain_text("10")
    expect(rows.nth(0).locator(".move-up")).to_have_text("▲3")
    expect(rows.nth(1)).to_contain_text("Cat")
    expect(rows.nth(2)).to_contain_text("Bea")
    expect(rows.nth(3)).to_contain_text("Ann")
    expect(rows.nth(3).locator(".move-down")).to_have_text("▼3")

    page.screenshot(path=str(SCREENSHOTS / "standings.png"), full_page=True)

"""In a real browser: an organiser runs a duplicate night with two live tables and one
on paper, marks an absence and a substitute, prints the paper table's deal sheet, enters
its strokes and reads the deal comparison and the net standings."""

from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from games.models import Table
from leagues.models import League
from tests.factories import PASSWORD, make_club, make_player, make_season
from tests.leagues.duplicate.test_duplicate import play_out

pytestmark = pytest.mark.e2e

NAMES = ["Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_organiser_runs_a_duplicate_night_with_a_paper_table(daphne_server, page):
    organiser = make_player("olive", display_name="Olive")
    people = [make_player(name.lower(), display_name=name) for name in NAMES]
    # Jo sends word she cannot come; Kim plays for Ivy, who has to leave.
    people += [make_player(name.lower(), display_name=name) for name in ("Jo", "Kim")]
    club = make_club("Fairway Golf Club", organiser=organiser, members=people)

    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("olive")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()

    page.goto(daphne_server.url + club.get_absolute_url())
    page.get_by_label("Name", exact=True).fill("Tuesday Duplicate")
    page.get_by_label(re.compile("By duplicate matchpoint percentage")).check()
    page.get_by_label("Points are earned by").select_option("net")
    page.get_by_label("An absence earns").select_option("fixed")
    page.get_by_label("Fixed points for an absence").fill("2")
    page.get_by_role("button", name="Create league").click()
    expect(page.get_by_text("a night earns points by duplicate matchpoint")).to_be_visible()
    league = League.objects.get(name="Tuesday Duplicate")
    season = make_season(league, start=date(2026, 1, 1), end=date(2026, 6, 30))

    page.goto(daphne_server.url + season.get_absolute_url())
    page.get_by_label("Date").fill("2026-03-10")
    page.get_by_label("Duplicate deals").check()
    page.get_by_role("button", name="Create night").click()
    for name in NAMES:
        page.get_by_label(name, exact=True).check()
    page.get_by_role("button", name="Save players present").click()
    page.get_by_label("Member away", exact=True).select_option(label="Jo")
    page.get_by_label("With notice").check()
    page.get_by_role("button", name="Mark away").click()
    expect(page.get_by_text("Jo: Absent, with notice.")).to_be_visible()
    page.get_by_label("Plays for", exact=True).select_option(label="Ivy")
    page.get_by_label("Substitute (a member)").select_option(label="Kim")
    page.get_by_role("button", name="Name substitute").click()
    expect(page.get_by_text("Kim plays for Ivy.")).to_be_visible()
    page.get_by_label("Seats per table").fill("3")
    page.get_by_label("Tables are played").select_option("live")
    page.get_by_label("Of the live tables, how many play on paper").fill("1")
    page.get_by_role("button", name="Seat players").click()
    expect(page.get_by_text("Players seated at 3 tables.")).to_be_visible()
    night = league.seasons.get().nights.get()

    page.get_by_role("link", name="Deal sheet").click()
    expect(page.get_by_role("heading", name="Deal sheet, table 3")).to_be_visible()
    expect(page.locator("section.deal-sheet")).to_have_count(9)
    expect(page.locator("section.deal-sheet").first).to_contain_text("First discard")

    # The two live tables are played to their end by bots in every seat.
    for night_table in night.tables.filter(table__kind=Table.Kind.LIVE):
        play_out(night_table.table, organiser)

    page.goto(daphne_server.url + night.get_absolute_url())
    page.get_by_role("link", name="Enter results").click()
    seated = page.locator("table.entry-grid thead th").all_inner_texts()[1:]
    for name, total in zip(seated, (20, 25, 30), strict=True):
        page.get_by_label(f"{name}, hole 1", exact=True).fill(str(total - 8))
        for number in range(2, 10):
            page.get_by_label(f"{name}, hole {number}", exact=True).fill("1")
    page.get_by_role("button", name="Save results").click()
    expect(page.get_by_text("Results saved for table 3.")).to_be_visible()

    page.get_by_role("link", name="Deal comparison").click()
    expect(page.get_by_role("heading", name=re.compile("Deal comparison"))).to_be_visible()
    expect(page.locator("table.matchpoints tbody tr")).to_have_count(9)
    expect(page.locator("table.matchpoints")).to_contain_text("%")
    hole_1 = page.locator("#hole-1")
    expect(hole_1.locator("tbody tr")).to_have_count(3)
    expect(hole_1.locator("tbody tr").nth(2)).to_contain_text("played on paper")
    # The organiser hosted the live tables, so their replays open from here.
    hole_1.get_by_role("link", name="Replay hole 1").first.click()
    expect(page.get_by_role("heading", name=re.compile("Hole 1 replay"))).to_be_visible()

    page.goto(daphne_server.url + season.get_absolute_url())
    standings = page.locator("table.standings")
    # Nine who played, Kim's result counting for Ivy, and Jo with her 2 points for notice.
    expect(standings.locator("tbody tr")).to_have_count(10)
    jo = standings.locator("tbody tr", has=page.get_by_role("rowheader", name="Jo"))
    expect(jo.locator("td.points")).to_have_text("2")
    expect(jo.locator("td.away")).to_contain_text("1 (2 pts)")
    expect(standings.locator("tbody")).not_to_contain_text("Kim")
    expect(standings.locator("caption")).to_contain_text(
        "A substitute's result counts for the member who was away."
    )
    expect(standings).to_contain_text("ranked across the night")
    expect(standings).to_contain_text("Places, wins and matchpoints go by net strokes")
    expect(standings.locator("thead")).to_contain_text("Net per hole")

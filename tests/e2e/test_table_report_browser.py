"""In a real browser, on two phones: two players of a paper table enter its holes and
confirm each other's, and a hole written by both at once is settled by the second."""

from __future__ import annotations

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from leagues.models import ReportedHole
from leagues.reporting import selectors
from tests.factories import (
    PASSWORD,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)

# On PostgreSQL with Redis too: a new page of the club room, in both setups.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page) -> None:
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{page.url} scrolls sideways by {sideways}px"


def log_in(page, username: str) -> None:
    """Log in and wait for the page it leads to to load: a form used before the page's
    scripts have run is sent without them, as a plain form."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name="Log in").click()


def reload_shows_the_page(page, heading: str) -> None:
    """A reload of the address the page stands at (after a refused form) shows the report
    with the same form, not a refusal of the method."""
    response = page.reload()
    assert response is not None and response.status == 200, page.url
    expect(page.get_by_role("heading", name=heading)).to_be_visible()


def fill_hole(page, strokes: dict[str, str]) -> None:
    entry = page.locator("#entry")
    for name, value in strokes.items():
        entry.get_by_label(name, exact=True).fill(value)


def test_two_players_on_two_phones_enter_and_confirm_holes(daphne_server, playwright_browser):
    organiser = make_player("olive", display_name="Olive")
    ann, bea, cat = (make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat"))
    club = make_club(organiser=organiser, members=[ann, bea, cat])
    night = make_night(make_season(make_league(club)), date(2026, 3, 10))
    night_table = open_table(night, [ann, bea, cat])
    report = night_table.report
    url = daphne_server.url + f"/leagues/report/{report.code}/"

    # Ann scans the QR code while signed out: she logs in and comes back to the table.
    first = playwright_browser.new_context(viewport=PHONE)
    a = first.new_page()
    a.set_default_timeout(15_000)
    a.goto(url)
    expect(a).to_have_url(re.compile(r"/accounts/login/"))
    log_in(a, "ann")
    expect(a).to_have_url(url)
    expect(a.get_by_role("heading", name="Enter hole 1")).to_be_visible()
    # Wrong strokes are refused; a reload (pull to refresh) shows the page again.
    fill_hole(a, {"Ann": "3", "Bea": "x", "Cat": "5"})
    a.get_by_role("button", name="Save hole 1").click()
    expect(a.locator("#hole-errors")).to_contain_text("must be a whole number")
    reload_shows_the_page(a, "Enter hole 1")
    # The strokes cells bring up the numeric keypad and are easy to hit with a thumb.
    cell = a.locator("#entry").get_by_label("Bea", exact=True)
    expect(cell).to_have_attribute("inputmode", "numeric")
    a.wait_for_load_state("load")  # measured with its stylesheets applied
    assert cell.bounding_box()["height"] >= 44
    # The table's code is read as one word: it never breaks across two lines on a phone.
    code = a.locator(".report-head .table-code")
    assert code.evaluate("e => getComputedStyle(e).whiteSpace") == "nowrap"
    assert code.evaluate("e => e.getClientRects().length") == 1
    fill_hole(a, {"Ann": "3", "Bea": "4", "Cat": "5"})
    a.get_by_role("button", name="Save hole 1").click()
    expect(a.get_by_text("Hole 1 entered")).to_be_visible()
    expect(a.get_by_role("heading", name="Enter hole 2")).to_be_visible()
    no_sideways_scroll(a)

    # Bea types the table's code on her phone.
    second = playwright_browser.new_context(viewport=PHONE)
    b = second.new_page()
    b.set_default_timeout(15_000)
    b.goto(daphne_server.url + "/accounts/login/?next=/leagues/report/")
    log_in(b, "bea")
    b.get_by_label("Table code").fill(selectors.shown_code(report.code).lower())
    b.get_by_role("button", name="Open the table").click()
    expect(b).to_have_url(url)
    no_sideways_scroll(b)
    b.get_by_role("button", name="Confirm hole 1").click()
    expect(b.get_by_text("Hole 1 confirmed.")).to_be_visible()
    expect(b.locator("#hole-1")).to_contain_text("Confirmed")

    # Ann's page hears of it at once, over the report's socket, without a reload.
    expect(a.locator("#hole-1")).to_contain_text("confirmed by Bea", timeout=2_000)
    # Bea enters hole 2; Ann confirms it once her page shows it.
    fill_hole(b, {"Ann": "2", "Bea": "6", "Cat": "1"})
    b.get_by_role("button", name="Save hole 2").click()
    expect(b.get_by_text("Hole 2 entered")).to_be_visible()
    a.get_by_role("button", name="Confirm hole 2").click(timeout=2_000)
    expect(a.locator("#hole-2")).to_contain_text("Confirmed")
    expect(a.locator(".report-totals td")).to_have_text(["5", "10", "6"])

    # Both type hole 3 at once: Ann's lands first, Bea is shown it and overwrites it.
    expect(b.get_by_role("heading", name="Enter hole 3")).to_be_visible()
    a.reload()
    fill_hole(a, {"Ann": "1", "Bea": "1", "Cat": "1"})
    # Each player's total with the hole being typed, as it is typed.
    expect(a.locator('output[for="id_s0"]')).to_have_text("6")
    expect(a.locator('output[for="id_s1"]')).to_have_text("11")
    fill_hole(b, {"Ann": "1", "Bea": "2", "Cat": "1"})
    a.get_by_role("button", name="Save hole 3").click()
    expect(a.get_by_text("Hole 3 entered")).to_be_visible()
    b.get_by_role("button", name="Save hole 3").click()
    expect(b.get_by_role("heading", name="Hole 3 changed while you typed")).to_be_visible()
    expect(b.get_by_role("alert")).to_contain_text("Ann entered it as")
    no_sideways_scroll(b)
    # A reload shows the hole as Ann entered it, to change; Bea sends hers over it.
    reload_shows_the_page(b, "Change hole 3")
    expect(b.locator('#entry input[name="s1"]')).to_have_value("1")
    fill_hole(b, {"Ann": "1", "Bea": "2", "Cat": "1"})
    b.get_by_role("button", name="Save hole 3").click()
    expect(b.get_by_text("Hole 3 entered")).to_be_visible()
    hole = ReportedHole.objects.get(report=report, number=3)
    assert hole.strokes == [1, 2, 1] and hole.entered_by == bea and hole.version == 2
    # Ann disputes Bea's figure, saying why.
    a.reload()
    a.locator("#hole-3").get_by_role("link", name="Dispute").click()
    # A dispute without its reason is refused; a reload keeps the dispute's form.
    a.get_by_role("button", name="Dispute", exact=True).click()
    expect(a.locator("#entry")).to_contain_text("This field is required")
    reload_shows_the_page(a, "Dispute hole 3")
    a.get_by_label("What is wrong").fill("Bea took 1")
    a.get_by_role("button", name="Dispute", exact=True).click()
    expect(a.locator("#hole-3")).to_contain_text("Disputed")
    no_sideways_scroll(a)
    first.close()
    second.close()

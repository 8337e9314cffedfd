"""In a real browser: an organiser plans a night, makes the league public and closes the
season; a visitor without an account reads the results; no page breaks the CSP."""

from __future__ import annotations

import re
from datetime import date, time

import pytest
from playwright.sync_api import expect

from tests.e2e.test_content_security_policy import WATCH, Watched
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = pytest.mark.e2e


def test_calendar_public_results_and_season_close(daphne_server, playwright_browser):
    organiser = make_player("olive", display_name="Olive")
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    club = make_club("Green Club", organiser=organiser, members=[ana, ben])
    league = make_league(club)
    season = make_season(league, start=date(2026, 1, 1), end=date(2026, 12, 31))
    night = make_night(season, date(2026, 3, 3), start_time=time(19, 30), venue="The Crown")
    played_table(night, [ana, ben], even_holes(30, 40))

    olive = Watched(playwright_browser, daphne_server)
    olive.sign_in("olive")
    olive.visit(f"/leagues/{league.pk}/calendar/")
    expect(olive.page.get_by_text("The Crown")).to_be_visible()
    feed = olive.page.get_by_label("Your calendar address").input_value()
    assert feed.endswith(".ics")

    olive.visit(f"/leagues/nights/{night.pk}/")
    olive.page.get_by_text("Change the date, time or place").click()
    olive.page.get_by_label("Venue").fill("The Crown, upstairs")
    olive.page.get_by_role("button", name="Save time and place").click()
    expect(olive.page.get_by_text("The night's time and place are saved.")).to_be_visible()

    olive.visit(f"/leagues/{league.pk}/")
    olive.page.get_by_role("button", name="Make public").click()
    expect(olive.page.get_by_text("The league's results are public")).to_be_visible()

    olive.visit(f"/leagues/seasons/{season.pk}/")
    olive.page.get_by_role("button", name=f"Close {season.name}").click()
    expect(olive.page.get_by_role("heading", name="Champion: Ana")).to_be_visible()
    expect(olive.page.get_by_role("heading", name="Start the next season")).to_be_visible()
    olive.check()

    visitor = Watched(playwright_browser, daphne_server)
    visitor.visit(f"/leagues/public/{league.pk}/")
    visitor.page.get_by_role("link", name=season.name).click()
    expect(visitor.page.get_by_role("heading", name="Champion: Ana")).to_be_visible()
    visitor.page.get_by_role("link", name="Tuesday 3 Mar 2026").click()
    expect(visitor.page.get_by_text("The Crown, upstairs")).to_be_visible()
    visitor.visit(f"/leagues/public/{league.pk}/corrections/")
    visitor.check()
    olive.context.close()
    visitor.context.close()


@pytest.mark.parametrize(
    "viewport",
    [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
    ids=["desktop", "phone"],
)
def test_the_calendar_address_reads_whole_and_copies(daphne_server, playwright_browser, viewport):
    """The subscription address shows whole (wrapped, not cut) in a wide box, and its
    Copy button copies it and says so; without the clipboard API it copies the old way
    or leaves the address selected, and says which."""
    organiser = make_player("olive", display_name="Olive")
    league = make_league(make_club("Green Club", organiser=organiser))
    olive = Watched(playwright_browser, daphne_server)
    olive.context.close()
    olive.context = playwright_browser.new_context(viewport=viewport)
    olive.context.add_init_script(WATCH)
    olive.context.grant_permissions(["clipboard-read", "clipboard-write"])
    olive.page = olive.context.new_page()
    olive.page.on("console", olive._console)
    olive.sign_in("olive")
    olive.visit(f"/leagues/{league.pk}/calendar/")
    address = olive.page.get_by_label("Your calendar address")
    value = address.input_value()
    assert value.startswith("http") and value.endswith(".ics")
    whole = address.evaluate(
        "el => [el.scrollWidth <= el.clientWidth, el.scrollHeight <= el.clientHeight + 1]"
    )
    assert whole == [True, True], whole
    panel = olive.page.locator("section", has=address).bounding_box()
    box = address.bounding_box()
    assert box["width"] >= 0.6 * panel["width"], (box, panel)
    assert olive.page.evaluate("document.documentElement.scrollWidth <= innerWidth")

    olive.page.get_by_role("button", name="Copy", exact=True).click()
    expect(olive.page.get_by_text("Copied.")).to_be_visible()
    assert olive.page.evaluate("navigator.clipboard.readText()") == value
    olive.check()

    # A browser without the clipboard API.
    olive.page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    olive.visit(f"/leagues/{league.pk}/calendar/")
    olive.page.get_by_role("button", name="Copy", exact=True).click()
    expect(olive.page.locator("#feed-url-note")).to_have_text(
        re.compile(r"^(Copied\.|Press Ctrl\+C .*)$")
    )
    selected = address.evaluate("el => [el.selectionStart, el.selectionEnd, el.value.length]")
    assert selected[0] == 0 and selected[1] == selected[2]
    olive.check()
    olive.context.close()

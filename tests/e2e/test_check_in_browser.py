"""In a real browser at a phone's width: members check in on arrival (one through the
door's QR code, signed out at first; one from the night's page; one from the home page,
on a desktop too) and the organiser seats the night from who checked in."""

from __future__ import annotations

import re
from datetime import time, timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.test_content_security_policy import Watched
from tests.e2e.test_pages import serious_findings
from tests.e2e.test_table_report_browser import log_in
from tests.factories import make_club, make_league, make_night, make_player, make_season

# On PostgreSQL with Redis too: a new page of the club room, in both setups.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def phone(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def no_sideways_scroll(page) -> None:
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{page.url} scrolls sideways by {sideways}px"


def test_members_check_in_by_phone_and_the_organiser_seats_them(daphne_server, playwright_browser):
    olive = make_player("olive", display_name="Olive")
    ann, bea, cat, dan, eve = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan", "Eve")
    )
    club = make_club("Fairway Golf Club", organiser=olive, members=[ann, bea, cat, dan, eve])
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=30), end=today + timedelta(days=30)
    )
    night = make_night(season, today, venue="The clubhouse")
    check_in_url = f"{daphne_server.url}/leagues/nights/{night.pk}/check-in/"

    # Ann scans the door's QR code signed out: she logs in and lands back on check-in.
    context, page = phone(playwright_browser)
    page.goto(check_in_url)
    expect(page).to_have_url(re.compile(r"/accounts/login/\?next="))
    log_in(page, "ann")
    expect(page).to_have_url(check_in_url)
    page.wait_for_load_state("load")  # measured with its stylesheets applied
    here = page.get_by_role("button", name="I'm here")
    box = here.bounding_box()
    assert box["height"] >= 48 and box["width"] >= 300, box
    no_sideways_scroll(page)
    here.click()
    expect(page.get_by_text("You're checked in: the organiser will seat you.")).to_be_visible()
    expect(page.get_by_text("1 checked in.")).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "phone-check-in.png"), full_page=True)
    context.close()

    # Bea checks in from the night's page, changes her mind, and checks in again.
    context, page = phone(playwright_browser)
    page.goto(daphne_server.url + "/accounts/login/")
    log_in(page, "bea")
    page.goto(daphne_server.url + night.get_absolute_url())
    page.get_by_role("button", name="I'm here").click()
    expect(page.get_by_role("status").filter(has_text="You're checked in.")).to_be_visible()
    page.get_by_role("button", name="Undo: I'm not staying").click()
    expect(page.get_by_text("Your check-in is taken back")).to_be_visible()
    page.get_by_role("button", name="I'm here").click()
    expect(page.locator("#arrivals")).to_contain_text("2 checked in")
    no_sideways_scroll(page)
    context.close()

    # The organiser, on a phone too: Ann and Bea are ticked, the others expected.
    context, page = phone(playwright_browser)
    page.goto(daphne_server.url + "/accounts/login/")
    log_in(page, "olive")
    page.goto(daphne_server.url + night.get_absolute_url())
    arrivals = page.locator("#arrivals")
    expect(arrivals).to_contain_text("2 checked in")
    expect(arrivals.locator("ul.names li")).to_have_text([re.compile("^Ann"), re.compile("^Bea")])
    expect(arrivals).to_contain_text("Cat, Dan, Eve")
    expect(page.get_by_role("checkbox", name="Ann checked in")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Bea checked in")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Cat", exact=True)).not_to_be_checked()
    no_sideways_scroll(page)
    page.screenshot(path=str(SCREENSHOTS / "phone-night-check-ins.png"), full_page=True)

    # Cat checks in on her phone while the organiser's page is open: the count, the
    # names, her tick and the seating panel's count follow at once, over the socket.
    cat_context, cat_page = phone(playwright_browser)
    cat_page.goto(daphne_server.url + "/accounts/login/")
    log_in(cat_page, "cat")
    cat_page.goto(daphne_server.url + night.get_absolute_url())
    cat_page.get_by_role("button", name="I'm here").click()
    expect(cat_page.locator("#arrivals")).to_contain_text("3 checked in")
    expect(arrivals).to_contain_text("3 checked in", timeout=3_000)
    expect(arrivals.locator("ul.names li")).to_have_count(3)
    expect(page.get_by_role("checkbox", name="Cat checked in")).to_be_checked()
    expect(page.locator("#present-count")).to_have_text("3 present; 3 checked in.")

    # Eve came without her phone and Bea had to go: the organiser ticks one, unticks the
    # other. Cat, checked in after the form was drawn, stays present.
    page.get_by_role("checkbox", name="Eve", exact=True).check()
    page.get_by_role("checkbox", name="Bea checked in").uncheck()
    page.get_by_role("button", name="Save players present").click()
    expect(page.get_by_text("3 players present.")).to_be_visible()
    expect(page.get_by_role("checkbox", name="Cat checked in")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Bea checked in")).not_to_be_checked()
    page.get_by_label("Seats per table").fill("3")
    page.get_by_role("button", name="Seat players").click()
    expect(page.get_by_text("Players seated at 1 tables.")).to_be_visible()
    names = page.locator("#table-1 tbody th").all_text_contents()
    assert sorted(names) == ["Ann", "Cat", "Eve"], names
    # Cat's open page hears that the night is seated: nobody is expected any more.
    expect(cat_page.locator("#arrivals")).to_contain_text("Seated: 3 players at 1 table.")
    expect(page.locator("#arrivals")).not_to_contain_text("Expected, not here yet")
    cat_context.close()

    # The door sign: a QR code drawn on the page, no image fetched.
    page.goto(daphne_server.url + f"/leagues/nights/{night.pk}/door/")
    expect(page.get_by_role("img", name=re.compile("QR code"))).to_be_visible()
    expect(page.get_by_text(check_in_url)).to_be_visible()
    no_sideways_scroll(page)
    context.close()

    # Dan comes late: the night is seated, and he is told so.
    context, page = phone(playwright_browser)
    page.goto(check_in_url)
    log_in(page, "dan")
    expect(page.get_by_text("The tables are seated: ask an organiser to add you.")).to_be_visible()
    expect(page.get_by_role("button", name="I'm here")).to_have_count(0)
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_member_checks_in_from_the_home_page_with_one_click(
    daphne_server, playwright_browser, viewport
):
    ann = make_player("ann", display_name="Ann")
    club = make_club("Fairway Golf Club", organiser=make_player("olive"), members=[ann])
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=30), end=today + timedelta(days=30)
    )
    night = make_night(season, today, venue="The clubhouse", start_time=time(19, 30))
    make_night(season, today + timedelta(days=7))  # next week's: not tonight's

    screen = Watched(playwright_browser, daphne_server)
    page = screen.page
    page.set_viewport_size(viewport)
    screen.sign_in("ann")  # signing in lands on the home page
    page.wait_for_load_state("load")
    tonight = page.get_by_role("region", name="Tonight")
    expect(tonight).to_contain_text(f"{season.league.name} (Fairway Golf Club), 19:30")
    expect(tonight.get_by_role("button", name="I'm here")).to_have_count(1)
    here = tonight.get_by_role("button", name="I'm here")
    box = here.bounding_box()
    assert box["height"] >= 48, box
    assert box["y"] + box["height"] <= viewport["height"], "the button is below the fold"
    if viewport == PHONE:
        assert box["width"] >= 300, box
    no_sideways_scroll(page)
    assert serious_findings(page) == []

    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    here.click()  # the one click
    expect(page.get_by_role("status").filter(has_text="You're checked in.")).to_be_visible()
    expect(page.get_by_text("You're checked in: the organiser will seat you.")).to_be_visible()
    assert page.url == daphne_server.url + "/"
    assert posts == [f"{daphne_server.url}/leagues/nights/{night.pk}/check-in/"]
    assert list(night.players.all()) == [ann] and night.check_ins.count() == 1
    expect(tonight.get_by_role("button", name="Undo: I'm not staying")).to_be_visible()
    no_sideways_scroll(page)
    assert serious_findings(page) == []
    size = "phone" if viewport == PHONE else "desktop"
    page.screenshot(path=str(SCREENSHOTS / f"{size}-home-checked-in.png"), full_page=True)
    screen.check()
    screen.context.close()

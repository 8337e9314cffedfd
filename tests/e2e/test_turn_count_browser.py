"""In a real browser: every page's tab counts the turn-based tables waiting on the
player, in its title ("(2) ") and on its icon (a badge drawn into a data: URL), and
asks again when the page comes back into view."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.test_live_play import sign_in
from tests.factories import make_player
from tests.games.test_turns_waiting import tee_off, turn_based

pytestmark = pytest.mark.e2e


def icon(page) -> str:
    return page.locator("link[rel=icon]").get_attribute("href")


def test_the_tab_counts_the_tables_waiting_and_keeps_the_count_up_to_date(
    daphne_server, playwright_browser
):
    ana, ben = make_player("ana", display_name="Ana"), make_player("ben", display_name="Ben")
    first, second = turn_based(ana, ben), turn_based(ana, ben)
    context, page = sign_in(playwright_browser, daphne_server, "ana")
    expect(page).to_have_title("(2) Welcome · Fairway")
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"^data:image/png"))
    # The badge is drawn on the site's icon: a picture, not the icon's file.
    assert icon(page) != "/static/img/flag.svg" and len(icon(page)) > 200
    # At a table waiting on her, its turn alert follows the count.
    page.goto(daphne_server.url + first.get_absolute_url())
    expect(page).to_have_title(re.compile(r"^\(2\) Your turn · "))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"^data:"))
    page.goto(daphne_server.url + "/rules/")
    expect(page).to_have_title(re.compile(r"^\(2\) "))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", re.compile(r"^data:"))

    # Ana tees off at one table elsewhere: the page asks again when it is looked at again.
    tee_off(first, ana)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page).to_have_title(re.compile(r"^\(1\) How to play"))
    tee_off(second, ana)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(page).to_have_title(re.compile(r"^How to play"))
    expect(page.locator("link[rel=icon]")).to_have_attribute("href", "/static/img/flag.svg")
    context.close()

"""In a real browser: the account page offers the device's time zone while the player
has chosen none, and a button puts it back after another was picked."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Player
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.e2e


def test_the_account_page_offers_this_devices_zone(daphne_server, playwright_browser):
    ana = make_player("ana", display_name="Ana")
    context = playwright_browser.new_context(timezone_id="America/New_York")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    page.goto(daphne_server.url + "/accounts/profile/")
    zone = page.get_by_label("Your time zone")
    expect(zone).to_have_value("America/New_York")
    zone.select_option("Asia/Tokyo")
    page.get_by_role("button", name="Use this device's zone (America/New York)").click()
    expect(zone).to_have_value("America/New_York")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".messages")).to_contain_text("Your account is saved.")
    assert Player.objects.get(pk=ana.pk).time_zone == "America/New_York"
    context.close()

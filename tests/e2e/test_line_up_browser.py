"""In a real browser at a phone's width: a team's captain sets the team's line-up for
tonight from the night's page, and the night's players follow it."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.teams import services as teams
from tests.factories import PASSWORD, make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"


def test_a_captain_sets_the_line_up_on_a_phone(daphne_server, playwright_browser):
    olive = make_player("olive", display_name="Olive")
    ann, bea, cat, dan = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan")
    )
    club = make_club("Fairway Golf Club", organiser=olive, members=[ann, bea, cat, dan])
    league = make_league(club)
    teams.set_team_rules(league=league, team_size=3, team_score="sum", team_counted=2, by=olive)
    eagles = teams.create_team(
        league=league, name="Eagles", members=[ann, bea, cat], captain=ann, by=olive
    )
    today = timezone.localdate()
    season = make_season(league, start=today - timedelta(days=30), end=today + timedelta(days=30))
    night = make_night(season, today, venue="The clubhouse")
    night.players.set([cat, dan])

    context = playwright_browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ann")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))

    # From the night's page, the captain's link to the line-up.
    page.goto(daphne_server.url + night.get_absolute_url())
    teams_panel = page.locator("#teams")
    expect(teams_panel).to_contain_text("Eagles: no line-up set")
    teams_panel.get_by_role("link", name="Set Eagles' line-up").click()
    expect(page.get_by_role("heading", name=re.compile("Eagles: line-up for"))).to_be_visible()

    # Each tick is a finger's size, and the save button spans the screen.
    page.wait_for_load_state("load")  # measured with its stylesheets applied
    for name in ("Ann", "Bea", "Cat"):
        box = page.locator(".line-up .checks label", has_text=name).bounding_box()
        assert box["height"] >= 40, (name, box)
    page.get_by_role("checkbox", name="Ann").check()
    page.get_by_role("checkbox", name="Bea").check()
    save = page.get_by_role("button", name="Save the line-up")
    assert save.bounding_box()["width"] >= 300
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"the line-up scrolls sideways by {sideways}px"
    page.screenshot(path=str(SCREENSHOTS / "phone-line-up.png"), full_page=True)
    save.click()
    expect(page.get_by_role("status")).to_contain_text("Eagles' line-up is saved: Ann, Bea.")
    expect(page.get_by_role("checkbox", name="Ann")).to_be_checked()
    expect(page.get_by_role("checkbox", name="Cat")).not_to_be_checked()

    # The night's players follow: Ann and Bea play, Cat (of the team) does not, Dan stays.
    page.goto(daphne_server.url + night.get_absolute_url())
    expect(page.locator("#teams")).to_contain_text("Eagles: Ann, Bea")
    assert sorted(p.name for p in night.players.all()) == ["Ann", "Bea", "Dan"]
    assert sorted(p.name for p in eagles.line_ups.get(night=night).players.all()) == ["Ann", "Bea"]
    context.close()

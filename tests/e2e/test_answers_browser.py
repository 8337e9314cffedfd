"""In a real browser: a member answers "coming" from a night's page, another from their
mail's one-click link without logging in, and the organiser sees the count and the
tables expected."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.attendance import links
from leagues.attendance.services import answer
from tests.factories import PASSWORD, make_club, make_league, make_night, make_player, make_season

# On PostgreSQL with Redis too: new pages of the attendance room, in both setups.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]


def signed_in(browser, server, username: str):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(server.url + "/")
    return context, page


def test_members_answer_and_the_organiser_sees_the_expected_tables(
    daphne_server, playwright_browser
):
    olive = make_player("olive", display_name="Olive")
    ann, bea, cat, dan, eve = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan", "Eve")
    )
    club = make_club("Fairway Golf Club", organiser=olive, members=[ann, bea, cat, dan, eve])
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=30), end=today + timedelta(days=30)
    )
    night = make_night(season, today + timedelta(days=3), venue="The clubhouse")
    for member in (cat, dan):
        answer(night=night, player=member, choice="coming")

    # Ann answers on the night's page.
    context, page = signed_in(playwright_browser, daphne_server, "ann")
    page.goto(daphne_server.url + night.get_absolute_url())
    coming = page.locator("#coming")
    coming.get_by_role("button", name="Coming", exact=True).click()
    expect(page.get_by_text("Saved: coming.")).to_be_visible()
    expect(coming.get_by_role("button", name="Coming", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    context.close()

    # Bea follows her mail's link, signed out: a button first, then it is saved.
    context = playwright_browser.new_context()
    page = context.new_page()
    page.goto(daphne_server.url + links.answer_link(bea, night.pk, "coming"))
    expect(page.get_by_role("heading", name="Are you coming?")).to_be_visible()
    page.get_by_role("button", name="Coming", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("Saved: Coming.")
    context.close()

    # The organiser: four coming, dealt as the seating would, at two tables of two.
    context, page = signed_in(playwright_browser, daphne_server, "olive")
    page.goto(daphne_server.url + night.get_absolute_url())
    expect(page.locator("[data-answer-count]")).to_contain_text("4 coming")
    expect(page.locator("[data-expected-tables]")).to_have_text("Expected tables: 1 (4 players).")
    context.close()

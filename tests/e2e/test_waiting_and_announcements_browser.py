"""In a real browser: a member withdrawing from a full event lets the first waiting
member in, the organiser moves the waiting list, and writes to the club's members, one
of whom turns announcements off from the mail's link."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from leagues.announcements.links import unsubscribe_link
from leagues.models import EventWaiting
from tests.e2e.test_answers_browser import signed_in
from tests.factories import make_club, make_player
from tests.leagues.events_helpers import full_event

# On PostgreSQL with Redis too: new pages of the events and announcements rooms.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]


def test_a_full_event_and_an_announcement(daphne_server, playwright_browser):
    olive = make_player("olive", display_name="Olive", email="olive@example.com")
    ann, bea, cat, dan = (
        make_player(n.lower(), display_name=n, email=f"{n.lower()}@example.com")
        for n in ("Ann", "Bea", "Cat", "Dan")
    )
    club = make_club("Green Club", organiser=olive, members=[ann, bea, cat, dan])
    event = full_event(club, olive, [ann, bea, cat])

    # Dan enters a full event: he waits, second in line.
    context, page = signed_in(playwright_browser, daphne_server, "dan")
    page.goto(daphne_server.url + event.get_absolute_url())
    page.get_by_role("button", name="Enter Summer Cup").click()
    expect(page.get_by_text("you are number 2 on its waiting list").first).to_be_visible()
    context.close()

    # The organiser moves Dan up; Ann withdraws, and Dan is let in.
    context, page = signed_in(playwright_browser, daphne_server, "olive")
    page.goto(daphne_server.url + event.get_absolute_url())
    page.get_by_role("button", name="Move Dan up").click()
    expect(page.get_by_text("Dan moved up the waiting list.")).to_be_visible()
    expect(page.locator("[data-waiting] li").first).to_contain_text("Dan")
    context.close()
    context, page = signed_in(playwright_browser, daphne_server, "ann")
    page.goto(daphne_server.url + event.get_absolute_url())
    page.get_by_role("button", name="Withdraw").click()
    expect(page.get_by_text("You have withdrawn from Summer Cup.")).to_be_visible()
    expect(page.get_by_role("heading", name="Entrants (2 of 2)")).to_be_visible()
    assert set(event.entries.values_list("player__username", flat=True)) == {"bea", "dan"}
    assert list(EventWaiting.objects.values_list("player__username", flat=True)) == ["cat"]
    context.close()

    # The organiser writes to the club; Bea turns announcements off from her link.
    context, page = signed_in(playwright_browser, daphne_server, "olive")
    page.goto(daphne_server.url + f"/leagues/clubs/{club.slug}/announcements/")
    page.get_by_label("Subject").fill("Cup night")
    page.get_by_label("Text").fill("Bring a pen.")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("is on its way to 5 members")).to_be_visible()
    expect(page.locator("[data-sent]")).to_contain_text("Cup night")
    context.close()
    context = playwright_browser.new_context()
    page = context.new_page()
    page.goto(daphne_server.url + unsubscribe_link(bea, club))
    page.get_by_role("button", name="Stop the club's announcements").click()
    expect(page.get_by_role("status")).to_contain_text("you get no announcements")
    context.close()

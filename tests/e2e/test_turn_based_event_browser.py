"""In a real browser: an organiser sets up a Swiss played turn-based, a day a move and
a week a round (a bad pace refused first, saying why); a player finds the round's
deadline, their table's hole and the way to their table on the event's page; the clock
moved past the deadline (never slept), the round is played out and the next seated."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Table
from leagues.events import deadlines, selectors
from leagues.events import services as event_services
from leagues.models import Event, EventRound
from tests.e2e.test_event_browser import signed_in
from tests.factories import make_club, make_player

pytestmark = pytest.mark.e2e


def test_a_turn_based_event_shows_its_deadline_and_seats_the_next_round_at_it(
    daphne_server, playwright_browser
):
    olive = make_player("olive", display_name="Olive")
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    club = make_club("Fairway Golf Club", organiser=olive, members=[ann, bea])
    server = daphne_server

    context, organiser = signed_in(playwright_browser, server, "olive")
    organiser.goto(server.url + f"/leagues/clubs/{club.slug}/events/")
    organiser.get_by_label("Name").fill("Winter Swiss")
    organiser.get_by_role("radio", name=re.compile("Swiss")).check()
    organiser.get_by_label("Seats a table").fill("2")
    organiser.get_by_label("Rounds", exact=True).fill("2")
    organiser.get_by_label("Tables are played").select_option("live")
    organiser.get_by_label("Pace of live tables").select_option(str(Table.MoveTime.D1))
    tomorrow = timezone.localtime() + timedelta(days=1)
    organiser.get_by_label("Starts").fill(tomorrow.strftime("%Y-%m-%dT19:00"))
    organiser.get_by_label("Entry closes").fill(tomorrow.strftime("%Y-%m-%dT18:00"))
    organiser.get_by_role("button", name="Create event").click()
    expect(organiser.get_by_text("Give each round's length in days")).to_be_visible()
    assert not Event.objects.exists()
    organiser.get_by_label("Turn-based: days a round").fill("7")
    organiser.get_by_role("button", name="Create event").click()
    expect(organiser.get_by_text("Winter Swiss is open for entries.")).to_be_visible()
    event = Event.objects.get()
    assert event.turn_based and event.round_days == 7

    for player in (ann, bea):
        event_services.enter_event(event=event, player=player)
        event_services.check_in(event=event, player=player, by=player)
    first = event_services.start_event(event=event, by=olive)

    # Ann finds the deadline, her table's hole, and her way to it.
    ann_context, page = signed_in(playwright_browser, server, "ann")
    page.goto(server.url + event.get_absolute_url())
    expect(page.locator("#event-status")).to_have_text("Round 1 in play")
    deadline = timezone.localtime(first.deadline)
    expect(page.locator("[data-round-deadline]")).to_contain_text(
        f"Deadline: {deadline:%A} {deadline.day} {deadline:%B, %H:%M}"
    )
    expect(page.locator("[data-progress]")).to_contain_text("Hole 1 of 9")
    page.get_by_role("link", name="Play at your table").click()
    expect(page.get_by_text("Hole 1 of 9")).to_be_visible()
    expect(page.locator("#turn-deadline")).to_contain_text("Move due by")

    # A week later (the clock moved by the test): the round is played out by the bot,
    # closed, and round 2 seated, turn-based too.
    EventRound.objects.filter(pk=first.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert deadlines.close_rounds_due() == 1
    page.goto(server.url + event.get_absolute_url())
    expect(page.locator("#event-status")).to_have_text("Round 2 in play")
    round_one = page.locator(
        "section", has=page.get_by_role("heading", name=re.compile("^Round 1"))
    )
    expect(round_one.get_by_role("heading", name=re.compile("^Round 1"))).to_contain_text("done")
    expect(round_one).to_contain_text("Deadline was")
    expect(round_one.get_by_role("heading", name="Table 1")).to_contain_text("finished")
    second = selectors.current_round(event)
    assert second.number == 2 and second.deadline > timezone.now() + timedelta(days=6)
    expect(page.get_by_role("link", name="Play at your table")).to_be_visible()
    ann_context.close()
    context.close()

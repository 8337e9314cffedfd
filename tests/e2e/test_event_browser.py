"""In a real browser: an organiser creates a small Swiss event, members enter and check
in, and the organiser starts it and enters its paper tables' results round by round,
while a player's page follows each round and names the champion live."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services as game_services
from games.models import Table
from leagues.events import selectors
from leagues.events import services as event_services
from leagues.models import Event
from tests.conftest import DaphneServer
from tests.factories import PASSWORD, make_club, make_player

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def signed_in(browser, server, username: str):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    return context, page


def enter_and_check_in(browser, server, username: str, url: str):
    context, page = signed_in(browser, server, username)
    page.goto(server.url + url)
    page.get_by_role("button", name="Enter Spring Open").click()
    expect(page.get_by_text("You have entered Spring Open.")).to_be_visible()
    page.get_by_role("button", name="I'm here: check in").click()
    expect(page.get_by_text("You have entered and checked in.")).to_be_visible()
    return context, page


def enter_results(page, table: str, strokes: list[int]) -> None:
    page.get_by_role("link", name=f"Enter results, table {table}").click()
    page.wait_for_url("**/results/")
    for number in range(1, 10):
        for position, total in enumerate(strokes):
            # Nine holes adding up to the total: the rest of it on the first.
            page.locator(f"#id_h{number}_s{position}").fill(str(total - 8 if number == 1 else 1))
    page.get_by_role("button", name="Save results").click()


def test_a_small_event_runs_from_entry_to_champion(daphne_server, playwright_browser):
    olive = make_player("olive", display_name="Olive")
    people = [make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat")]
    club = make_club("Fairway Golf Club", organiser=olive, members=people)
    server = daphne_server

    # Olive creates the event on the club's events page.
    context, organiser = signed_in(playwright_browser, server, "olive")
    organiser.goto(server.url + f"/leagues/clubs/{club.slug}/events/")
    organiser.get_by_label("Name").fill("Spring Open")
    organiser.get_by_role("radio", name=re.compile("Swiss")).check()
    organiser.get_by_label("Seats a table").fill("2")
    organiser.get_by_label("Rounds", exact=True).fill("2")
    tomorrow = timezone.localtime() + timedelta(days=1)
    organiser.get_by_label("Starts").fill(tomorrow.strftime("%Y-%m-%dT19:00"))
    organiser.get_by_label("Entry closes").fill(tomorrow.strftime("%Y-%m-%dT18:00"))
    organiser.get_by_role("button", name="Create event").click()
    expect(organiser.get_by_text("Spring Open is open for entries.")).to_be_visible()
    url = Event.objects.get(name="Spring Open").get_absolute_url()

    # Three members enter and check in; Ann keeps the page open.
    ann_context, ann = enter_and_check_in(playwright_browser, server, "ann", url)
    for username in ("bea", "cat"):
        other, _ = enter_and_check_in(playwright_browser, server, username, url)
        other.close()
    expect(ann.locator("#event-status")).to_have_text("Taking entries")

    # Olive starts it: two of three at a table, one with a bye, shown on Ann's page live.
    organiser.reload()
    organiser.get_by_role("button", name="Start and seat round 1").click()
    expect(organiser.get_by_text("Round 1 is seated.")).to_be_visible()
    expect(ann.locator("#event-status")).to_have_text("Round 1 in play")
    expect(ann.get_by_text(re.compile(r"^Bye: "))).to_be_visible()

    # Round 1's results seat round 2 at once; round 2's name the champion.
    enter_results(organiser, "1", [30, 36])
    expect(organiser.get_by_text("Results saved for table 1.")).to_be_visible()
    expect(ann.locator("#event-status")).to_have_text("Round 2 in play")
    # The organiser's own page, live too, shows round 2 before its table's link is used.
    expect(organiser.locator("#event-status")).to_have_text("Round 2 in play")
    enter_results(organiser, "1", [31, 35])
    expect(organiser.locator("#event-status")).to_contain_text("Champion:")
    expect(ann.locator("#event-status")).to_contain_text("Champion:")
    expect(ann.get_by_role("heading", name="Standings")).to_be_visible()
    expect(ann.get_by_text("strokes per hole played", exact=False).first).to_be_visible()
    ann_context.close()
    context.close()


@pytest.fixture
def quick_bots_server(transactional_db):
    """A live server whose bots move and deal at once: a match of bots takes seconds."""
    server = DaphneServer(extra_env={"FAIRWAY_HOLE_PAUSE": "0", "FAIRWAY_BOT_DELAY": "0"}).start()
    yield server
    server.stop()


def paper_round_to_bots(event: Event) -> None:
    """Every player of the round's live tables leaves their match: a bot plays their seat
    (as for a player who walks away), and the server plays the tables out."""
    for event_table in selectors.round_tables(selectors.current_round(event)):
        table = Table.objects.get(pk=event_table.table_id)
        assert table.kind == Table.Kind.LIVE and table.status == Table.Status.PLAYING
        for seat in table.seats.select_related("player"):
            game_services.leave_match(table=table, player=seat.player)


def test_an_event_at_live_tables_played_by_bots_runs_to_its_champion(
    quick_bots_server, playwright_browser
):
    """Live tables only: each round's matches are played out by bots on the server, and
    the last match of a round seats the next, then names the champion, while a player's
    page follows it all without a reload."""
    server = quick_bots_server
    olive = make_player("olive", display_name="Olive")
    people = [make_player(n.lower(), display_name=n) for n in ("Ann", "Bea", "Cat", "Dan")]
    club = make_club("Fairway Golf Club", organiser=olive, members=people)
    now = timezone.now()
    event = event_services.create_event(
        club=club,
        by=olive,
        name="Spring Open",
        format=Event.Format.SWISS,
        variant="golf-6",
        seats_per_table=2,
        rounds=2,
        table_kind=Event.TableKind.LIVE,
        starts_at=now + timedelta(days=1),
        entry_closes_at=now + timedelta(hours=20),
    )
    for player in people:
        event_services.enter_event(event=event, player=player)
        event_services.check_in(event=event, player=player, by=player)

    ann_context, ann = signed_in(playwright_browser, server, "ann")
    ann.goto(server.url + event.get_absolute_url())
    expect(ann.locator("#event-status")).to_have_text("Taking entries")
    context, organiser = signed_in(playwright_browser, server, "olive")
    organiser.goto(server.url + event.get_absolute_url())
    organiser.get_by_role("button", name="Start and seat round 1").click()
    expect(ann.locator("#event-status")).to_have_text("Round 1 in play")

    paper_round_to_bots(event)
    expect(ann.locator("#event-status")).to_have_text("Round 2 in play", timeout=90_000)
    paper_round_to_bots(event)
    expect(ann.locator("#event-status")).to_contain_text("Champion:", timeout=90_000)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    tables = [Table.objects.get(pk=t.table_id) for t in selectors.event_tables(event)]
    assert len(tables) == 4 and all(t.status == Table.Status.FINISHED for t in tables)
    ann_context.close()
    context.close()

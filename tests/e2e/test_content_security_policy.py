"""In a real browser: the site's pages and a live table run under its Content-Security-Policy
without one violation (an inline style htmx injects, a style attribute in a frame, an
inline script would each be refused by the browser and reported here)."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Move, Table
from leagues.announcements.links import unsubscribe_link
from leagues.attendance.links import answer_link
from leagues.events import services as events
from tests.conftest import DaphneServer
from tests.e2e.test_live_play import open_a_two_seat_table, take_turn
from tests.factories import (
    PASSWORD,
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
    played_table,
)
from tests.leagues.events_helpers import entered, full_event, new_event

pytestmark = pytest.mark.e2e

# Runs in every page before its own scripts: keeps every violation the page reports.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", function (event) {
  window.__violations.push(
    event.violatedDirective + " blocked " + (event.blockedURI || "inline") +
    " at " + (event.sourceFile || location.pathname) + ":" + event.lineNumber
  );
});
"""


@pytest.fixture
def daphne_server(transactional_db):
    server = DaphneServer(extra_env={"FAIRWAY_HOLE_PAUSE": "3600"}).start()
    yield server
    server.stop()


class Watched:
    """A browser context whose pages report what the policy refused."""

    def __init__(self, browser, server) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.console: list[str] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.console.append(f"page error: {error}"))

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(f"{message.type}: {message.text}")

    def visit(self, path: str) -> None:
        self.check()
        self.page.goto(self.server.url + path)
        self.page.wait_for_load_state("networkidle")

    def sign_in(self, username: str) -> None:
        self.visit("/accounts/login/")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(PASSWORD)
        self.page.get_by_role("button", name="Log in").click()
        expect(self.page).to_have_url(re.compile(r"/$"))

    def check(self) -> None:
        """Fail on anything the policy refused on the page shown now."""
        if self.page.url.startswith("http"):
            violations = self.page.evaluate("window.__violations || []")
            assert not violations, f"{self.page.url}: {violations}"
        assert not self.console, self.console


def test_pages_and_a_live_table_run_without_a_policy_violation(daphne_server, playwright_browser):
    organiser = make_player("olive", display_name="Olive")
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    club = make_club("Green Club", organiser=organiser, members=[ana, ben])
    league = make_league(club)
    season = make_season(league)
    night = make_night(season, date(2026, 3, 3))
    played_table(night, [ana, ben], even_holes(30, 40))
    played_table(make_night(season, date(2026, 3, 10)), [ana, ben], even_holes(36, 33))

    anas = Watched(playwright_browser, daphne_server)
    anas.visit("/")
    anas.visit("/rules/")
    expect(anas.page.get_by_role("heading", name="How to play")).to_be_visible()
    anas.sign_in("ana")
    anas.visit("/")
    anas.visit(f"/leagues/{league.pk}/")
    anas.visit(f"/leagues/seasons/{season.pk}/")
    anas.visit(f"/leagues/nights/{night.pk}/")
    # A night ahead: answering "are you coming?" there and from a mail's link.
    ahead = make_night(season, timezone.localdate() + timedelta(days=2))
    anas.visit(ahead.get_absolute_url())
    anas.page.locator("#coming").get_by_role("button", name="Coming", exact=True).click()
    expect(anas.page.get_by_text("Saved: coming.")).to_be_visible()
    anas.visit(answer_link(ana, ahead.pk, "maybe"))
    anas.page.get_by_role("button", name="Maybe", exact=True).click()
    expect(anas.page.get_by_role("status")).to_contain_text("Saved: Maybe.")
    anas.visit(unsubscribe_link(ana, club))
    anas.page.get_by_role("button", name="Stop the club's announcements").click()
    expect(anas.page.get_by_role("status")).to_contain_text("Saved: you get no announcements")
    anas.visit(f"/leagues/{league.pk}/players/{ana.pk}/")
    expect(anas.page.locator("svg.chart").first).to_be_visible()
    # A club of her own, her data and her account's closing (the invitations, the
    # roster's dry run and a join link: tests/e2e/test_club_of_ones_own.py).
    anas.visit("/leagues/clubs/new/")
    anas.visit("/accounts/profile/")
    anas.visit("/accounts/profile/close/")
    # An event's page, once its socket has drawn its round.
    event = new_event(club, organiser, seats_per_table=2, rounds=1)
    entered(event, [ana, ben])
    events.start_event(event=event, by=organiser)
    anas.visit(event.get_absolute_url())
    expect(anas.page.locator("#event-status")).to_have_text("Round 1 in play")

    # The lobby: its form (and the script that keeps the seat count in range).
    anas.visit("/play/")
    anas.page.get_by_label("Game", exact=True).select_option("play-nine")
    anas.page.get_by_label("Seats", exact=True).fill("2")
    anas.page.get_by_role("button", name="Create the table").click()
    expect(anas.page.get_by_role("heading", name=re.compile("Play Nine"))).to_be_visible()
    table = Table.objects.get(host=ana)

    bens = Watched(playwright_browser, daphne_server)
    bens.sign_in("ben")
    bens.visit("/play/")
    bens.page.get_by_role("link", name=f"Open table {table.pk}").click()
    bens.page.get_by_role("button", name="Sit here").click()
    expect(anas.page.get_by_text("Ben", exact=True)).to_be_visible()
    anas.page.get_by_role("button", name="Start the match").click()
    expect(anas.page.get_by_text("Hole 1 of 9")).to_be_visible()
    expect(bens.page.get_by_text("Hole 1 of 9")).to_be_visible()

    # A few moves, each over a socket, each screen swapping in the other's.
    pages = [anas.page, bens.page]
    for _ in range(6):
        table.refresh_from_db()
        for page in pages:
            page.wait_for_selector(
                f'#table-status[data-version="{table.version}"]', state="attached"
            )
        playable = "#table-board [ws-send] button, #tee-off-button"
        actor = next(p for p in pages if p.locator(playable).count())
        before = Move.objects.filter(hole__table=table).count()
        take_turn(actor)
        for _ in range(200):
            if Move.objects.filter(hole__table=table).count() > before:
                break
            actor.wait_for_timeout(50)
        else:
            pytest.fail("the move was not made")
    table.refresh_from_db()
    for page in pages:
        page.wait_for_selector(f'#table-status[data-version="{table.version}"]', state="attached")
        # The course's columns come from a class, as its variant lays it out.
        columns = page.locator(".course .grid").first.evaluate(
            "el => getComputedStyle(el).gridTemplateColumns.split(' ').length"
        )
        assert columns == 4
    anas.check()
    bens.check()
    anas.context.close()
    bens.context.close()


def test_a_whole_hole_played_live_breaks_no_policy(daphne_server, playwright_browser):
    """Two players play a hole to its end and deal the next, each screen swapping in
    every frame the socket sends, and the browser refuses nothing on either."""
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    anas = Watched(playwright_browser, daphne_server)
    anas.sign_in("ana")
    bens = Watched(playwright_browser, daphne_server)
    bens.context.close()
    bens.context = playwright_browser.new_context(viewport={"width": 390, "height": 844})
    bens.context.add_init_script(WATCH)
    bens.page = bens.context.new_page()
    bens.page.set_default_timeout(15_000)
    bens.page.on("console", bens._console)
    bens.sign_in("ben")
    table = open_a_two_seat_table(anas.page, daphne_server)
    bens.visit(f"/tables/{table.pk}/")
    bens.page.get_by_role("button", name="Sit here").click()
    expect(anas.page.get_by_text("Ben", exact=True)).to_be_visible()
    anas.page.get_by_role("button", name="Start the match").click()
    expect(bens.page.get_by_text("Hole 1 of 9")).to_be_visible()

    pages = [anas.page, bens.page]
    for _ in range(200):
        table.refresh_from_db()
        hole = table.holes.order_by("-number").first()
        if hole.finished_at is not None:
            break
        for page in pages:
            page.wait_for_selector(
                f'#table-status[data-version="{table.version}"]', state="attached"
            )
        playable = "#table-board [ws-send] button, #tee-off-button"
        actor = next(p for p in pages if p.locator(playable).count())
        before = Move.objects.filter(hole=hole).count()
        take_turn(actor)
        for _ in range(200):
            if Move.objects.filter(hole=hole).count() > before:
                break
            actor.wait_for_timeout(50)
        else:
            pytest.fail("the move was not made")
    else:
        pytest.fail("the hole did not end")
    for page in pages:
        expect(page.locator("#hole-banner")).to_contain_text(re.compile(r"Hole 1 over\."))
    anas.page.locator("#next-hole-button").click()
    for page in pages:
        expect(page.get_by_text("Hole 2 of 9")).to_be_visible()
    anas.check()
    bens.check()
    anas.context.close()
    bens.context.close()


def test_a_paper_tables_report_page_breaks_no_policy(daphne_server, playwright_browser):
    """Two phones report a paper table: each save, refusal, confirmation and dispute is
    an htmx swap of the page, and the holes refresh on their own; the browser refuses
    nothing on either phone."""
    organiser = make_player("olive", display_name="Olive")
    ann = make_player("ann", display_name="Ann")
    bea = make_player("bea", display_name="Bea")
    club = make_club("Green Club", organiser=organiser, members=[ann, bea])
    night = make_night(make_season(make_league(club)), date(2026, 3, 10))
    report = open_table(night, [ann, bea]).report
    url = f"/leagues/report/{report.code}/"

    anns = Watched(playwright_browser, daphne_server)
    anns.sign_in("ann")
    anns.visit(url)
    a = anns.page
    entry = a.locator("#entry")
    entry.get_by_label("Ann", exact=True).fill("3")
    entry.get_by_label("Bea", exact=True).fill("x")
    # A browser's autofill, an extension or any script styling a cell through the CSSOM
    # (which the policy allows) leaves it an empty style attribute: a swap must not
    # copy that attribute onto the cell it brings in.
    entry.locator("input.stroke-input").evaluate_all(
        "cells => cells.forEach(c => { c.style.color = 'red'; c.style.color = ''; })"
    )
    a.get_by_role("button", name="Save hole 1").click()
    expect(a.locator("#hole-errors")).to_contain_text("must be a whole number")
    entry.get_by_label("Bea", exact=True).fill("4")
    a.get_by_role("button", name="Save hole 1").click()
    expect(a.get_by_text("Hole 1 entered")).to_be_visible()
    entry.get_by_label("Ann", exact=True).fill("5")
    entry.get_by_label("Bea", exact=True).fill("6")
    a.get_by_role("button", name="Save hole 2").click()
    expect(a.get_by_text("Hole 2 entered")).to_be_visible()

    beas = Watched(playwright_browser, daphne_server)
    beas.sign_in("bea")
    beas.visit(url)
    b = beas.page
    b.get_by_role("button", name="Confirm hole 1").click()
    expect(b.get_by_text("Hole 1 confirmed.")).to_be_visible()
    b.locator("#hole-2").get_by_role("link", name="Dispute").click()
    b.get_by_role("button", name="Dispute", exact=True).click()
    expect(b.locator("#entry")).to_contain_text("This field is required")
    b.get_by_label("What is wrong").fill("I took 7")
    b.get_by_role("button", name="Dispute", exact=True).click()
    expect(b.locator("#hole-2")).to_contain_text("Disputed")
    # Ann's page refreshes its holes on its own, with what Bea did.
    expect(a.locator("#hole-2")).to_contain_text("Disputed", timeout=15_000)
    entry.get_by_label("Ann", exact=True).fill("2")
    a.wait_for_timeout(6_000)  # another refresh of the holes, with a form being typed
    anns.check()
    # With no connection: the hole waits on the phone, the page kept by the service
    # worker opens, and what waits is sent once the connection returns.
    a.wait_for_function(
        "async () => !!(await caches.match(location.origin + location.pathname,"
        " {ignoreVary: true}))"
    )
    entry.get_by_label("Bea", exact=True).fill("2")
    anns.context.set_offline(True)
    a.get_by_role("button", name="Save hole 3").click()
    expect(a.locator("#report-outbox")).to_contain_text("Hole 3: Ann 2, Bea 2: waiting to send")
    a.reload()
    expect(a.locator("[data-offline-notice]")).to_be_visible()
    anns.check()
    anns.context.set_offline(False)
    expect(a.locator("#report-outbox")).to_be_hidden(timeout=15_000)
    expect(a.locator("#hole-3")).to_contain_text("Waiting for confirmation")
    anns.check()
    beas.check()
    anns.context.close()
    beas.context.close()


def test_an_organisers_answers_waiting_list_and_announcements_break_no_policy(
    daphne_server, playwright_browser
):
    olive = make_player("olive", display_name="Olive", email="olive@example.com")
    people = [make_player(n, display_name=n.title()) for n in ("ana", "ben", "cy", "di")]
    club = make_club("Green Club", organiser=olive, members=people)
    season = make_season(make_league(club))
    ahead = make_night(season, timezone.localdate() + timedelta(days=2))
    full = full_event(club, olive, people)

    olives = Watched(playwright_browser, daphne_server)
    olives.sign_in("olive")
    olives.visit(ahead.get_absolute_url())
    expect(olives.page.locator("[data-expected-tables]")).to_be_visible()
    olives.visit(full.get_absolute_url())
    olives.page.get_by_role("button", name="Move Di up").click()
    expect(olives.page.get_by_text("Di moved up the waiting list.")).to_be_visible()
    olives.visit(f"/leagues/clubs/{club.slug}/announcements/")
    olives.page.get_by_label("Subject").fill("Cup night")
    olives.page.get_by_label("Text").fill("Bring a pen.")
    olives.page.get_by_role("button", name="Send").click()
    expect(olives.page.get_by_text("is on its way to 1 member")).to_be_visible()
    olives.check()

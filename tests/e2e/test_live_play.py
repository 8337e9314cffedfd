"""In real browsers: two players set up a table, tee off and play a hole, each seeing the other."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.models import Move, Table
from tests.conftest import DaphneServer
from tests.factories import PASSWORD, make_player

# Run on PostgreSQL with Redis too: players on separate sockets hear each other through
# the channel layer (README.md, Testing).
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def daphne_server(transactional_db):
    """The live server, keeping a finished hole on screen until a player deals the next."""
    server = DaphneServer(
        extra_env={"FAIRWAY_HOLE_PAUSE": "3600", "FAIRWAY_BOT_DELAY": "0.1"}
    ).start()
    yield server
    server.stop()


def sign_in(browser, server, username: str, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    return context, page


def open_a_two_seat_table(page, server) -> Table:
    """The player on `page` creates a two-seat Play Nine table from the lobby."""
    page.goto(server.url + "/play/")
    page.get_by_label("Game", exact=True).select_option("play-nine")
    page.get_by_label("Seats", exact=True).fill("2")
    page.get_by_role("button", name="Create the table").click()
    expect(page.get_by_role("heading", name=re.compile("Play Nine"))).to_be_visible()
    return Table.objects.get()


def take_turn(page) -> None:
    """Whatever the page offers: tee off, draw, or place the card held."""
    if page.locator("#tee-off-button").count():
        page.locator(".tee-off label.pick").nth(0).click()
        page.locator(".tee-off label.pick").nth(5).click()
        page.locator("#tee-off-button").click()
    elif page.locator("#draw-pile").count():
        page.locator("#draw-pile").focus()
        page.keyboard.press("Enter")  # every action works by keyboard
    elif page.locator("button.flip").count():
        page.locator("button.flip").first.click()
    elif page.locator("#discard-button").count():
        page.locator("#discard-button").click()
    else:
        page.locator("button.card-button[id^=replace-]").first.click()


def test_two_players_create_join_start_and_play_a_hole(daphne_server, playwright_browser):
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben", viewport=PHONE)

    table = open_a_two_seat_table(ana, daphne_server)

    # Ben finds it in the lobby (the list refreshes itself) and sits down.
    ben.goto(daphne_server.url + "/play/")
    ben.get_by_role("link", name=f"Open table {table.pk}").click()
    ben.get_by_role("button", name="Sit here").click()
    expect(ana.get_by_text("Ben", exact=True)).to_be_visible()
    ana.get_by_role("button", name="Start the match").click()
    expect(ana.get_by_text("Hole 1 of 9")).to_be_visible()
    expect(ben.get_by_text("Hole 1 of 9")).to_be_visible()

    pages = {"ana": ana, "ben": ben}
    for _ in range(200):
        table.refresh_from_db()
        hole = table.holes.order_by("-number").first()
        if hole.finished_at is not None:
            break
        count = Move.objects.filter(hole=hole).count()
        version = table.version
        # Whoever has a control to use, uses it; then both screens catch up.
        actor = None
        for page in pages.values():
            page.wait_for_selector(f'#table-status[data-version="{version}"]', state="attached")
        for name, page in pages.items():
            if page.locator("#table-board [ws-send] button, #tee-off-button").count():
                actor = name
                break
        assert actor, "someone can always act"
        if pages[actor].locator("#tee-off-button").count() == 0 and count > 2:
            ana.screenshot(path=str(SCREENSHOTS / "table.png"), full_page=True)
            ben.screenshot(path=str(SCREENSHOTS / "table-phone.png"), full_page=True)
        take_turn(pages[actor])
        other = pages["ben" if actor == "ana" else "ana"]
        last = Move.objects.filter(hole=hole).order_by("-seq").first()
        while last is None or last.seq <= count:
            other.wait_for_timeout(50)
            last = Move.objects.filter(hole=hole).order_by("-seq").first()
        # The other screen shows the move in its log, a whole turn on one line.
        expect(other.locator("#table-log li.latest")).to_contain_text(last.summary[:20])
        # Nothing pokes out past the page's width, on a desktop or a phone.
        for page in pages.values():
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    else:
        pytest.fail("the hole did not end")

    for page in pages.values():
        expect(page.locator("#hole-banner")).to_contain_text(re.compile(r"Hole 1 over\."))
        expect(page.locator("#table-scorecard td.num a").first).to_be_visible()
    ana.screenshot(path=str(SCREENSHOTS / "table-hole-over.png"), full_page=True)
    ben.screenshot(path=str(SCREENSHOTS / "table-hole-over-phone.png"), full_page=True)
    # By keyboard: deal the next hole; the dealer moves one seat left.
    ana.locator("#next-hole-button").focus()
    ana.keyboard.press("Enter")
    expect(ana.get_by_text("Hole 2 of 9")).to_be_visible()
    expect(ben.get_by_text("Hole 2 of 9")).to_be_visible()
    ana_context.close()
    ben_context.close()


def test_the_lobby_a_quick_start_and_a_match_played_to_its_results(
    daphne_server, playwright_browser
):
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    for viewport, suffix in (({"width": 1280, "height": 900}, ""), (PHONE, "-phone")):
        context, page = sign_in(playwright_browser, daphne_server, "ana", viewport=viewport)
        page.goto(daphne_server.url + "/play/")
        expect(page.get_by_text("No one is waiting for players right now.")).to_be_visible()
        # The seat count follows the game chosen.
        page.get_by_label("Game", exact=True).select_option("golf-4")
        assert page.get_by_label("Seats", exact=True).input_value() == "3"
        expect(page.locator("#seat-range")).to_contain_text("3 to 7 players")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.screenshot(path=str(SCREENSHOTS / f"lobby{suffix}.png"), full_page=True)
        context.close()

    # Ben opens a private table: the invite link copies by keyboard.
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    ben_context.grant_permissions(["clipboard-read", "clipboard-write"])
    ben.goto(daphne_server.url + "/play/")
    ben.get_by_label("Who can join").select_option("0")
    ben.get_by_role("button", name="Create the table").click()
    # The page renders the waiting room inert; the socket's first frame replaces it live.
    # (A selector, not a script: the site's Content-Security-Policy forbids eval.)
    ben.wait_for_selector("#table-board:not([inert])", state="attached")
    ben.get_by_role("button", name="Copy link").focus()
    ben.keyboard.press("Enter")
    expect(ben.get_by_text("Link copied.")).to_be_visible()
    assert "/play/invite/" in ben.evaluate("navigator.clipboard.readText()")
    ben_context.close()

    # Ana plays a bot from the home page, then leaves the match to the bot.
    context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ana.get_by_role("button", name="Play now against a bot").click()
    expect(ana.get_by_text("Hole 1 of 9")).to_be_visible()
    ana.screenshot(path=str(SCREENSHOTS / "quick-start.png"), full_page=True)
    ana.get_by_role("button", name="Leave the match").click()
    # The chip on her seat; the bot may already have moved for her, in the log too.
    expect(ana.get_by_text("(bot for Ana)", exact=True)).to_be_visible()
    table = Table.objects.get(seats__player__username="ana", status=Table.Status.PLAYING)
    # The holes' pauses are long here: deal each next hole as soon as one ends.
    for _ in range(600):
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        button = ana.locator("#next-hole-button")
        if button.count():
            button.click()
        ana.wait_for_timeout(200)
    expect(ana.get_by_role("heading", name="Final results")).to_be_visible(timeout=30_000)
    expect(ana.get_by_role("button", name="Rematch")).to_be_visible()
    expect(ana.get_by_role("link", name="Back to the lobby")).to_be_visible()
    ana.screenshot(path=str(SCREENSHOTS / "results.png"), full_page=True)
    ana.set_viewport_size(PHONE)
    assert ana.evaluate("document.documentElement.scrollWidth <= innerWidth")
    ana.screenshot(path=str(SCREENSHOTS / "results-phone.png"), full_page=True)
    context.close()


def test_the_player_a_leaving_host_hands_the_table_to_sees_it_at_once(
    daphne_server, playwright_browser
):
    """Ana opens a table, Ben sits down, Ana leaves: Ben's page shows at once that he
    hosts it now, with the button that starts the match once the free seat is taken."""
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    table = open_a_two_seat_table(ana, daphne_server)
    ben.goto(daphne_server.url + table.get_absolute_url())
    ben.get_by_role("button", name="Sit here").click()
    expect(ana.get_by_text("Ben", exact=True)).to_be_visible()
    expect(ben.get_by_role("button", name="Start the match")).to_have_count(0)
    ana.get_by_role("button", name="Leave the table").click()
    expect(ben.locator(".seat-row", has_text="Ben").locator(".chip")).to_have_text("host")
    expect(ben.get_by_role("button", name="Start the match")).to_be_disabled()
    ana_context.close()
    ben_context.close()


def test_a_seat_taken_before_the_page_is_live_reaches_the_host(daphne_server, playwright_browser):
    """A button on the page works however soon it is pressed: until htmx and the socket are
    ready, the page's controls are inert, and a click waits for them instead of being lost.

    Here htmx's script arrives 1.5 s late on the guest's page: a plain button shown at once
    would take the click and do nothing, and the host would still wait for a player.
    """
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")

    def late(route) -> None:
        time.sleep(1.5)
        route.continue_()

    ben_context.route(re.compile(r"/static/django_htmx/htmx[^/]*\.js"), late)
    ben.add_init_script(
        "document.addEventListener('htmx:oobErrorNoTarget', (e) => {"
        " (window.missing = window.missing || []).push(e.detail.content.id) })"
    )
    table = open_a_two_seat_table(ana, daphne_server)

    ben.goto(daphne_server.url + table.get_absolute_url(), wait_until="commit")
    ben.get_by_role("button", name="Sit here").click()
    expect(ana.get_by_text("Ben", exact=True)).to_be_visible()
    waiting = ana.locator("#table-status .turn-line")
    expect(waiting).to_have_text("Waiting for players: 0 seats free.")
    # The reply to the click and the socket's news both land on the guest's alert.
    expect(ben.get_by_role("button", name="Leave the table")).to_be_visible()
    expect(ben.locator("#table-alert")).to_have_count(1)
    ben.get_by_role("button", name="Leave the table").click()
    expect(waiting).to_have_text("Waiting for players: 1 seat free.")
    expect(ben.locator("#table-alert")).to_have_count(1)
    assert ben.evaluate("window.missing || []") == []
    ana_context.close()
    ben_context.close()

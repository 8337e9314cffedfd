"""In a real browser, on the club room's poor wifi: two phones of a paper table lose the
connection at random moments (and the server restarts) while they report nine holes,
and nothing typed is lost or recorded twice; the report and check-in pages open with no
connection once visited; a check-in pressed offline is sent, or plainly refused; the
night's board, cut off for a while, catches up with exactly what a fresh board shows."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.models import ScorecardHole, Table
from leagues.board import services as board_services
from leagues.models import CheckIn, Membership, ReportedHole, ReportEntry
from leagues.reporting import services as reporting
from leagues.seating.services import seat_night
from tests.factories import (
    PASSWORD,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)

# On PostgreSQL with Redis too: the club room's pages, in both setups.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

PHONE = {"width": 390, "height": 844}
NAMES = ("Ann", "Bea", "Cat")


def phone(browser, server, username: str, **options):
    """A phone's browser, signed in as `username`."""
    context = browser.new_context(viewport=PHONE, **options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    return context, page


def controlled(page) -> None:
    """Wait until the service worker controls the page and keeps it."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function(
        "async () => !!(await caches.match(location.origin + location.pathname,"
        " {ignoreVary: true}))"
    )


def paper_table(night_on: date = date(2026, 3, 10)):
    organiser = make_player("olive", display_name="Olive")
    players = [make_player(name.lower(), display_name=name) for name in NAMES]
    club = make_club(organiser=organiser, members=players)
    night = make_night(make_season(make_league(club)), night_on)
    night.organiser = organiser
    return night, open_table(night, players), players


def enter(page, number: int, strokes: list[int]) -> None:
    """Type a hole's strokes into the form on screen and save it."""
    expect(page.get_by_role("heading", name=f"Enter hole {number}")).to_be_visible()
    entry = page.locator("#entry")
    for name, value in zip(NAMES, strokes, strict=True):
        entry.get_by_label(name, exact=True).fill(str(value))
    page.get_by_role("button", name=f"Save hole {number}").click()


def test_two_phones_losing_the_connection_at_random_report_exactly_what_was_typed(
    daphne_server, playwright_browser
):
    rng = random.Random(50)
    night, night_table, (ann, bea, _) = paper_table()
    report = night_table.report
    address = daphne_server.url + f"/leagues/report/{report.code}/"
    typed = [[rng.randint(-5, 12) for _ in NAMES] for _ in range(9)]
    # Bea disputes one hole once (Ann then enters it again); she confirms the rest.
    disputed = rng.randint(2, 8)

    a_context, a = phone(playwright_browser, daphne_server, "ann")
    b_context, b = phone(playwright_browser, daphne_server, "bea")
    for page in (a, b):
        page.goto(address)
        controlled(page)
    confirmed: set[int] = set()

    def b_checks(number: int) -> None:
        """Bea confirms (or disputes) what her page shows her entered."""
        line = b.locator(f"#hole-{number}")
        if not line.get_by_role("button", name=f"Confirm hole {number}").is_visible():
            return
        if number == disputed and number not in confirmed:
            b_context.set_offline(False)  # the dispute's form is asked of the server
            expect(b.locator("#report-outbox")).to_be_hidden(timeout=20_000)
            line.get_by_role("link", name="Dispute").click()
            b.get_by_label("What is wrong").fill("Cat took one more")
            b.get_by_role("button", name="Dispute", exact=True).click()
            expect(b.locator(f"#hole-{number}")).to_contain_text("Disputed")
            confirmed.add(number)  # answered: Ann enters it again below
            return
        offline = not b.evaluate("navigator.onLine")
        line.get_by_role("button", name=f"Confirm hole {number}").click()
        if offline:
            expect(b.locator("#report-outbox")).to_contain_text(
                f"Confirm hole {number}: waiting to send"
            )
        confirmed.add(number)

    for number, strokes in enumerate(typed, start=1):
        a_context.set_offline(rng.random() < 0.5)
        enter(a, number, strokes)
        if number < 9:
            expect(a.get_by_role("heading", name=f"Enter hole {number + 1}")).to_be_visible()
        if not a.evaluate("navigator.onLine"):
            expect(a.locator("[data-offline-notice]")).to_be_visible()
            expect(a.locator("#report-outbox")).to_contain_text(
                f"Hole {number}: Ann {strokes[0]}, Bea {strokes[1]}, Cat {strokes[2]}: "
                "waiting to send"
            )
        b_context.set_offline(rng.random() < 0.5)
        for earlier in range(1, number + 1):
            if earlier not in confirmed:
                b_checks(earlier)
        if rng.random() < 0.3:  # a phone's page reloaded mid-round (online or not)
            a.reload()

    a_context.set_offline(False)
    b_context.set_offline(False)
    expect(a.locator("#report-outbox")).to_be_hidden(timeout=20_000)
    expect(b.locator("#report-outbox")).to_be_hidden(timeout=20_000)
    # Ann enters the disputed hole again, as it was typed; Bea confirms what is left.
    b.reload()
    for number in range(1, 10):
        b_checks(number)
    a.goto(address + f"?hole={disputed}")
    entry = a.locator("#entry")
    for name, value in zip(NAMES, typed[disputed - 1], strict=True):
        entry.get_by_label(name, exact=True).fill(str(value))
    a.get_by_role("button", name=f"Save hole {disputed}").click()
    expect(a.locator("#report-outbox")).to_be_hidden(timeout=20_000)
    expect(b.locator(f"#hole-{disputed}")).to_contain_text("Waiting for confirmation")
    b.locator(f"#hole-{disputed}").get_by_role("button", name=f"Confirm hole {disputed}").click()
    expect(b.locator(f"#hole-{disputed}")).to_contain_text("Confirmed")
    for number in range(1, 10):
        expect(b.locator(f"#hole-{number}")).to_contain_text("Confirmed", timeout=20_000)

    holes = list(ReportedHole.objects.filter(report=report).order_by("number"))
    assert [hole.strokes for hole in holes] == typed
    assert all(hole.state == ReportedHole.State.CONFIRMED for hole in holes)
    assert {(hole.entered_by_id, hole.checked_by_id) for hole in holes} == {(ann.pk, bea.pk)}
    # Each hole entered once and confirmed once; the disputed one entered twice.
    assert [hole.version for hole in holes] == [4 if h == disputed else 2 for h in range(1, 10)]
    assert ReportEntry.objects.filter(report=report).count() == 9 * 2 + 2
    table = Table.objects.get(pk=night_table.table_id)
    assert table.status == Table.Status.FINISHED
    cards = ScorecardHole.objects.filter(scorecard__table=table)
    grid = [[None] * 3 for _ in range(9)]
    for hole in cards.values("number", "strokes", "scorecard__position"):
        grid[hole["number"] - 1][hole["scorecard__position"]] = hole["strokes"]
    assert grid == typed
    a_context.close()
    b_context.close()


def test_a_server_restarted_mid_entry_loses_nothing(daphne_server, playwright_browser, tmp_path):
    """The server stops while Ann enters holes: what she saves waits on her phone,
    survives the page reloaded with no server and the browser closed, and is sent once
    the server is back."""
    _, night_table, (ann, _, _) = paper_table()
    report = night_table.report
    address = daphne_server.url + f"/leagues/report/{report.code}/"
    context, a = phone(playwright_browser, daphne_server, "ann")
    a.goto(address)
    controlled(a)
    enter(a, 1, [3, 4, 5])
    expect(a.get_by_text("Hole 1 entered")).to_be_visible()

    daphne_server.stop()
    enter(a, 2, [1, 2, 3])
    expect(a.locator("#report-outbox")).to_contain_text("Hole 2: Ann 1, Bea 2, Cat 3")
    expect(a.locator("[data-offline-notice]")).to_be_visible()
    enter(a, 3, [6, 6, 6])
    # Pulled to refresh with no server: the kept page opens, the waiting entries with it.
    a.reload()
    expect(a.locator("#report-outbox li")).to_have_count(2)
    expect(a.get_by_role("heading", name="Enter hole 4")).to_be_visible()
    # The browser is closed; the phone keeps what waits.
    kept = tmp_path / "phone.json"
    context.storage_state(path=kept)
    context.close()

    daphne_server.start()
    context = playwright_browser.new_context(viewport=PHONE, storage_state=kept)
    a = context.new_page()
    a.goto(address)
    expect(a.locator("#report-outbox")).to_be_hidden(timeout=20_000)
    expect(a.locator("#hole-3")).to_contain_text("Waiting for confirmation")
    strokes = list(
        ReportedHole.objects.filter(report=report).order_by("number").values_list("strokes")
    )
    assert strokes == [([3, 4, 5],), ([1, 2, 3],), ([6, 6, 6],)]
    assert set(ReportedHole.objects.values_list("entered_by", "version")) == {(ann.pk, 1)}
    context.close()


def test_a_check_in_pressed_offline_is_sent_or_plainly_refused(daphne_server, playwright_browser):
    night, _, players = paper_table(night_on=timezone.localdate())
    night.tables.all().delete()  # not seated yet
    club = night.season.league.club
    dan, eve = (make_player(name.lower(), display_name=name) for name in ("Dan", "Eve"))
    for player in (dan, eve):
        Membership.objects.create(club=club, player=player)
    address = daphne_server.url + f"/leagues/nights/{night.pk}/check-in/"

    phones = []
    for username in ("dan", "eve"):
        context, page = phone(playwright_browser, daphne_server, username)
        page.goto(address)
        controlled(page)
        page.reload()  # kept by the worker from here on
        context.set_offline(True)
        page.reload()  # opens with no connection
        expect(page.locator("[data-offline-notice]")).to_be_visible()
        page.get_by_role("button", name="I'm here").click()
        expect(page.locator("#check-in-waiting")).to_have_text(
            "Your check-in is waiting to send: it goes when the connection returns."
        )
        phones.append((context, page))

    (dan_context, dan_page), (eve_context, eve_page) = phones
    dan_context.set_offline(False)
    expect(dan_page.get_by_text("You're checked in.")).to_be_visible()
    assert CheckIn.objects.filter(night=night, player=dan).exists()

    # The tables are seated while Eve is still offline: hers is refused, and she is told.
    night.players.set([*players, dan])
    seat_night(night=night, by=night.organiser, seats_per_table=2)
    eve_context.set_offline(False)
    expect(eve_page.locator("#check-in-waiting")).to_contain_text(
        "Your check-in, pressed while offline, was refused: The tables are seated"
    )
    assert not CheckIn.objects.filter(night=night, player=eve).exists()
    dan_context.close()
    eve_context.close()


def board_cells(page) -> list[str]:
    return page.locator("#board td.num").all_inner_texts()


def test_a_board_cut_off_catches_up_with_what_a_fresh_board_shows(
    daphne_server, playwright_browser
):
    """The board's connection is cut (the browser offline, its socket dropped and every
    new one refused) while holes are confirmed; it says it is reconnecting and keeps what
    it showed, then shows exactly what a board opened afresh shows once it is back."""
    night, night_table, (ann, bea, _) = paper_table()
    board = board_services.create_board(night=night, by=night.organiser)
    report = night_table.report
    reporting.enter_hole(report=report, number=1, strokes=[3, 4, 5], version=0, by=ann)
    reporting.confirm_hole(report=report, number=1, version=1, by=bea)

    cut = {"on": False}
    sockets = []

    def route(socket):
        if cut["on"]:
            socket.close(code=1011)
            return
        socket.connect_to_server()
        sockets.append(socket)

    context = playwright_browser.new_context(viewport={"width": 1280, "height": 720})
    screen = context.new_page()
    screen.set_default_timeout(15_000)
    screen.route_web_socket(re.compile(r"/ws/board/"), route)
    screen.goto(daphne_server.url + board.get_absolute_url())
    expect(screen.locator("#board-connection")).to_have_text("Live")
    before = board_cells(screen)
    assert before[0] == "3"

    cut["on"] = True
    context.set_offline(True)
    for socket in sockets:
        socket.close(code=1011)
    expect(screen.locator("#board-connection")).to_have_text("Reconnecting…")
    for number, strokes in ((2, [1, 2, 3]), (3, [4, 4, 4])):
        reporting.enter_hole(report=report, number=number, strokes=strokes, version=0, by=ann)
        reporting.confirm_hole(report=report, number=number, version=1, by=bea)
    screen.wait_for_timeout(1500)  # a retry or two, refused
    assert board_cells(screen) == before
    expect(screen.locator("#board-connection")).to_have_text("Reconnecting…")

    cut["on"] = False
    context.set_offline(False)
    expect(screen.locator("#board-connection")).to_have_text("Live", timeout=3_000)
    fresh_context = playwright_browser.new_context(viewport={"width": 1280, "height": 720})
    fresh = fresh_context.new_page()
    fresh.goto(daphne_server.url + board.get_absolute_url())
    expect(fresh.locator("#board-connection")).to_have_text("Live")
    expect(screen.locator("#board")).to_have_attribute(
        "data-stamp", fresh.locator("#board").get_attribute("data-stamp"), timeout=3_000
    )
    assert board_cells(screen) == board_cells(fresh) != before
    context.close()
    fresh_context.close()


def test_signing_out_drops_every_page_the_phone_kept(daphne_server, playwright_browser):
    """A kept page is its player's own: once they sign out, the phone opens none of it
    with no connection (the next person to pick the phone up sees nothing of theirs)."""
    _, night_table, _ = paper_table()
    address = daphne_server.url + f"/leagues/report/{night_table.report.code}/"
    context, a = phone(playwright_browser, daphne_server, "ann")
    a.goto(address)
    controlled(a)
    a.get_by_role("button", name="Log out").click()
    expect(a.get_by_role("heading", name="You are logged out")).to_be_visible()
    a.wait_for_function(
        "async () => (await (await caches.open('fairway-shell-v1')).keys()).length === 0"
    )
    context.set_offline(True)
    with pytest.raises(PlaywrightError):
        a.goto(address)
    context.close()


# In the page: the first read of the report's own page (`address`), once the server has
# answered it, does `action` before its text comes in: "type" a digit into the form on
# screen, as a player's thumb may; "tap" its first cell (the keyboard opens, nothing is
# typed yet); or "hold" until the test lets it in (a slow connection).
ON_FIRST_READ = """([address, action]) => {
  const text = Response.prototype.text;
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  window.__release = release;
  Response.prototype.text = async function () {
    const body = await text.call(this);
    if (!window.__read && new URL(this.url).pathname === address) {
      window.__read = true;
      const input = document.querySelector("#hole-form .stroke-input");
      if (action === "type") {
        input.value = "7";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      } else if (action === "tap") {
        input.focus();
      } else {
        await held;
      }
      window.__delivered = true;
    }
    return body;
  };
}"""


def report_phone(browser, server, action: str):
    """Ann's phone on a new paper table's report, kept by the worker, its first read of
    the report doing `action` (`ON_FIRST_READ`): the context, page, table and players."""
    _night, night_table, players = paper_table()
    path = f"/leagues/report/{night_table.report.code}/"
    context, page = phone(browser, server, "ann")
    page.goto(server.url + path)
    controlled(page)
    page.evaluate(ON_FIRST_READ, [path, action])
    return context, page, night_table, players


def test_a_digit_typed_while_the_report_is_read_stays_in_its_form(
    daphne_server, playwright_browser
):
    """Hole 1 sent, the page reads the report afresh to show it; a digit typed into hole
    2's form meanwhile stays there: the page is not replaced under the player."""
    context, page, night_table, _players = report_phone(playwright_browser, daphne_server, "type")
    enter(page, 1, [3, 4, 5])
    page.wait_for_function("() => window.__read === true")
    expect(page.get_by_role("heading", name="Enter hole 2")).to_be_visible()
    expect(page.locator("#hole-form .stroke-input").first).to_have_value("7")
    assert ReportedHole.objects.filter(report=night_table.report, number=1).exists()
    context.close()


def test_a_cell_tapped_while_the_report_is_read_takes_the_digits_typed_next(
    daphne_server, playwright_browser
):
    """Hole 1 sent, the page reads the report afresh; the player taps hole 2's first cell
    meanwhile, then types: the digits go into that cell, not nowhere (the page replaced
    under the tap lost them, and hole 2 went without them and was refused)."""
    context, page, _table, _players = report_phone(playwright_browser, daphne_server, "tap")
    enter(page, 1, [3, 4, 5])
    page.wait_for_function("() => window.__read === true")
    page.keyboard.type("-3")
    expect(page.get_by_role("heading", name="Enter hole 2")).to_be_visible()
    expect(page.locator("#hole-form .stroke-input").first).to_have_value("-3")
    context.close()


def test_a_report_read_overtaken_by_a_later_entry_is_not_shown(daphne_server, playwright_browser):
    """Hole 1 sent, its read of the report comes in slowly; hole 2 is entered, sent and
    its own read shown meanwhile. The slow read, drawn before hole 2 was recorded, is not
    shown over it (it set the list back to hole 2 not entered)."""
    context, page, _table, _players = report_phone(playwright_browser, daphne_server, "hold")
    enter(page, 1, [3, 4, 5])
    page.wait_for_function("() => window.__read === true")
    enter(page, 2, [1, 2, 3])
    expect(page.locator(".messages")).to_contain_text("Hole 2 entered")
    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__delivered === true")
    expect(page.locator(".messages")).to_contain_text("Hole 2 entered")
    expect(page.locator("#hole-2")).to_contain_text("Waiting for confirmation")
    expect(page.get_by_role("heading", name="Enter hole 3")).to_be_visible()
    context.close()


def test_a_clash_shown_is_not_hidden_by_a_report_read_begun_before_it(
    daphne_server, playwright_browser
):
    """Hole 1 sent, its read of the report comes in slowly; meanwhile Bea enters hole 2
    and Ann's hole 2 comes back as a clash. The slow read does not replace the clash
    panel (Ann's figures, dropped from her phone's queue, were only there)."""
    context, page, night_table, (_ann, bea, _cat) = report_phone(
        playwright_browser, daphne_server, "hold"
    )
    enter(page, 1, [3, 4, 5])
    page.wait_for_function("() => window.__read === true")
    reporting.enter_hole(report=night_table.report, number=2, strokes=[2, 2, 2], version=0, by=bea)
    enter(page, 2, [1, 2, 3])
    clash = page.get_by_role("heading", name="Hole 2 changed while you typed")
    expect(clash).to_be_visible()
    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__delivered === true")
    expect(clash).to_be_visible()
    expect(page.get_by_role("button", name="Overwrite with mine")).to_be_visible()
    context.close()


def test_a_hole_opened_to_change_is_not_replaced_by_a_report_read_begun_before(
    daphne_server, playwright_browser
):
    """Hole 1 sent, its read of the report comes in slowly; Ann opens hole 1 to change it
    meanwhile. The slow read does not replace the form she opened (a dispute opened so
    had its form replaced before it came, and the page never showed it)."""
    context, page, _table, _players = report_phone(playwright_browser, daphne_server, "hold")
    enter(page, 1, [3, 4, 5])
    page.wait_for_function("() => window.__read === true")
    page.locator("#hole-1").get_by_role("link", name="Change").click()
    expect(page.get_by_role("heading", name="Change hole 1")).to_be_visible()
    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__delivered === true")
    expect(page.get_by_role("heading", name="Change hole 1")).to_be_visible()
    context.close()

"""In real browsers: two players finish a turn-based match over days, the clock moved by
the test (deadlines put in the past), never slept; one lets a deadline pass and the
timer's bot moves for them."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import lobby
from games.models import Move, Table
from tests.conftest import DaphneServer
from tests.e2e.test_live_play import sign_in, take_turn
from tests.factories import PASSWORD, make_player
from tests.games.helpers import act_until_finished

# On PostgreSQL with Redis too: the players' pages hear the server's moves through the
# channel layer (README.md, Testing).
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]


@pytest.fixture
def daphne_server(transactional_db):
    server = DaphneServer(
        extra_env={"FAIRWAY_HOLE_PAUSE": "0.2", "FAIRWAY_BOT_DELAY": "0.1"}
    ).start()
    yield server
    server.stop()


def a_day_passes(table: Table) -> None:
    """The clock moved by the test: the move waited for is overdue now."""
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))


def test_two_players_finish_a_turn_based_match_over_days(daphne_server, playwright_browser):
    make_player("ana", display_name="Ana")
    make_player("ben", display_name="Ben")
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")

    # Ana sets up a turn-based table: a day a move, deadlines in playing hours.
    ana.goto(daphne_server.url + "/play/")
    ana.get_by_label("Game", exact=True).select_option("play-nine")
    ana.get_by_label("Seats", exact=True).fill("2")
    ana.get_by_label("Pace").select_option(str(Table.MoveTime.D1))
    ana.get_by_label("Playing hours (turn-based)").select_option("8-22")
    ana.get_by_role("button", name="Create the table").click()
    expect(ana.get_by_role("heading", name=re.compile("Play Nine"))).to_be_visible()
    table = Table.objects.get()
    assert table.turn_based and table.playing_from == 8
    # Her browser told the table her time zone.
    assert table.clocks["0"]["zone"]

    ben.goto(daphne_server.url + table.get_absolute_url())
    ben.get_by_role("button", name="Sit here").click()
    expect(ana.get_by_text("Ben", exact=True)).to_be_visible()
    ana.get_by_role("button", name="Start the match").click()
    for page in (ana, ben):
        expect(page.get_by_text("Hole 1 of 9")).to_be_visible()
        expect(page.locator("#turn-deadline")).to_contain_text("Move due by")

    # Both have their turn: "Your games" counts it in the tab's title.
    ben.goto(daphne_server.url + "/play/your-games/")
    expect(ben).to_have_title(re.compile(r"^\(1\) Your games"))
    expect(ben.locator("#your-games li.your-turn")).to_contain_text("your turn")
    ben.goto(daphne_server.url + table.get_absolute_url())

    # Ana tees off; Ben lets his deadline pass: the timer's bot tees off for him.
    expect(ana.locator("#tee-off-button")).to_be_visible()
    take_turn(ana)
    ana.wait_for_selector("#table-status[data-version]", state="attached")
    expect(ben.locator("#table-log")).to_contain_text("teed off")
    a_day_passes(table)
    expect(ana.locator("#table-log")).to_contain_text("(played by the timer)", timeout=20_000)
    bot_move = Move.objects.get(hole__table=table, by_bot=True)
    assert bot_move.seat == 1
    table.refresh_from_db()
    assert table.turn_deadline > timezone.now() + timedelta(hours=20)

    # They play on, each opening the table when it is their turn, over the first hole.
    pages = {0: ana, 1: ben}
    for _ in range(120):
        table.refresh_from_db()
        hole = table.holes.order_by("-number").first()
        if hole.number > 1 or hole.finished_at is not None:
            break
        for page in pages.values():
            page.wait_for_selector(
                f'#table-status[data-version="{table.version}"]', state="attached"
            )
        actor = next(
            (p for p in pages.values() if p.locator("#table-status[data-your-turn=yes]").count()),
            None,
        )
        assert actor is not None, "someone is always to move"
        count = Move.objects.filter(hole=hole).count()
        take_turn(actor)
        for _wait in range(200):
            if Move.objects.filter(hole=hole).count() > count:
                break
            actor.wait_for_timeout(50)
    else:
        pytest.fail("the first hole did not end")

    # The days pass: every later move is left to its deadline, played as at a time
    # past each one, until the match ends.
    act_until_finished(table, timezone.now() + timedelta(days=400))
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.turn_deadline is None
    for page in pages.values():
        page.reload()
        expect(page.get_by_role("heading", name="Final results")).to_be_visible(timeout=20_000)
    # Finished, it leaves "Your games".
    ana.goto(daphne_server.url + "/play/your-games/")
    expect(ana).to_have_title(re.compile(r"^Your games"))
    expect(ana.get_by_text("No turn-based tables.")).to_be_visible()
    ana_context.close()
    ben_context.close()


def test_a_deadline_shows_in_the_browsers_own_time_zone(daphne_server, playwright_browser):
    """The server writes a deadline in UTC; a player in Tokyo reads it in Tokyo's time,
    on the page as it opens and again when a move's frame swaps the status in."""
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    table = lobby.create_table(
        host=ana, variant="play-nine", seat_count=2, players=[ana, ben], move_time=Table.MoveTime.D1
    )
    lobby.start_match(table=table, by=ana)
    due = datetime(2031, 1, 7, 5, 30, tzinfo=UTC)  # a Tuesday: 14:30 in Tokyo
    Table.objects.filter(pk=table.pk).update(turn_deadline=due)
    context = playwright_browser.new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(daphne_server.url + "/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(daphne_server.url + table.get_absolute_url())
    deadline = page.locator("#turn-deadline time")
    expect(deadline).to_have_text(re.compile(r"Tue.*7 Jan.*14:30"))
    expect(deadline).not_to_contain_text("UTC")
    take_turn(page)  # Ana tees off: the status comes again over the socket
    expect(page.locator("#table-log")).to_contain_text("teed off")
    expect(page.locator("#turn-deadline time")).to_have_text(re.compile(r"\d\d:\d\d"))
    expect(page.locator("#turn-deadline time")).not_to_contain_text("UTC")
    context.close()

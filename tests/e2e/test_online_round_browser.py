"""In real browsers: an organiser makes a night an online round and seats it; two members
find their table on the night's page and play it over days (the clock moved by the test,
deadlines and the due time put in the past, never slept); at the due time the league's
stand-in bot plays it out, and the standings show the result."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import Move, Seat, Table
from leagues.models import LeagueNight
from leagues.seating import online
from tests.conftest import DaphneServer
from tests.e2e.test_live_play import sign_in, take_turn
from tests.factories import make_club, make_league, make_player, make_season

# On PostgreSQL with Redis too: the round is played out beside the server's own driver.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]


@pytest.fixture
def daphne_server(transactional_db):
    server = DaphneServer(
        extra_env={"FAIRWAY_HOLE_PAUSE": "0.2", "FAIRWAY_BOT_DELAY": "0.1"}
    ).start()
    yield server
    server.stop()


def local(moment) -> str:
    """`moment` as a datetime-local field takes it, in the site's time zone."""
    return timezone.localtime(moment).strftime("%Y-%m-%dT%H:%M")


def test_two_members_play_an_online_round_over_days_and_the_standings_show_it(
    daphne_server, playwright_browser
):
    olive = make_player("olive", display_name="Olive")
    ana = make_player("ana", display_name="Ana")
    ben = make_player("ben", display_name="Ben")
    league = make_league(make_club("Green Club", organiser=olive, members=[ana, ben]))
    today = timezone.localdate()
    season = make_season(league, start=today - timedelta(days=30), end=today + timedelta(days=60))
    server = daphne_server.url

    # Olive makes the round: a day a move, open since a moment ago, due in a week.
    olive_context, organiser = sign_in(playwright_browser, daphne_server, "olive")
    organiser.goto(server + season.get_absolute_url())
    opens = timezone.now() - timedelta(minutes=5)
    organiser.get_by_label("An online round").check()
    organiser.get_by_label("Time per move").select_option(str(Table.MoveTime.D1))
    organiser.get_by_label("Opens", exact=True).fill(local(opens))
    # A due time before the opening is refused, with the reason.
    organiser.get_by_label("Due", exact=True).fill(local(opens - timedelta(days=1)))
    organiser.get_by_role("button", name="Create night").click()
    expect(organiser.get_by_text("An online round is due after it opens.")).to_be_visible()
    organiser.get_by_label("Due", exact=True).fill(local(opens + timedelta(days=7)))
    organiser.get_by_role("button", name="Create night").click()
    expect(organiser.locator("#online-round")).to_contain_text("1 day a move")
    night = LeagueNight.objects.get()
    assert night.online and night.move_time == Table.MoveTime.D1

    for name in ("Ana", "Ben"):
        organiser.get_by_label(name, exact=True).check()
    organiser.get_by_role("button", name="Save players present").click()
    expect(organiser.get_by_text("2 players present.")).to_be_visible()
    organiser.get_by_label("Seats per table").fill("2")
    organiser.get_by_role("button", name="Seat players").click()
    expect(organiser.get_by_text("Players seated at 1 tables.")).to_be_visible()
    # Its opening has come: the table teed off as it was seated.
    expect(organiser.locator("#online-round")).to_contain_text("It is open")
    table = Table.objects.get()
    assert table.turn_based and table.status == Table.Status.PLAYING

    # Each member finds their table on the night's page.
    pages = {}
    contexts = [olive_context]
    for username in ("ana", "ben"):
        context, page = sign_in(playwright_browser, daphne_server, username)
        contexts.append(context)
        page.goto(server + night.get_absolute_url())
        expect(page.locator("#round-table-1")).to_contain_text("0 of 9")
        page.get_by_role("link", name="Play at your table").click()
        expect(page.get_by_text("Hole 1 of 9")).to_be_visible()
        expect(page.locator("#turn-deadline")).to_contain_text("Move due by")
        pages[username] = page

    # Day one: Ana tees off; Ben lets his day pass, and the timer's bot tees off for him.
    expect(pages["ana"].locator("#tee-off-button")).to_be_visible()
    take_turn(pages["ana"])
    expect(pages["ben"].locator("#table-log")).to_contain_text("teed off")
    Table.objects.filter(pk=table.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    expect(pages["ana"].locator("#table-log")).to_contain_text(
        "(played by the timer)", timeout=20_000
    )
    bens_seat = Seat.objects.get(table=table, player=ben).position
    assert Move.objects.get(hole__table=table, by_bot=True).seat == bens_seat

    # The next days: whoever is to move plays a move when they open the table.
    for _ in range(4):
        table.refresh_from_db()
        for page in pages.values():
            page.wait_for_selector(
                f'#table-status[data-version="{table.version}"]', state="attached"
            )
        actor = next(
            p for p in pages.values() if p.locator("#table-status[data-your-turn=yes]").count()
        )
        moves = Move.objects.filter(hole__table=table).count()
        take_turn(actor)
        expect(
            actor.locator(f'#table-status:not([data-version="{table.version}"])')
        ).to_be_attached()
        assert Move.objects.filter(hole__table=table).count() > moves

    # The week is over: at the due time the league's bot plays the table out.
    LeagueNight.objects.filter(pk=night.pk).update(due_at=timezone.now() - timedelta(seconds=1))
    assert online.run_due_rounds() == (0, 1)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED

    ana_page = pages["ana"]
    ana_page.goto(server + night.get_absolute_url())
    expect(ana_page.locator("#online-round")).to_contain_text("It is over")
    expect(ana_page.locator("#round-table-1")).to_contain_text("9 of 9")
    ana_page.goto(server + season.get_absolute_url())
    standings = ana_page.locator("table.standings tbody tr")
    expect(standings).to_have_count(2)
    for name in ("Ana", "Ben"):
        expect(standings.filter(has_text=name)).to_contain_text(re.compile(r"\b1\b"))
    for context in contexts:
        context.close()

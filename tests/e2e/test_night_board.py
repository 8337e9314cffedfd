"""In a real browser: the night's board on the room's screen, opened without signing
in. A hole lands and the board shows it without a reload; paper results saved by the
organiser follow; revoking the link closes the board. A full night fits the screen."""

from __future__ import annotations

import random
import re
from datetime import date
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import lobby
from games.models import ScorecardHole, Table
from leagues.board import services
from leagues.seating.services import seat_night
from leagues.teams import services as team_services
from tests.e2e.test_content_security_policy import Watched
from tests.e2e.test_pages import serious_findings
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
from tests.games.test_restart import open_socket
from tests.leagues.board.test_board_processes import play_hole_over_sockets

# On PostgreSQL with Redis too: a new page of the club room, in both setups.
pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
SCREENS = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}


def test_a_hole_lands_on_the_open_board_without_a_reload(daphne_server, playwright_browser):
    olive = make_player("olive", display_name="Olive")
    people = [make_player(name.lower(), display_name=name) for name in ("Ann", "Bea")]
    club = make_club("Green Club", organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    night.players.set(people)
    (live,) = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, rng=random.Random(1)
    )
    lobby.start_match(table=live.table, by=olive)
    paper = open_table(night, people)
    board = services.create_board(night=night, by=olive)

    screen = Watched(playwright_browser, daphne_server)
    page = screen.page
    page.set_viewport_size({"width": 1920, "height": 1080})
    screen.visit(board.get_absolute_url())
    expect(page.locator("#board-connection")).to_have_text("Live")
    expect(page.locator("#board-table-1")).to_be_visible()
    page.evaluate("() => { window.sameBoard = true; }")
    cells = page.locator("article:has(#board-table-1) tbody td.num")
    expect(cells.first).to_have_text("")

    seated = {s.position: s.player for s in live.table.seats.select_related("player")}
    with (
        open_socket(daphne_server, seated[0], live.table) as seat_0,
        open_socket(daphne_server, seated[1], live.table) as seat_1,
    ):
        play_hole_over_sockets(live.table_id, {0: seat_0, 1: seat_1})
    strokes = ScorecardHole.objects.filter(scorecard__table=live.table, number=1)
    first = strokes.get(scorecard__position=0).strokes
    row = page.locator("article:has(#board-table-1) tbody tr").nth(0)
    expect(row.locator("td.num").first).to_have_text(str(first))
    assert page.evaluate("() => window.sameBoard") is True  # no reload

    # The organiser saves the paper table's results: the board follows.
    organiser = Watched(playwright_browser, daphne_server)
    organiser.sign_in("olive")
    organiser.visit(f"/leagues/tables/{paper.pk}/results/")
    for name, total in (("Ann", 21), ("Bea", 30)):
        organiser.page.get_by_label(f"{name}, hole 1", exact=True).fill(str(total - 8))
        for number in range(2, 10):
            organiser.page.get_by_label(f"{name}, hole {number}", exact=True).fill("1")
    organiser.page.get_by_role("button", name="Save results").click()
    expect(organiser.page.get_by_text("Results saved for table 2.")).to_be_visible()
    expect(page.locator("article:has(#board-table-2) td.total")).to_have_text(["21", "30"])
    expect(page.locator("article:has(#board-table-2)")).to_contain_text("Finished")
    assert page.evaluate("() => window.sameBoard") is True
    assert serious_findings(page) == []
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "board.png"))

    # Revoked from the night's page: the board says so, and its link is gone.
    organiser.visit(night.get_absolute_url())
    organiser.page.get_by_role("button", name="Revoke the link").click()
    expect(organiser.page.get_by_text("The board's link no longer works.")).to_be_visible()
    expect(page.get_by_role("alert")).to_contain_text("no longer works")
    expect(page.locator("#board-connection")).to_have_text("Not live")
    screen.check()
    organiser.check()
    response = page.goto(daphne_server.url + board.get_absolute_url())
    assert response.status == 410
    screen.context.close()
    organiser.context.close()


@pytest.mark.parametrize("teams", [False, True], ids=["players", "teams"])
@pytest.mark.parametrize("size", SCREENS, ids=list(SCREENS))
def test_a_night_of_six_tables_fits_the_screen_without_scrolling(
    daphne_server, playwright_browser, size, teams
):
    olive = make_player("olive", display_name="Olive")
    names = [f"Player {n:02d} Longname" for n in range(24)]
    people = [make_player(f"p{n}", display_name=name) for n, name in enumerate(names)]
    club = make_club("Green Club", organiser=olive, members=people)
    league = make_league(club)
    league.name = "Thursday Evening Play Nine League"
    league.save()
    if teams:  # as many teams as a night of 24 makes: twelve pairs
        team_services.set_team_rules(
            league=league, team_size=2, team_score="best", team_counted=1, by=olive
        )
        for n in range(12):
            team_services.create_team(
                league=league,
                name=f"Team {n:02d} Longername",
                members=people[n::12],
                captain=people[n],
                by=olive,
            )
    night = make_night(make_season(league), date(2026, 3, 1))
    for n in range(6):
        played_table(night, people[4 * n : 4 * n + 4], even_holes(20 + n, 31, 42, 53))
    board = services.create_board(night=night, by=olive)

    width, height = SCREENS[size]
    context = playwright_browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(daphne_server.url + board.get_absolute_url())
    expect(page.locator("#board-connection")).to_have_text("Live")
    page.screenshot(path=str(SCREENSHOTS / f"board-{size}{'-teams' if teams else ''}.png"))
    overflow = page.evaluate(
        "() => [document.documentElement.scrollWidth - innerWidth,"
        " document.documentElement.scrollHeight - innerHeight]"
    )
    assert overflow[0] <= 0 and overflow[1] <= 0, f"the board scrolls by {overflow}"
    # Every table and every standings line shown lies inside the screen, whole.
    boxes = page.locator(".board-page.is-shown .board-table, .board-page.is-shown tbody tr")
    outside = boxes.evaluate_all(
        "els => els.map((el) => el.getBoundingClientRect())"
        ".filter((r) => r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5).length"
    )
    assert outside == 0
    assert page.locator(".board-page.is-shown .board-table").count() == 6
    # Nothing in a table's card is cut off sideways.
    cut = page.locator(".board-table").evaluate_all(
        "els => els.filter((el) => el.scrollWidth > el.clientWidth + 1).length"
    )
    assert cut == 0
    # The standings' second page takes its turn on the screen (the teams' too).
    regions = [".board-standings", ".board-teams"] if teams else [".board-standings"]
    for region in regions:
        pages = page.locator(f"{region} [data-board-page]")
        assert pages.count() >= 2
        expect(pages.nth(1)).to_be_visible(timeout=20_000)
        assert re.search(rf"Page 2 of {pages.count()}", pages.nth(1).inner_text())
    assert page.locator(".board-teams").count() == int(teams)
    context.close()


def test_the_board_page_signed_in_or_not_needs_no_password(daphne_server, page):
    """The link alone opens it: no log-in page on the way, even for a stranger."""
    olive = make_player("olive")
    club = make_club(organiser=olive)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    board = services.create_board(night=night, by=olive)
    page.goto(daphne_server.url + board.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_contain_text(night.season.league.name)
    assert "/accounts/login/" not in page.url
    assert PASSWORD  # the factories' password is never asked for


#: The smallest strokes a room reads from across it, by screen: a stroke's type grows
#: with the screen, for any night of up to six tables.
LEAST_STROKES_PX = {"1920x1080": 32, "1280x720": 22}


#: Nights of up to six tables, as many as a screen shows at once: (tables, seats at each).
NIGHTS = {"1x4": (1, 4), "3x4": (3, 4), "6x4": (6, 4), "4x6": (4, 6), "2x8": (2, 8)}


@pytest.mark.parametrize("duplicate", [False, True], ids=["plain", "duplicate"])
@pytest.mark.parametrize("shape", NIGHTS, ids=list(NIGHTS))
@pytest.mark.parametrize("size", SCREENS, ids=list(SCREENS))
def test_the_strokes_read_across_the_room_and_the_tables_fill_the_screen(
    daphne_server, playwright_browser, size, shape, duplicate
):
    """One, three or six tables of four (four of six, two of eight), on a TV's two
    common screens: each stroke is large enough to read from across the room, the
    tables take their whole part of the screen, and nothing scrolls or is cut off (a
    duplicate night's matchpoints too)."""
    tables, seats = NIGHTS[shape]
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{n}", display_name=f"Player {n:02d} Longname") for n in range(24)]
    club = make_club("Green Club", organiser=olive, members=people)
    # Eight at a table take the three decks' game.
    league = make_league(club, variant="golf-9-3deck" if seats > 6 else "play-nine")
    league.name = "Thursday Evening Play Nine League"
    league.save()
    night = make_night(make_season(league), date(2026, 3, 1), duplicate_deals=duplicate)
    for n in range(tables):
        totals = [20 + n, -4, 42, 53, 30, 31, 32, 33][:seats]
        played_table(night, people[seats * n : seats * (n + 1)], even_holes(*totals))
    if duplicate:  # every table dealt the same cards: matchpoints show
        seed = night.tables.order_by("number").first().table.deal_seed
        Table.objects.filter(night_table__night=night).update(deal_seed=seed)
    board = services.create_board(night=night, by=olive)

    width, height = SCREENS[size]
    context = playwright_browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(daphne_server.url + board.get_absolute_url())
    expect(page.locator("#board-connection")).to_have_text("Live")
    kind = "duplicate" if duplicate else "plain"
    page.screenshot(path=str(SCREENSHOTS / f"board-{size}-{shape}-{kind}.png"))
    if duplicate:
        expect(page.locator(".board-standings thead").first).to_contain_text("MP")
    shown = page.locator(".board-page.is-shown .board-table")
    assert shown.count() == tables
    strokes = page.locator(".board-page.is-shown .board-card tbody td.num").evaluate_all(
        "els => els.map((el) => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert len(strokes) == tables * seats * 10
    assert min(strokes) >= LEAST_STROKES_PX[size], f"strokes of {min(strokes)} px"
    overflow = page.evaluate(
        "() => [document.documentElement.scrollWidth - innerWidth,"
        " document.documentElement.scrollHeight - innerHeight]"
    )
    assert overflow[0] <= 0 and overflow[1] <= 0, f"the board scrolls by {overflow}"
    # The tables use their part of the screen: down to its foot, across its width,
    # each whole (nothing cut off sideways or below).
    used = page.evaluate(
        """() => {
          const region = document.querySelector(".board-tables").getBoundingClientRect();
          const cards = [...document.querySelectorAll(".board-page.is-shown .board-table")]
            .map((el) => el.getBoundingClientRect());
          const bottom = Math.max(...cards.map((r) => r.bottom));
          const right = Math.max(...cards.map((r) => r.right));
          return [(bottom - region.top) / region.height, (right - region.left) / region.width,
                  Math.max(...cards.map((r) => r.bottom)) <= innerHeight + 0.5];
        }"""
    )
    assert used[0] >= 0.9 and used[1] >= 0.9 and used[2], f"the tables use {used}"
    cut = shown.evaluate_all(
        "els => els.filter((el) => el.scrollWidth > el.clientWidth + 1"
        " || el.scrollHeight > el.clientHeight + 1).length"
    )
    assert cut == 0
    context.close()

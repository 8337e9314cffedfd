"""In real browsers: the table's controls keep what a player chose and never overlap."""

from __future__ import annotations

import contextlib
import math
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from games import engine, lobby, services
from games.models import Move, Table
from tests import driving
from tests.conftest import DaphneServer
from tests.e2e.test_live_play import sign_in
from tests.factories import make_player
from tests.games.helpers import ana_and_ben, current, finish_hole, next_actor, quick_action

pytestmark = pytest.mark.e2e


def live(page, server, table: Table) -> None:
    """Open the table and wait until the socket's first frame has made it live."""
    page.goto(server.url + table.get_absolute_url())
    page.wait_for_selector("#table-board:not([inert])", state="attached")


def wait_for_moves(table, count: int, page) -> None:
    """Wait until the table's move log holds at least `count` moves."""
    for _ in range(200):
        if Move.objects.filter(hole__table=table).count() >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"{count} moves were never made")


@pytest.mark.both_databases  # Ben's tee off reaches Ana's page through the channel layer
def test_a_tee_off_tick_survives_another_players_tee_off(daphne_server, playwright_browser):
    """Ana ticks a card, Ben tees off (a live frame re-renders Ana's board): her tick stays,
    and with a second one her tee off goes through."""
    table, ana_player, ben_player = ana_and_ben()
    ana_context, ana = sign_in(playwright_browser, daphne_server, "ana")
    ben_context, ben = sign_in(playwright_browser, daphne_server, "ben")
    live(ana, daphne_server, table)
    live(ben, daphne_server, table)

    ana.locator(".tee-off label.pick").nth(0).click()
    expect(ana.locator("#tee-0")).to_be_checked()
    ben.locator(".tee-off label.pick").nth(0).click()
    ben.locator(".tee-off label.pick").nth(5).click()
    ben.locator("#tee-off-button").click()
    for _ in range(100):
        if Move.objects.filter(hole__table=table).count() == 1:
            break
        ana.wait_for_timeout(50)
    else:
        pytest.fail("Ben's tee off was not made")
    # Read the version once the move is in: read before, it may be the one the move replaced.
    table.refresh_from_db()
    # Ana's board has been swapped for the new version, with her tick in it.
    ana.wait_for_selector(f'#table-status[data-version="{table.version}"]', state="attached")
    expect(ana.locator("#tee-off-button")).to_be_visible()
    expect(ana.locator("#tee-0")).to_be_checked()

    ana.locator(".tee-off label.pick").nth(5).click()
    ana.locator("#tee-off-button").click()
    expect(ana.locator("#tee-off-button")).to_have_count(0)
    expect(ana.locator("#table-alert")).not_to_contain_text("Choose exactly")
    assert Move.objects.filter(hole__table=table).count() == 2
    ana_context.close()
    ben_context.close()


DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

# Every control the table page shows, as boxes, with whether its label fits inside it.
CONTROLS = """() => Array.from(document.querySelectorAll(
    "#table-live button, #table-live select, #table-live a, #table-live label"
  )).filter((el) => el.offsetParent !== null).map((el) => {
    const r = el.getBoundingClientRect();
    return {id: el.id || el.textContent.trim(), left: r.left, right: r.right, top: r.top,
            bottom: r.bottom, clipped: el.scrollWidth > el.clientWidth + 1};
  })"""


def overlaps(boxes: list[dict]) -> list[tuple[str, str]]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            width = min(a["right"], b["right"]) - max(a["left"], b["left"])
            height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if width > 0.5 and height > 0.5:
                found.append((a["id"], b["id"]))
    return found


@pytest.fixture
def fast_bots():
    server = DaphneServer(
        extra_env={"FAIRWAY_HOLE_PAUSE": "3600", "FAIRWAY_BOT_DELAY": "0.05"}
    ).start()
    yield server
    server.stop()


@pytest.mark.parametrize(
    ("seats", "variant"), [(2, "play-nine"), (4, "play-nine"), (8, "golf-9-3deck")]
)
def test_no_control_on_the_table_overlaps_another_mid_hole(
    transactional_db, fast_bots, playwright_browser, seats, variant
):
    """With a card drawn and most cards face down (a "Turn up" under each), every button
    keeps its own space and its whole label, on a desktop and on a phone, and nothing
    scrolls sideways."""
    ana_player = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana_player,
        variant=variant,
        seat_count=seats,
        players=[ana_player],
        bots=dict.fromkeys(range(1, seats), "greedy"),
    )
    table = lobby.start_match(table=table, by=ana_player)
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    live(ana, fast_bots, table)
    # The bots tee off first: a tick made while their frames re-render the board can
    # land on a label being replaced, and this test is about layout, not that race.
    wait_for_moves(table, seats - 1, ana)
    legend = ana.locator(".tee-off legend").inner_text()
    for n in range(int(re.search(r"choose (\d+)", legend).group(1))):
        ana.locator(".tee-off label.pick").nth(n).click()
        expect(ana.locator(".tee-off label.pick").nth(n).locator("input")).to_be_checked()
    ana.locator("#tee-off-button").click()
    wait_for_moves(table, seats, ana)
    ana.locator("#draw-pile").click(timeout=30_000)
    expect(ana.locator("button.card-button[id^=replace-]").first).to_be_visible()
    if variant == "play-nine":
        assert ana.locator("button.flip").count() >= 3

    for viewport, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        ana.set_viewport_size(viewport)
        ana.wait_for_timeout(100)
        boxes = ana.evaluate(CONTROLS)
        assert len(boxes) > seats
        assert overlaps(boxes) == [], suffix
        assert [box["id"] for box in boxes if box["clipped"]] == [], suffix
        assert ana.evaluate("document.documentElement.scrollWidth <= innerWidth"), suffix
        ana.screenshot(path=str(SCREENSHOTS / f"table-{seats}-seats{suffix}.png"), full_page=True)
    context.close()


@pytest.fixture
def short_pause():
    server = DaphneServer(extra_env={"FAIRWAY_HOLE_PAUSE": "8", "FAIRWAY_BOT_DELAY": "0.05"})
    yield server.start()
    server.stop()


def test_only_a_turn_timer_s_last_seconds_are_urgent(
    transactional_db, short_pause, playwright_browser
):
    """The wait for the next deal counts down calmly; a turn with seconds left turns red."""
    ana_player, ben_player = make_player("ana"), make_player("ben")
    players = {0: ana_player, 1: ben_player}
    table = lobby.create_table(
        host=ana_player,
        variant="golf-4",
        seat_count=3,
        players=[ana_player, ben_player],
        bots={2: "greedy"},
    )
    table = lobby.start_match(table=table, by=ana_player)
    for _ in range(500):
        table, hole, state = current(table.pk)
        if hole.finished_at is not None:
            break
        seat = next_actor(state)
        position = hole.seat_positions[seat]
        if position in players:
            with contextlib.suppress(services.GameError):  # the bot moved first
                services.apply_move(
                    table_id=table.pk,
                    player=players[position],
                    action=quick_action(state, seat),
                    version=table.version,
                )
        else:
            time.sleep(0.05)  # the server's driver plays the bot
    context, ana = sign_in(playwright_browser, short_pause, "ana")
    live(ana, short_pause, table)
    deal = ana.locator("#hole-banner .countdown")
    expect(deal).to_be_visible()
    ana.wait_for_timeout(600)  # the page's ticker has run
    assert int(deal.inner_text().split()[0]) <= 10
    expect(deal).not_to_have_class(re.compile(r"\burgent\b"))
    expect(deal).to_have_css("color", "rgb(29, 37, 33)")

    timed = lobby.create_table(
        host=ana_player,
        variant="play-nine",
        seat_count=2,
        players=[ana_player, ben_player],
        turn_timer=30,
    )
    lobby.start_match(table=timed, by=ana_player)
    Table.objects.filter(pk=timed.pk).update(turn_started_at=timezone.now() - timedelta(seconds=22))
    live(ana, short_pause, timed)
    clock = ana.locator("#table-status .countdown")
    expect(clock).to_have_class(re.compile(r"\burgent\b"))
    context.close()


# Every course's box and the piles', with the felt's.
SEATS = """() => {
    const box = (el) => { const r = el.getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
              x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2}; };
    const courses = {};
    document.querySelectorAll("#table-board .course").forEach((el) => {
      courses[el.id.replace("course-", "")] = box(el); });
    return {courses: courses, piles: box(document.querySelector("#table-board .middle")),
            felt: box(document.querySelector("#table-board .felt"))};
  }"""


NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= innerWidth"


def seated_clockwise(layout: dict, me: int, count: int) -> list[dict]:
    """The others' boxes in turn order after the viewer at seat `me`."""
    return [layout["courses"][str((me + k) % count)] for k in range(1, count)]


def test_the_others_sit_around_the_felt_as_at_a_real_table(
    transactional_db, fast_bots, playwright_browser
):
    """From 2 to 8 seats: on a desktop the viewer sits at the bottom and the others follow
    clockwise, up the left, across the top, down the right; on a phone they stack in turn
    order above the piles, the viewer below. No seat covers another or the piles, and
    nothing scrolls sideways, even beside a long name whose seat a bot keeps."""
    ana_player = make_player("ana", display_name="Ana")
    ben_player = make_player("ben", display_name="Bartholomew-Featherstonehaugh")
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    for count in range(2, 9):
        me, ben = 1, 2 % count
        variant = "play-nine" if count <= 6 else "golf-9-3deck"
        table = lobby.create_table(
            host=ana_player,
            variant=variant,
            seat_count=count,
            players=[p for _, p in sorted({me: ana_player, ben: ben_player}.items())],
            bots={p: "greedy" for p in range(count) if p not in (me, ben)},
        )
        table = lobby.start_match(table=table, by=ana_player)
        table.seats.filter(position=ben).update(bot_level="greedy")  # "bot for Bartholomew"
        for viewport, where in ((DESKTOP, "desktop"), (PHONE, "phone")):
            ana.set_viewport_size(viewport)
            live(ana, fast_bots, table)
            expect(ana.locator(f"#course-{ben} .chip.kept")).to_contain_text("Bartholomew")
            layout = ana.evaluate(SEATS)
            mine = layout["courses"][str(me)]
            others = seated_clockwise(layout, me, count)
            boxes = [*layout["courses"].values(), layout["piles"]]
            assert overlaps([dict(b, id=str(i)) for i, b in enumerate(boxes)]) == [], (count, where)
            assert ana.evaluate(NO_SIDEWAYS_SCROLL), (count, where)
            for course in layout["courses"].values():
                assert layout["felt"]["left"] <= course["left"], (count, where)
                assert course["right"] <= layout["felt"]["right"], (count, where)
            if where == "desktop":
                # Clockwise as seen from above: the angle round the felt's centre,
                # counted from the bottom, grows seat by seat.
                felt = layout["felt"]
                assert mine["y"] > felt["y"], count
                angles = [
                    math.atan2(-(b["x"] - felt["x"]), b["y"] - felt["y"]) % (2 * math.pi)
                    for b in others
                ]
                assert angles == sorted(angles), (count, angles)
                assert all(0.3 < a < 2 * math.pi - 0.3 for a in angles), (count, angles)
            else:
                assert mine["top"] >= layout["piles"]["bottom"], count
                assert all(b["bottom"] <= layout["piles"]["top"] for b in others), count
                reading = sorted(others, key=lambda b: (round(b["top"]), b["left"]))
                assert reading == others, count
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    context.close()


# The scorecard's fit: its table against its box, and each name on one line.
SCORECARD = """() => {
    const wrap = document.querySelector("#table-scorecard .table-wrap");
    const total = document.querySelector("#table-scorecard thead th:last-child");
    const lines = Array.from(document.querySelectorAll("#table-scorecard tbody th")).map(
      (th) => { const range = document.createRange(); range.selectNodeContents(th);
        const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
        return tops.size; });
    return {hidden: wrap.scrollWidth - wrap.clientWidth,
            totalRight: total.getBoundingClientRect().right,
            wrapRight: wrap.getBoundingClientRect().right, lines: lines};
  }"""


def test_the_scorecard_keeps_names_on_one_line_and_its_total_in_view(
    daphne_server, playwright_browser
):
    """Four players, two with long names, two-digit strokes on eight holes: every name
    stays on one line and the Total column is in view without scrolling, on a desktop
    and on a phone."""
    ana_player = make_player("ana", display_name="Anastasia Featherstonehaugh-Wright")
    ben_player = make_player("ben", display_name="Bartholomew Quackenbush")
    table = lobby.create_table(
        host=ana_player,
        variant="play-nine",
        seat_count=4,
        players=[ana_player, ben_player],
        bots={2: "greedy", 3: "expert"},
    )
    table = lobby.start_match(table=table, by=ana_player)
    for number in range(1, 9):
        driving.record_hole(table=table, number=number, strokes={0: 12, 1: -10, 2: 24, 3: 7})
    context, ana = sign_in(playwright_browser, daphne_server, "ana")
    for viewport, where in ((DESKTOP, "desktop"), (PHONE, "phone")):
        ana.set_viewport_size(viewport)
        live(ana, daphne_server, table)
        expect(ana.locator("#table-scorecard tbody tr")).to_have_count(4)
        fit = ana.evaluate(SCORECARD)
        assert fit["lines"] == [1, 1, 1, 1], where
        assert fit["hidden"] <= 0, where
        assert fit["totalRight"] <= fit["wrapRight"] + 0.5, where
        assert ana.evaluate(NO_SIDEWAYS_SCROLL), where
        ana.locator("#table-scorecard").screenshot(path=str(SCREENSHOTS / f"scorecard-{where}.png"))
    context.close()


# Everything the polite live region says, in order.
HEARD = """
window.__heard = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("table-announce");
  new MutationObserver(() => window.__heard.push(region.textContent)).observe(
    region, {childList: true, characterData: true, subtree: true});
});
"""


def test_every_move_is_announced_in_a_polite_live_region(
    transactional_db, fast_bots, playwright_browser
):
    """Ana plays against two quick bots: each move in the log, hers and theirs, was read
    out, in order, through the page's polite status region."""
    ana_player = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana_player,
        variant="play-nine",
        seat_count=3,
        players=[ana_player],
        bots={1: "greedy", 2: "greedy"},
    )
    table = lobby.start_match(table=table, by=ana_player)
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    context.add_init_script(HEARD)
    live(ana, fast_bots, table)
    region = ana.locator("#table-announce")
    expect(region).to_have_attribute("aria-live", "polite")
    expect(region).to_have_attribute("role", "status")
    ana.locator(".tee-off label.pick").nth(0).click()
    ana.locator(".tee-off label.pick").nth(5).click()
    ana.locator("#tee-off-button").click()
    for _ in range(2):
        ana.locator("#draw-pile").click(timeout=30_000)
        ana.locator("button.flip").first.click()
    # Both bots move after Ana's second turn, then it is hers again.
    expect(ana.locator("#draw-pile")).to_be_visible(timeout=30_000)
    shown = ana.locator("#table-log li").all_inner_texts()
    assert len(shown) == 6
    heard = " ".join(ana.evaluate("window.__heard"))
    # Oldest first: each line is heard after the one before it.
    at = 0
    for line in reversed(shown):
        found = heard.find(line, at)
        assert found >= 0, (line, heard)
        at = found + len(line)
    assert heard.endswith("Your turn: draw a card.")
    context.close()


def tab_to(page, selector: str, presses: int = 80) -> int:
    """Press Tab (nothing else) until the focus is on an element matching `selector`;
    how many presses it took."""
    expect(page.locator(selector).first).to_be_attached(timeout=30_000)
    for pressed in range(presses):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return pressed
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_a_whole_hole_is_played_with_tab_enter_and_space(
    transactional_db, fast_bots, playwright_browser
):
    """Tee off, then draw and turn a card up, turn after turn, until the hole is over:
    with the keyboard's Tab, Enter and Space alone, the focus brought back to the draw
    pile whenever the turn comes back."""
    ana_player = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana_player,
        variant="play-nine",
        seat_count=2,
        players=[ana_player],
        bots={1: "greedy"},
    )
    table = lobby.start_match(table=table, by=ana_player)
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    live(ana, fast_bots, table)
    for _ in range(2):
        tab_to(ana, ".tee-off input[name=positions]:not(:checked)")
        ana.keyboard.press("Space")
    tab_to(ana, "#tee-off-button")
    ana.keyboard.press("Enter")
    turns = 0
    while True:
        expect(ana.locator("#hole-banner, #draw-pile").first).to_be_attached(timeout=30_000)
        if ana.locator("#hole-banner").count():
            break
        version = int(ana.locator("#table-status").get_attribute("data-version"))
        # The focus waits on the draw pile when the turn comes back (not on "Leave the
        # match", nor lost to the top of the page).
        assert tab_to(ana, "#draw-pile") == 0
        ana.keyboard.press("Enter")
        tab_to(ana, "button.flip")
        ana.keyboard.press("Space")
        ana.wait_for_function(
            "(v) => +document.getElementById('table-status').dataset.version > v + 1", arg=version
        )
        turns += 1
        assert turns < 12
    expect(ana.locator("#table-status")).to_contain_text("Hole 1 over")
    table, hole, _ = current(table.pk)
    assert hole.finished_at is not None
    anas = Move.objects.filter(hole=hole, seat=hole.seat_positions.index(0))
    assert anas.count() == 1 + 2 * turns  # her tee off, then a draw and a turn up each turn
    context.close()


def a_finished_hole_with_a_pair(host, guest) -> Table:
    """A two-player Play Nine table whose first hole ended with a matched pair on it."""
    players = {0: host, 1: guest}
    for seed in range(1, 60):
        table = lobby.create_table(
            host=host, variant="play-nine", seat_count=2, players=[host, guest], deal_seed=seed
        )
        table = lobby.start_match(table=table, by=host)
        state = finish_hole(table.pk, players)
        layouts = engine.view(state, None)["layouts"]
        if any(engine.scoring_pairs("play-nine", cards) for cards in layouts):
            table.refresh_from_db()
            return table
        Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    raise AssertionError("no deal ended with a pair")


# For every card tile: what it says to the eye besides its colour.
MARKS = """() => Array.from(document.querySelectorAll("#table-board .card")).map((el) => ({
    paired: el.classList.contains("paired"),
    faceUp: !el.matches(".down, .back, .empty"),
    text: el.textContent.trim(),
    mark: getComputedStyle(el, "::after").content,
  }))"""


def test_cards_are_told_apart_by_more_than_colour(transactional_db, fast_bots, playwright_browser):
    """At the end of a hole every face-up card shows its value as text, a matched pair's
    cards carry an "=" beside the gold, and the scorecard's current hole is underlined
    as well as gold."""
    ana_player = make_player("ana", display_name="Ana")
    table = a_finished_hole_with_a_pair(ana_player, make_player("ben", display_name="Ben"))
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    live(ana, fast_bots, table)
    expect(ana.locator("#hole-banner")).to_be_visible()
    cards = ana.evaluate(MARKS)
    assert all(card["text"] for card in cards if card["faceUp"])
    paired = [card for card in cards if card["paired"]]
    assert len(paired) >= 2
    assert {card["mark"] for card in paired} == {'"="'}
    assert {card["mark"] for card in cards if not card["paired"]} == {"none"}
    now = ana.locator("#table-scorecard .now")
    expect(now).to_have_css("text-decoration-line", "underline")
    ana.locator("#table-board .course:has(.card.paired)").first.screenshot(
        path=str(SCREENSHOTS / "table-hole-over-pairs.png")
    )
    context.close()


def serious_findings(page) -> list[str]:
    """What axe-core finds serious or critical on the page, one line per finding."""
    results = Axe().run(page)
    return [
        f"{v['id']}: {node['target']}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
        for node in v["nodes"]
    ]


def test_axe_finds_nothing_serious_on_a_table_mid_hole(
    transactional_db, fast_bots, playwright_browser
):
    """Tee off, then with a card drawn (every kind of control on screen): no serious or
    critical finding from axe-core, on a desktop and on a phone."""
    ana_player = make_player("ana", display_name="Ana")
    table = lobby.create_table(
        host=ana_player,
        variant="play-nine",
        seat_count=4,
        players=[ana_player],
        bots=dict.fromkeys(range(1, 4), "greedy"),
    )
    table = lobby.start_match(table=table, by=ana_player)
    context, ana = sign_in(playwright_browser, fast_bots, "ana")
    live(ana, fast_bots, table)
    assert serious_findings(ana) == []  # the tee off
    ana.locator(".tee-off label.pick").nth(0).click()
    ana.locator(".tee-off label.pick").nth(5).click()
    ana.locator("#tee-off-button").click()
    ana.locator("#draw-pile").click(timeout=30_000)
    expect(ana.locator("button.flip").first).to_be_visible()
    for viewport in (DESKTOP, PHONE):
        ana.set_viewport_size(viewport)
        assert serious_findings(ana) == [], viewport
    context.close()

"""In a real browser: every page outside the table's board reads well, on a desktop and on
a phone, and passes an axe-core audit."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from playwright.sync_api import expect

from games import lobby, scorecards
from games.models import Hole, HoleReview, Table
from leagues.announcements.links import unsubscribe_link
from leagues.announcements.services import announce
from leagues.attendance.links import answer_link
from leagues.attendance.services import answer
from leagues.board.services import create_board
from leagues.checkin.services import check_in
from leagues.events import services as events
from leagues.invitations import services as invitations
from leagues.models import NightTable, Substitute
from leagues.ratings.services import rebuild_ratings
from leagues.reporting import services as reporting
from leagues.reporting.codes import give_code
from leagues.results.services import correct_score
from leagues.teams import services as teams
from tests import driving
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
from tests.games.helpers import finish_hole
from tests.leagues.events_helpers import entered, full_event, new_event

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class League:
    """The paths of a small league's pages, seen by its organiser."""

    club: str
    league: str
    season: str
    night: str
    player: str
    results: str
    correct: str
    table: Table
    replay: str
    calendar: str
    corrections: str
    deals: str
    deal_sheet: str
    #: The league is public: its pages read without an account.
    public: list[str]
    review: str
    #: Tonight's night, two members checked in: its page, check-in page and door sign.
    tonight: str
    check_in: str
    #: A mail's one-click answer for tonight ("are you coming?"), opened without an account.
    answer: str
    door_sign: str
    #: A paper table's cards, one of a duplicate night (with its deal sheet), its
    #: report page with holes waiting, confirmed and disputed, and the code page.
    table_cards: str
    table_card: str
    report: str
    report_code: str
    #: The night's board, opened by its link without an account.
    board: str
    #: The league plays in teams too: its teams page, and a team's line-up for tonight.
    teams: str
    line_up: str
    #: The club's events, one in its first round with a pair kept apart, and its paper
    #: table's results form.
    events: str
    event: str
    event_results: str
    #: The club's invitations page (a join link out, an invitation pending), the page
    #: that makes a club, and the join link's page, opened without an account.
    invitations: str
    club_new: str
    join: str
    #: An event taking entries, full, with three members on its waiting list.
    event_full: str
    #: The club's announcements (one sent), and a member's unsubscribe link.
    announcements: str
    unsubscribe: str


@pytest.fixture
def league(daphne_server) -> League:
    organiser = make_player("olive", display_name="Olive Organiser")
    ann, bea, cat, dan, eve, fay, gus, hal = (
        make_player(name.lower(), display_name=name)
        for name in ("Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    )
    club = make_club(
        "Fairway Golf Club",
        organiser=organiser,
        members=[ann, bea, cat, dan, eve, fay, gus, hal],
    )
    league = make_league(club)
    league.is_public = True
    league.save()
    season = make_season(league)
    first = make_night(season, date(2026, 3, 3))
    played_table(first, [ann, bea, cat], even_holes(30, 40, 35))
    night = make_night(season, date(2026, 3, 10))
    night.players.set([ann, bea, cat, dan, organiser])
    done = played_table(night, [ann, bea], even_holes(28, 33))
    # Reviews of Ann's holes that night, for the strokes she gave away.
    for number, away in ((1, 1.5), (2, 0.25)):
        hole = Hole.objects.create(
            table=done.table,
            number=number,
            dealer=0,
            seat_positions=[0, 1],
            finished_at=timezone.now(),
        )
        decision = {
            "version": 2,
            "played": {"type": "draw", "source": "discard"},
            "played_strokes": 20 + away,
            "best": {"type": "draw", "source": "pile"},
            "best_strokes": 20.0,
            "cost": away,
        }
        HoleReview.objects.create(
            hole=hole, position=0, given_away=away, samples=1, decisions=[decision]
        )
    # A paper table of four (the widest results form a league night has), no results yet.
    waiting: NightTable = open_table(night, [cat, dan, organiser, bea])
    report = waiting.report
    for number, by in ((1, cat), (2, dan), (3, cat)):
        reporting.enter_hole(report=report, number=number, strokes=[3, 4, 5, 6], version=0, by=by)
    reporting.confirm_hole(report=report, number=1, version=1, by=dan)
    reporting.dispute_hole(report=report, number=2, version=1, by=cat, reason="Dan took 5")
    # A duplicate night: two paper tables compared deal by deal; on the next, a paper
    # table still to be entered, with its deal sheet.
    duplicate_night = make_night(season, date(2026, 3, 17), duplicate_deals=True)
    for number, (people, totals) in enumerate(
        (([ann, bea, cat, dan], (20, 25, 30, 28)), ([eve, fay, gus, hal], (22, 24, 31, 27))),
        start=1,
    ):
        compared = driving.record_paper_match(
            variant="play-nine", players=people, hole_scores=even_holes(*totals), deal_seed=4242
        )
        NightTable.objects.create(night=duplicate_night, table=compared, number=number)
    # Dan's seat there was a guest's, whom the results name.
    Substitute.objects.create(night=duplicate_night, member=dan, guest_name="Walt")
    # A live table of the night not started yet: its seats listed on the night's page.
    NightTable.objects.create(
        night=night,
        table=lobby.create_table(
            host=organiser,
            variant="play-nine",
            seat_count=2,
            players=[eve, fay],
            is_public=False,
            seats_assigned=True,
        ),
        number=3,
    )
    # A public table waiting for players: the lobby lists it, on a phone too.
    lobby.create_table(host=eve, variant="golf-9-3deck", seat_count=4, players=[eve])
    sheet = NightTable.objects.create(
        night=make_night(season, date(2026, 3, 24), duplicate_deals=True),
        table=scorecards.open_paper_table(variant="play-nine", players=[gus, hal], deal_seed=7),
        number=1,
    )
    give_code(night_table=sheet)  # as seating gives it
    tonight = make_night(season, timezone.localdate(), venue="The clubhouse")
    for player in (ann, bea):
        check_in(night=tonight, player=player)
    for player, said in ((cat, "coming"), (dan, "maybe"), (eve, "not_coming")):
        answer(night=tonight, player=player, choice=said)
    correct_score(
        scorecard=done.table.scorecards.get(player=bea),
        number=2,
        strokes=2,
        reason="Added up wrong",
        by=organiser,
    )
    rebuild_ratings(league=league)
    # A team league as well: two teams, one line-up set for tonight.
    teams.set_team_rules(
        league=league, team_size=3, team_score="best", team_counted=2, by=organiser
    )
    eagles = teams.create_team(
        league=league, name="Eagles", members=[ann, bea, cat], captain=ann, by=organiser
    )
    teams.create_team(league=league, name="Hawks", members=[dan, eve], captain=dan, by=organiser)
    teams.set_line_up(team=eagles, night=tonight, players=[ann, bea], by=ann)
    table = lobby.create_table(
        host=organiser, variant="play-nine", seat_count=2, players=[organiser, ann]
    )
    table = lobby.start_match(table=table, by=organiser)
    # A second match whose first hole is over, for its replay (cards and scorecard).
    played = lobby.create_table(host=ann, variant="golf-6", seat_count=2, players=[ann, bea])
    lobby.start_match(table=played, by=ann)
    finish_hole(played.pk, {0: ann, 1: bea})
    event = new_event(club, organiser, seats_per_table=2, rounds=3)
    entered(event, [ann, bea, cat, dan, eve])
    events.keep_apart(event=event, first=ann, second=bea, by=organiser)
    event_table = events.start_event(event=event, by=organiser).tables.first()
    join_secret = invitations.renew_join_link(club=club, by=organiser, max_uses=20)
    invitations.invite(club=club, by=organiser, people=[("Ivy", "ivy@example.org")])
    full = full_event(club, organiser, [fay, gus, hal, ann, bea])
    ann.email = "ann@example.com"  # the one member an announcement reaches
    ann.save(update_fields=["email"])
    announce(club=club, by=organiser, subject="Cup night", body="Bring a pen.")
    return League(
        club=club.get_absolute_url(),
        league=league.get_absolute_url(),
        season=season.get_absolute_url(),
        night=night.get_absolute_url(),
        player=f"/leagues/{league.pk}/players/{ann.pk}/",
        results=f"/leagues/tables/{waiting.pk}/results/",
        correct=f"/leagues/tables/{done.pk}/correct/",
        table=table,
        replay=f"/tables/{played.pk}/holes/1/?move=3",
        calendar=f"/leagues/{league.pk}/calendar/",
        corrections=f"/leagues/{league.pk}/corrections/",
        deals=f"/leagues/nights/{duplicate_night.pk}/deals/",
        deal_sheet=f"/leagues/tables/{sheet.pk}/deal-sheet/",
        public=[
            f"/leagues/public/{league.pk}/",
            f"/leagues/public/seasons/{season.pk}/",
            f"/leagues/public/nights/{night.pk}/",
            f"/leagues/public/nights/{duplicate_night.pk}/",
            f"/leagues/public/nights/{duplicate_night.pk}/deals/",
            f"/leagues/public/{league.pk}/corrections/",
        ],
        review=f"/tables/{played.pk}/holes/1/review/0/",
        tonight=tonight.get_absolute_url(),
        check_in=f"/leagues/nights/{tonight.pk}/check-in/",
        answer=answer_link(cat, tonight.pk, "coming"),
        door_sign=f"/leagues/nights/{tonight.pk}/door/",
        table_cards=f"/leagues/nights/{night.pk}/table-cards/",
        table_card=f"/leagues/tables/{sheet.pk}/table-card/",
        report=f"/leagues/report/{report.code}/",
        report_code="/leagues/report/",
        board=create_board(night=night, by=organiser).get_absolute_url(),
        teams=f"/leagues/{league.pk}/teams/",
        line_up=f"/leagues/nights/{tonight.pk}/teams/{eagles.pk}/line-up/",
        events=f"/leagues/clubs/{club.slug}/events/",
        event=event.get_absolute_url(),
        event_results=f"/leagues/events/tables/{event_table.pk}/results/",
        invitations=f"/leagues/clubs/{club.slug}/invitations/",
        club_new="/leagues/clubs/new/",
        join=f"/leagues/join/{join_secret}/",
        event_full=full.get_absolute_url(),
        announcements=f"/leagues/clubs/{club.slug}/announcements/",
        unsubscribe=unsubscribe_link(ann, club),
    )


def signed_in(browser, server, username: str, viewport: dict):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    return context, page


def league_paths(pages: League) -> list[str]:
    return [
        "/leagues/",
        pages.club,
        pages.league,
        pages.season,
        pages.night,
        pages.player,
        pages.results,
        pages.correct,
        pages.calendar,
        pages.corrections,
        pages.deals,
        pages.deal_sheet,
        pages.tonight,
        pages.check_in,
        pages.answer,
        pages.door_sign,
        pages.table_cards,
        pages.table_card,
        pages.report,
        pages.report_code,
        pages.teams,
        pages.line_up,
        pages.events,
        pages.event,
        pages.event_results,
        pages.invitations,
        pages.club_new,
        "/accounts/profile/close/",
        pages.event_full,
        pages.announcements,
        pages.unsubscribe,
    ]


# The boxes of every visible control; a control inside another (a link in a label) is
# one control.
CONTROL_BOXES = """
() => {
  const selector = "a[href], button, input:not([type=hidden]), select, textarea, summary";
  const all = Array.from(document.querySelectorAll(selector));
  const boxes = [];
  for (const el of all) {
    if (all.some((other) => other !== el && other.contains(el))) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    if (!el.checkVisibility()) continue;  // inside a closed <details>, say
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.right <= 0) continue;  // hidden or off screen
    const name = (el.getAttribute("aria-label") || el.textContent || el.name || el.id).trim();
    boxes.push({name: el.tagName + " " + name.slice(0, 30),
                left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
                bottom: r.bottom + scrollY});
  }
  return boxes;
}
"""


def overlaps(boxes: list[dict]) -> list[str]:
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            wide = min(a["right"], b["right"]) - max(a["left"], b["left"])
            high = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if wide > 1 and high > 1:
                found.append(f"{a['name']!r} and {b['name']!r} overlap by {wide:.0f}x{high:.0f}")
    return found


def check_phone_layout(page, server, path: str) -> None:
    page.goto(server.url + path)
    page.wait_for_load_state("networkidle")
    name = path.strip("/").replace("/", "-") or "home"
    page.screenshot(path=str(SCREENSHOTS / f"phone-{name}.png"), full_page=True)
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{path} scrolls sideways by {sideways}px"
    # Nor does a table inside it: each fits the screen.
    inside = page.locator(".table-wrap").evaluate_all(
        "wraps => wraps.map((wrap) => wrap.scrollWidth - wrap.clientWidth).filter((d) => d > 0)"
    )
    assert not inside, f"{path}: a table scrolls sideways by {inside}px"
    found = overlaps(page.evaluate(CONTROL_BOXES))
    assert not found, f"{path}: {found}"


def test_on_a_phone_no_page_scrolls_sideways_and_no_control_overlaps_another(
    daphne_server, playwright_browser, league
):
    context, page = signed_in(playwright_browser, daphne_server, "olive", PHONE)
    for path in ["/", "/play/", "/rules/", *league_paths(league)]:
        check_phone_layout(page, daphne_server, path)
    context.close()
    # A public league's pages, read without an account.
    context = playwright_browser.new_context(viewport=PHONE)
    page = context.new_page()
    for path in [*league.public, league.join]:
        check_phone_layout(page, daphne_server, path)
    context.close()
    # A review of a hole, once it is worked out, and the replay's step it links to.
    context, page = signed_in(playwright_browser, daphne_server, "ann", PHONE)
    page.goto(daphne_server.url + league.review)
    expect(page.locator(".given-away")).to_contain_text("best play found", timeout=60_000)
    check_phone_layout(page, daphne_server, league.review)
    step = follow_a_decision_to_its_replay_step(page)
    check_phone_layout(page, daphne_server, f"{league.replay.split('?')[0]}?move={step}")
    context.close()


def items_per_menu_row(page) -> list[int]:
    # Measured once the stylesheet applies: before it, every item sits on a row of its own.
    page.wait_for_load_state("load")
    middles = page.locator(".nav-links > li").evaluate_all(
        "items => items.map((li) => { const r = li.getBoundingClientRect();"
        " return Math.round((r.top + r.bottom) / 2); })"
    )
    return [middles.count(top) for top in dict.fromkeys(middles)]


def test_on_a_phone_the_menu_keeps_log_out_beside_the_other_links(
    daphne_server, playwright_browser, league
):
    context, page = signed_in(playwright_browser, daphne_server, "olive", PHONE)
    rows = items_per_menu_row(page)
    assert min(rows) > 1, f"a menu item alone on a row: items per row {rows}"
    context.close()
    # Signed out, "Sign up" keeps its place beside "Log in" too.
    context = playwright_browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(daphne_server.url + "/")
    rows = items_per_menu_row(page)
    assert min(rows) > 1, f"a menu item alone on a row: items per row {rows}"
    context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_player_page_tiles_fill_their_rows_and_charts_share_one_text_size(
    daphne_server, playwright_browser, league, viewport
):
    context, page = signed_in(playwright_browser, daphne_server, "olive", viewport)
    page.goto(daphne_server.url + league.player)
    tops = page.locator(".stats .stat").evaluate_all(
        "tiles => tiles.map((tile) => Math.round(tile.getBoundingClientRect().top))"
    )
    rows = [tops.count(top) for top in dict.fromkeys(tops)]
    assert len(set(rows)) == 1 and rows[0] > 1, f"tiles per row: {rows}"
    sizes = page.locator("svg.chart").evaluate_all(
        "charts => charts.map((chart) => chart.querySelector('text.axis')"
        ".getBoundingClientRect().height)"
    )
    # Strokes per match, the spread, strokes given away and the rating.
    assert len(sizes) == 4
    assert max(sizes) < min(sizes) * 1.2, f"axis text heights: {sizes}"
    # The histogram counts holes in whole, distinct steps.
    ticks = page.locator("#spread-heading + svg text.axis[text-anchor=end][dominant-baseline]")
    labels = ticks.all_text_contents()
    assert labels == sorted(set(labels), key=int) and labels[0] == "0"
    # The strokes given away night by night, a table named by its caption.
    nights = page.get_by_role("table", name=re.compile("Night by night"))
    expect(nights.get_by_role("row")).to_have_count(2)
    expect(nights).to_contain_text("0.88")
    # The rating reads in plain words; the method stays one click away.
    summary = page.locator(".stats .stat").last
    expect(summary).to_contain_text("rating")
    expect(page.get_by_text("Plackett–Luce", exact=False)).to_be_hidden()
    expect(page.get_by_text("μ ± σ")).to_have_count(0)
    page.get_by_text("How the rating is worked out").click()
    expect(page.get_by_text("Plackett–Luce", exact=False)).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / f"player-{viewport['width']}.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_rules_page_links_carry_no_bullets_panels_stand_apart_and_examples_use_card_tiles(
    daphne_server, page, viewport
):
    page.set_viewport_size(viewport)
    page.goto(daphne_server.url + "/rules/")
    markers = page.locator(".rules nav li").evaluate_all(
        "items => items.map((li) => getComputedStyle(li).listStyleType)"
    )
    assert set(markers) == {"none"}, markers
    gaps = page.locator(".rules > .panel").evaluate_all(
        "panels => panels.slice(1).map((panel, i) =>"
        " panel.getBoundingClientRect().top - panels[i].getBoundingClientRect().bottom)"
    )
    assert min(gaps) >= 8, f"gaps between panels: {gaps}"
    # The table's own tiles: sized and coloured by its stylesheet, pairs outlined.
    tile = page.locator(".rule-example .card.paired").first
    expect(tile).to_be_visible()
    width = tile.evaluate("el => el.getBoundingClientRect().width")
    assert 30 < width < 60
    page.screenshot(path=str(SCREENSHOTS / f"rules-{viewport['width']}.png"), full_page=True)


# Serious and critical findings fail the audit; so do moderate ones (a skipped heading
# level), which the pages have none of either.
AUDITED = ("moderate", "serious", "critical")


def serious_findings(page) -> list[str]:
    """axe-core's findings on the page shown now, at the impacts audited."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: "
        + "; ".join(node["target"][0] for node in v["nodes"][:5])
        for v in results.response["violations"]
        if v["impact"] in AUDITED
    ]


def follow_a_decision_to_its_replay_step(page) -> int:
    """From a review, the last decision's "Move n" link, to the replay's step n."""
    if page.locator(".review-rest summary").count():
        page.locator(".review-rest summary").click()
    link = page.locator(".review-decision .decision-head a").last
    step = int(link.inner_text().split()[-1])
    expect(link).to_have_accessible_name(f"Move {step} in the replay")
    link.click()
    expect(page).to_have_url(re.compile(rf"/holes/1/\?move={step}$"))
    expect(page.locator(".replay-nav .step")).to_have_text(re.compile(rf"^Move {step} of "))
    return step


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_every_page_passes_an_axe_audit(daphne_server, playwright_browser, league, viewport):
    context = playwright_browser.new_context(viewport=viewport)
    page = context.new_page()
    found = {}
    anonymous = ["/", "/rules/", "/accounts/signup/", "/accounts/login/", league.join]
    for path in [*anonymous, *league.public]:
        page.goto(daphne_server.url + path)
        page.wait_for_load_state("networkidle")
        found[path] = serious_findings(page)
    # The night's board, once its socket has drawn it.
    page.goto(daphne_server.url + league.board)
    expect(page.locator("#board-connection")).to_have_text("Live")
    found["board"] = serious_findings(page)
    context.close()

    context, page = signed_in(playwright_browser, daphne_server, "olive", viewport)
    for path in ["/", "/play/", "/accounts/profile/", *league_paths(league)]:
        page.goto(daphne_server.url + path)
        page.wait_for_load_state("networkidle")
        found[path] = serious_findings(page)
    context.close()
    # A hole's replay, as one who played it sees it.
    context, page = signed_in(playwright_browser, daphne_server, "ann", viewport)
    page.goto(daphne_server.url + league.replay)
    expect(page.get_by_role("heading", name=re.compile("Hole 1 replay"))).to_be_visible()
    found[league.replay] = serious_findings(page)
    # Her review of it: being worked out by the server at first, shown once it is stored.
    page.goto(daphne_server.url + league.review)
    expect(page.get_by_role("heading", name=re.compile("Hole 1 review"))).to_be_visible()
    found[league.review + " (first look)"] = serious_findings(page)
    expect(page.locator(".given-away")).to_contain_text("best play found", timeout=60_000)
    found[league.review] = serious_findings(page)
    # A decision's move opens the replay at that step, which links back to the decision
    # (in the folded list, it may be: the browser opens it to show the decision).
    step = follow_a_decision_to_its_replay_step(page)
    found[f"{league.replay} (move {step}, a decision)"] = serious_findings(page)
    page.get_by_role("link", name="This decision in the review").click()
    expect(page).to_have_url(re.compile(rf"/review/0/#move-{step}$"))
    expect(page.locator(f"#move-{step}")).to_be_visible()
    expect(page.locator(f"#move-{step}")).to_be_in_viewport()
    context.close()
    context, page = signed_in(playwright_browser, daphne_server, "olive", viewport)
    # The live table, once its socket has drawn it.
    page.goto(daphne_server.url + league.table.get_absolute_url())
    page.wait_for_selector("#table-board:not([inert])", state="attached")
    found["table"] = serious_findings(page)
    context.close()
    found = {path: problems for path, problems in found.items() if problems}
    assert not found, "\n".join(f"{path}: {problems}" for path, problems in found.items())

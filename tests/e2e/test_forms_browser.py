"""In a real browser: forms read as they should, at a desktop's width and a phone's. A
box sits beside its label, a radio beside its choice, a select shows its options whole,
house rules follow the game chosen, and the calendar's address reads whole and copies."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.factories import PASSWORD, make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WIDTHS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


@pytest.fixture
def club(daphne_server):
    organiser = make_player("olive", display_name="Olive")
    ann = make_player("ann", display_name="Ann")
    club = make_club("Green Club", organiser=organiser, members=[ann])
    league = make_league(club)
    night = make_night(make_season(league))
    return club, league, night


def signed_in(browser, server, viewport, username="olive"):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server.url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    return context, page


def beside_its_label(page, box, wraps: bool = False) -> None:
    """`box` (a checkbox or radio) sits on its label's (first) line, before the label's
    text, at its own size."""
    label = box.locator("xpath=ancestor::label[1]")
    b, lb = box.bounding_box(), label.bounding_box()
    assert b["width"] < 40, b
    if not wraps:
        assert lb["height"] < 2.2 * b["height"] + 8, (b, lb)  # one line, not box over text
    assert b["y"] - lb["y"] < 12, (b, lb)
    assert lb["y"] - 1 <= b["y"] and b["y"] + b["height"] <= lb["y"] + lb["height"] + 1, (b, lb)
    text_left = label.evaluate(
        """el => { const r = document.createRange();
                   const t = [...el.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
                   r.selectNodeContents(t); return r.getBoundingClientRect().left; }"""
    )
    assert b["x"] + b["width"] <= text_left + 1, (b, text_left)
    # Before the text, at the label's left: not pushed to the other side of the field.
    assert b["x"] - lb["x"] < 12, (b, lb)


@pytest.mark.parametrize("viewport", WIDTHS)
def test_boxes_and_radios_sit_beside_their_labels(
    daphne_server, playwright_browser, club, viewport
):
    _, league, night = club
    context, page = signed_in(playwright_browser, daphne_server, viewport)
    page.goto(daphne_server.url + "/play/")
    page.get_by_label("Game", exact=True).select_option("golf-6")
    boxes = page.locator('input[name="house_rules"]:visible')
    assert boxes.count() == 3
    for i in range(boxes.count()):
        beside_its_label(page, boxes.nth(i))

    page.goto(daphne_server.url + night.get_absolute_url())
    for name in ("With notice", "Without notice"):
        beside_its_label(page, page.get_by_label(name, exact=True))
    context.close()


@pytest.mark.parametrize("viewport", WIDTHS)
def test_the_league_forms_night_point_choices_read_whole(
    daphne_server, playwright_browser, club, viewport
):
    """ "How a night earns points" offers choices too long for a select's one line in
    the form's column: each reads whole, wrapped if need be, beside its radio."""
    the_club, _, _ = club
    context, page = signed_in(playwright_browser, daphne_server, viewport)
    page.goto(daphne_server.url + the_club.get_absolute_url())
    group = page.get_by_role("group", name=re.compile("How a night earns points", re.I))
    for name in ("By place at the table", "By duplicate matchpoint percentage"):
        radio = group.get_by_label(re.compile(name))
        beside_its_label(page, radio, wraps=True)
        label = radio.locator("xpath=ancestor::label[1]")
        box, room = label.bounding_box(), group.bounding_box()
        assert box["x"] + box["width"] <= room["x"] + room["width"] + 1, (box, room)
        assert label.evaluate("el => el.scrollWidth <= el.clientWidth + 1")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    context.close()


def visible_rules(page) -> list[str]:
    boxes = page.locator('input[name="house_rules"]')
    return [
        boxes.nth(i).get_attribute("value")
        for i in range(boxes.count())
        if boxes.nth(i).is_visible()
    ]


def test_house_rules_follow_the_game_chosen(daphne_server, playwright_browser, club):
    the_club, _, _ = club
    context, page = signed_in(playwright_browser, daphne_server, DESKTOP)
    page.goto(daphne_server.url + "/play/")
    game = page.get_by_label("Game", exact=True)
    game.select_option("play-nine")
    assert visible_rules(page) == ["no-skip"]
    expect(page.get_by_label("No skip", exact=True)).to_be_visible()
    game.select_option("golf-9-3deck")
    assert visible_rules(page) == ["kings-minus-2", "no-rearranging"]
    page.get_by_label("Kings -2", exact=True).check()
    game.select_option("golf-6")
    assert visible_rules(page) == ["last-turns", "jokers", "kings-minus-2"]
    game.select_option("play-nine")
    # A rule of another game, hidden, is not sent with the form.
    assert not page.locator('input[value="kings-minus-2"]').is_checked()

    page.goto(daphne_server.url + the_club.get_absolute_url())
    page.locator('select[name="variant"]').select_option("golf-4")
    assert visible_rules(page) == ["jokers", "kings-minus-2", "no-first-knock"]
    context.close()

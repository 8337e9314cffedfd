"""In a real browser, on both setups: a player makes a club, shares its join link and
imports a roster; a newcomer signs up through the link and is a member. Every page on
the way runs under the site's Content-Security-Policy without a violation, and the
pages drawn only after a form (the roster's dry run, a join page) pass the axe audit
and read on a phone as every other page does (tests/e2e/test_pages.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from leagues.models import Club, Invitation, Membership
from tests.e2e.test_content_security_policy import Watched
from tests.e2e.test_pages import CONTROL_BOXES, PHONE, overlaps, serious_findings
from tests.factories import make_player

pytestmark = [pytest.mark.e2e, pytest.mark.both_databases]

ROSTER = (
    '\ufeff"Name";"E-mail address"\r\n"Ann Arbor";"ann@example.org"\r\n'
    '"Bea";"bea@example"\r\n"=HYPERLINK()";"eve@example.org"\r\n"Cat";"cat@example.org"\r\n'
)


def reads_on_a_phone(page) -> list[str]:
    """What would fail the phone-layout audit on the page shown now, at a phone's width."""
    page.set_viewport_size(PHONE)
    sideways = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    found = overlaps(page.evaluate(CONTROL_BOXES))
    if sideways > 0:
        found.append(f"scrolls sideways by {sideways}px")
    page.set_viewport_size({"width": 1280, "height": 900})
    return found


def test_an_organiser_makes_a_club_shares_its_link_and_a_newcomer_joins(
    daphne_server, playwright_browser
):
    make_player("olive", display_name="Olive")
    olive = Watched(playwright_browser, daphne_server)
    olive.sign_in("olive")
    olive.visit("/leagues/")
    page = olive.page
    page.get_by_role("link", name="Make a club").click()
    page.get_by_label("Name").fill("Green Club")
    page.get_by_role("button", name="Make the club").click()
    expect(page.get_by_role("heading", name="Green Club", exact=True)).to_be_visible()
    expect(page.get_by_text("Green Club is ready: invite its members.")).to_be_visible()

    page.get_by_role("link", name="Invite members").click()
    page.get_by_label("Uses at most").fill("5")
    page.get_by_role("button", name="Make the link").click()
    link = page.get_by_label("The join link").input_value()
    assert re.fullmatch(rf"{re.escape(daphne_server.url)}/leagues/join/[\w-]{{43}}/", link)
    found = {"invitations": serious_findings(page) + reads_on_a_phone(page)}

    # A roster: the dry run says who will be invited and which rows are refused.
    page.get_by_label("Roster (CSV)").set_input_files(
        files=[{"name": "roster.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}]
    )
    page.get_by_role("button", name="Check the roster").click()
    expect(page.get_by_text("2 will be invited, 0 are members already")).to_be_visible()
    expect(page.get_by_text("as a spreadsheet formula does")).to_be_visible()
    found["roster check"] = serious_findings(page) + reads_on_a_phone(page)
    assert not Invitation.objects.exists()
    page.get_by_role("button", name="Invite 2").click()
    expect(page.get_by_text("2 invitations on their way.")).to_be_visible()
    expect(page.get_by_role("cell", name="cat@example.org", exact=True)).to_be_visible()
    # Their mail went out (by a task, in the server, once the invitations were in).
    assert Invitation.objects.filter(sent_at__isnull=False).count() == 2
    olive.check()

    # A newcomer follows the link, signs up, comes back and joins.
    nina = Watched(playwright_browser, daphne_server)
    nina.visit(link.removeprefix(daphne_server.url))
    expect(nina.page.get_by_role("heading", name="Join Green Club")).to_be_visible()
    found["join (signed out)"] = serious_findings(nina.page) + reads_on_a_phone(nina.page)
    nina.page.get_by_role("link", name="Sign up to join").click()
    nina.page.get_by_label("Username").fill("nina")
    nina.page.get_by_label("Display name").fill("Nina")
    nina.page.get_by_label("Password", exact=True).fill("sunny-fairway-2026")
    nina.page.get_by_label("Password confirmation").fill("sunny-fairway-2026")
    nina.page.get_by_role("button", name="Sign up").click()
    expect(nina.page).to_have_url(link)
    found["join (signed in)"] = serious_findings(nina.page)
    nina.page.get_by_role("button", name="Join Green Club").click()
    expect(nina.page.get_by_text("Welcome to Green Club!")).to_be_visible()
    nina.check()
    club = Club.objects.get(name="Green Club")
    assert Membership.objects.filter(club=club, player__username="nina", role="player").exists()

    # The organiser sees the newcomer among the members, and may make her an organiser.
    olive.visit(club.get_absolute_url())
    expect(page.get_by_role("cell", name="Nina", exact=True)).to_be_visible()
    page.get_by_label("Role of Nina").select_option("organiser")
    page.get_by_role("button", name="Set the role of Nina").click()
    expect(page.get_by_text("Nina is an organiser of Green Club.")).to_be_visible()
    olive.check()
    found = {name: problems for name, problems in found.items() if problems}
    assert not found, found

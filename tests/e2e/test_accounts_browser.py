"""In a real browser: sign up, log out, log back in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.e2e


def test_sign_up_log_out_and_log_back_in(daphne_server, page):
    page.goto(daphne_server.url + "/")
    page.get_by_role("link", name="Create your account").click()
    page.get_by_label("Username").fill("greenkeeper")
    page.get_by_label("Display name").fill("Greta")
    page.get_by_label("Password", exact=True).fill("sunny-fairway-2026")
    page.get_by_label("Password confirmation").fill("sunny-fairway-2026")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_text("Welcome to Fairway, Greta!")).to_be_visible()

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="You are logged out")).to_be_visible()

    page.get_by_role("link", name="Log in again").click()
    page.get_by_label("Username").fill("greenkeeper")
    page.get_by_label("Password").fill("sunny-fairway-2026")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_text("Welcome back, Greta.")).to_be_visible()

"""The site's one service worker: served at the root so that its scope is the whole
site, checked for a new version on every visit, and keeping only the report and
check-in pages (and the static files they load)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from leagues.reporting import selectors


def test_the_worker_is_served_at_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert reverse("service_worker") == "/sw.js"
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert b'addEventListener("fetch"' in response.content
    assert client.post("/sw.js").status_code == 405


def shell_patterns(script: str) -> list[re.Pattern]:
    block = script.split("const SHELL_PAGES = [", 1)[1].split("];", 1)[0]
    return [re.compile(found) for found in re.findall(r"/(\^.*?\$)/", block)]


@pytest.mark.django_db
def test_the_worker_keeps_the_report_and_check_in_pages_and_no_other(client, club_night):
    """The addresses the worker keeps are the report's and the check-in's, as the site
    routes them; a board, a night's page or a form's own address is not kept."""
    patterns = shell_patterns(client.get("/sw.js").content.decode())
    code = club_night.night_table.report.code
    assert set(selectors.CODE_ALPHABET) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    kept = [
        reverse("leagues:report", args=[code]),
        reverse("leagues:check_in", args=[club_night.night.pk]),
    ]
    not_kept = [
        reverse("leagues:report_hole", args=[code, 1]),
        reverse("leagues:report_code"),
        reverse("leagues:check_in_undo", args=[club_night.night.pk]),
        club_night.night.get_absolute_url(),
        "/",
    ]
    for path in kept:
        assert any(p.search(path) for p in patterns), path
    for path in not_kept:
        assert not any(p.search(path) for p in patterns), path

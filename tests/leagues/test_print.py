"""Print buttons work without inline script, ready for a Content-Security-Policy."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def test_the_print_buttons_use_the_static_script_not_inline_handlers(client, club_night):
    cn = club_night
    client.force_login(cn.member)
    for url, label in (
        (cn.night.get_absolute_url(), "Print scorecards"),
        (cn.season.get_absolute_url(), "Print"),
    ):
        html = client.get(url).content.decode()
        assert f"data-print>{label}</button>" in html, url
        assert re.search(r'<script src="[^"]*js/print[^"]*\.js" defer></script>', html), url
        assert not re.search(r"\son[a-z]+=", html), url

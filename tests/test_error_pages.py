"""Error pages: 403, 404 and 500 in the site's style, each with a way back home."""

from __future__ import annotations

import pytest
from django.template import loader
from django.test import RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from tests.factories import (
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)

pytestmark = pytest.mark.django_db


def assert_site_page(html: str) -> None:
    assert 'class="site-header"' in html
    assert "css/fairway.css" in html
    assert f'href="{reverse("home")}">Back to the home page</a>' in html


def test_a_member_opening_a_results_form_gets_the_sites_403_page(client):
    mia, noah = make_player(display_name="Mia"), make_player()
    club = make_club(organiser=make_player(), members=[mia, noah])
    night_table = open_table(make_night(make_season(make_league(club))), [mia, noah])
    client.force_login(mia)
    response = client.get(reverse("leagues:table_results", args=[night_table.pk]))
    html = response.content.decode()
    assert response.status_code == 403
    assert_site_page(html)
    assert "Only the club&#x27;s organisers may do that." in html
    assert ">Mia</a>" in html  # still signed in, with the account menu


def test_a_missing_page_gets_the_sites_404_page(client):
    client.force_login(make_player(display_name="Ana"))
    response = client.get("/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert_site_page(html)
    assert "Page not found" in html


def test_the_500_page_renders_without_a_request_or_context():
    html = loader.get_template("500.html").render()
    assert_site_page(html)
    assert "Something went wrong" in html
    assert "Log out" not in html and "Log in" not in html


def test_the_server_error_handler_serves_the_500_page():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert_site_page(response.content.decode())

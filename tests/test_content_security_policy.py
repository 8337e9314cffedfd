"""The Content-Security-Policy header, and pages whose markup needs nothing it forbids."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import lobby
from games.models import HoleReview, Move, Seat
from leagues.board.services import create_board
from leagues.events import services as events
from leagues.reporting import services as reporting
from leagues.teams import services as teams
from tests import driving
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
    played_table,
)

pytestmark = pytest.mark.django_db

HOST = "127.0.0.1:8000"
# An inline script (a data block such as json_script's is not run, and is allowed), a
# style attribute or element, an event handler attribute, a javascript: URL.
INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>"
    r"|<style\b|\sstyle=|\son[a-z]+=|javascript:",
    re.IGNORECASE,
)


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = (part.split() for part in header.split(";") if part.strip())
    return {name: values for name, *values in directives}


def test_the_site_allows_its_own_scripts_styles_and_sockets_only(client):
    response = client.get(reverse("games:rules"), HTTP_HOST=HOST)
    csp = policy(response)
    assert csp["script-src"] == ["'self'"] and csp["style-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert sorted(csp["connect-src"]) == ["'self'", f"ws://{HOST}"]
    assert "unsafe" not in response["Content-Security-Policy"]
    # Served over HTTPS, the sockets are wss.
    secure = client.get(reverse("games:rules"), HTTP_HOST=HOST, secure=True)
    assert sorted(policy(secure)["connect-src"]) == ["'self'", f"wss://{HOST}"]


def test_every_page_s_markup_has_no_inline_script_or_style(client):
    organiser = make_player("olive", display_name="Olive")
    ann, bea = make_player("ann", display_name="Ann"), make_player("bea", display_name="Bea")
    club = make_club("Green Club", organiser=organiser, members=[ann, bea])
    league = make_league(club)
    season = make_season(league)
    night = make_night(season, date(2026, 3, 1))
    night_table = played_table(night, [ann, bea], even_holes(30, 40))
    played_table(make_night(season, date(2026, 3, 8)), [ann, bea], even_holes(35, 33))
    to_enter = open_table(make_night(season, date(2026, 3, 15)), [ann, bea])
    report = to_enter.report
    reporting.enter_hole(report=report, number=1, strokes=[3, 4], version=0, by=ann)
    waiting = lobby.create_table(host=ann, variant="golf-4", seat_count=3, players=[ann])
    live = lobby.create_table(host=ann, variant="play-nine", seat_count=2, bots={1: "greedy"})
    lobby.join_table(table=live, player=ann)
    lobby.start_match(table=live, by=ann)
    finished = lobby.create_table(
        host=ann, variant="golf-6", seat_count=2, bots={0: "greedy", 1: "greedy"}
    )
    lobby.start_match(table=finished, by=ann)
    driving.play_out(table_id=finished.pk)
    # Ann's seat, as though she had made its moves: its hole has a review.
    Seat.objects.filter(table=finished, position=0).update(player=ann)
    Move.objects.filter(hole__table=finished, seat=0).update(by_bot=False)

    board = create_board(night=night, by=organiser)
    # A team league's pages: its teams, and a team's line-up for a night.
    teams.set_team_rules(league=league, team_size=2, team_score="sum", team_counted=2, by=organiser)
    eagles = teams.create_team(
        league=league, name="Eagles", members=[ann, bea], captain=ann, by=organiser
    )
    line_up_night = make_night(season, date(2026, 3, 22))
    # An event taking entries, and one in its first round (a paper table to enter).
    soon = {
        "club": club,
        "by": organiser,
        "format": "swiss",
        "variant": "play-nine",
        "seats_per_table": 2,
        "rounds": 2,
        "starts_at": timezone.now() + timedelta(days=1),
        "entry_closes_at": timezone.now() + timedelta(hours=1),
    }
    entering = events.create_event(name="Later Open", **soon)
    event = events.create_event(name="Spring Open", **soon)
    for player in (ann, bea):
        events.enter_event(event=event, player=player)
        events.check_in(event=event, player=player, by=player)
    events.keep_apart(event=event, first=ann, second=bea, by=organiser)
    event_table = events.start_event(event=event, by=organiser).tables.get()
    anonymous = [reverse("home"), reverse("login"), reverse("signup"), reverse("games:rules")]
    anonymous += [reverse("admin:login"), reverse("password_reset")]
    # The night's board, opened by its link alone.
    anonymous += [board.get_absolute_url()]
    for url in anonymous:
        response = client.get(url, HTTP_HOST=HOST)
        assert response.status_code == 200, url
        assert not INLINE.findall(response.content.decode()), url

    client.force_login(organiser)
    pages = [
        reverse("home"),
        reverse("account"),
        reverse("games:lobby"),
        reverse("games:lobby_tables"),
        waiting.get_absolute_url(),
        live.get_absolute_url(),
        finished.get_absolute_url(),
        reverse("games:replay", args=[finished.pk, 1]),
        reverse("leagues:index"),
        reverse("leagues:club", args=[club.slug]),
        reverse("leagues:league", args=[league.pk]),
        reverse("leagues:season", args=[season.pk]),
        reverse("leagues:night", args=[night.pk]),
        reverse("leagues:check_in", args=[night.pk]),
        reverse("leagues:door_sign", args=[night.pk]),
        reverse("leagues:night_arrivals", args=[night.pk]),
        reverse("leagues:player", args=[league.pk, ann.pk]),
        reverse("leagues:table_results", args=[to_enter.pk]),
        reverse("leagues:table_correct", args=[night_table.pk]),
        reverse("leagues:table_cards", args=[to_enter.night.pk]),
        reverse("leagues:table_card", args=[to_enter.pk]),
        reverse("leagues:report_code"),
        reverse("leagues:report", args=[report.code]),
        reverse("leagues:report", args=[report.code]) + "?hole=1",
        reverse("leagues:teams", args=[league.pk]),
        reverse("leagues:line_up", args=[line_up_night.pk, eagles.pk]),
        reverse("leagues:events", args=[club.slug]),
        entering.get_absolute_url(),
        event.get_absolute_url(),
        reverse("leagues:event_table_results", args=[event_table.pk]),
    ]
    for url in pages:
        response = client.get(url, HTTP_HOST=HOST)
        assert response.status_code == 200, url
        assert not INLINE.findall(response.content.decode()), url
    # A review (worked out on this first look), and the replay's step of a decision.
    review = reverse("games:review", args=[finished.pk, 1, 0])
    response = client.get(review, HTTP_HOST=HOST)
    assert response.status_code == 200 and not INLINE.findall(response.content.decode())
    step = HoleReview.objects.get(hole__table=finished, position=0).decisions[0]["version"] + 1
    response = client.get(
        reverse("games:replay", args=[finished.pk, 1]) + f"?move={step}", HTTP_HOST=HOST
    )
    html = response.content.decode()
    assert f"{review}#move-{step}" in html and not INLINE.findall(html)
    # The report as the other player of its table sees it: a hole to dispute, and a
    # hole written meanwhile.
    client.force_login(bea)
    url = reverse("leagues:report", args=[report.code])
    for response in (
        client.get(url + "?dispute=1", HTTP_HOST=HOST),
        client.post(
            reverse("leagues:report_hole", args=[report.code, 1]),
            {"version": 0, "s0": "3", "s1": "5"},
            HTTP_HOST=HOST,
        ),
    ):
        assert "Dispute hole 1" in response.content.decode() or response.status_code == 409
        assert not INLINE.findall(response.content.decode())
    client.force_login(organiser)
    # The lobby's form with its errors shown.
    response = client.post(
        reverse("games:new_table"), {"variant": "golf-4", "seat_count": "2"}, HTTP_HOST=HOST
    )
    assert response.status_code == 400 and not INLINE.findall(response.content.decode())

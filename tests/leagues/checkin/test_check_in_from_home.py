"""Check-in from the home page: a signed-in member sees tonight's league nights of their
clubs, and nobody else's nor another day's, each with a one-click "I'm here" that goes
through the check-in room's own rules."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, time, timedelta

import pytest
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.attendance.models import guest_label
from leagues.checkin.selectors import tonight
from leagues.models import CheckIn, Substitute
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

HOME = "/"


def club_night(name: str, members, on=None, **fields):
    """A night of a new club `name` with `members`, tonight unless `on` says otherwise."""
    club = make_club(name, organiser=make_player(f"org-{name.split()[0].lower()}"), members=members)
    today = timezone.localdate()
    league = make_league(club)
    league.name = f"{name} League"
    league.save()
    season = make_season(
        league,
        start=today - timedelta(days=60),
        end=today + timedelta(days=60),
    )
    return make_night(season, on or today, **fields)


@pytest.fixture
def ann():
    return make_player("ann", display_name="Ann")


def text(page) -> str:
    """The page as its reader sees the words: entities unescaped."""
    return re.sub(r"\s+", " ", html.unescape(page.content.decode()))


def check_in_boxes(page) -> list[int]:
    """The nights whose check-in box the home page shows, by id."""
    return [int(n) for n in re.findall(rb'id="check-in-(\d+)"', page.content)]


def test_a_member_sees_tonight_s_nights_of_their_clubs_only(client, ann):
    tonight = club_night("Green Club", [ann], venue="Back room", start_time=time(19, 30))
    tomorrow = club_night("Oak Club", [ann], on=timezone.localdate() + timedelta(days=1))
    yesterday = club_night("Elm Club", [ann], on=timezone.localdate() - timedelta(days=1))
    others = club_night("Blue Club", [make_player("bea")])  # tonight, not Ann's club
    client.force_login(ann)
    page = client.get(HOME)
    assert page.status_code == 200
    assert check_in_boxes(page) == [tonight.pk]
    assert "Green Club League" in text(page) and "19:30, Back room" in text(page)
    assert "I'm here</button>" in text(page)
    for night in (tomorrow, yesterday, others):
        assert f"/leagues/nights/{night.pk}/".encode() not in page.content
    assert b"Blue Club" not in page.content
    # A stranger to every club, and a visitor signed out, see no night.
    client.force_login(make_player("sam"))
    assert check_in_boxes(client.get(HOME)) == []
    client.logout()
    assert b"Tonight" not in client.get(HOME).content


def test_a_night_over_or_of_a_closed_season_is_not_shown(client, ann):
    bea = make_player("bea")
    finished = club_night("Green Club", [ann, bea])
    played_table(finished, [ann, bea], even_holes(20, 30))
    closed = club_night("Oak Club", [ann])
    closed.season.closed_at = timezone.now()
    closed.season.save()
    client.force_login(ann)
    assert check_in_boxes(client.get(HOME)) == []


def test_tonight_is_the_day_in_the_site_s_time_zone(client, ann):
    """A night dated today where the site is, whatever the date in UTC."""
    now = datetime.now(UTC)
    # Fourteen hours ahead or eleven behind UTC: one of them is on another date now.
    zone = "Pacific/Kiritimati" if now.hour >= 10 else "Pacific/Pago_Pago"
    with override_settings(TIME_ZONE=zone):
        there = timezone.localdate()
        assert there != now.date()
        theirs = club_night("Green Club", [ann], on=there)
        utc_s = club_night("Oak Club", [ann], on=now.date())
        client.force_login(ann)
        assert check_in_boxes(client.get(HOME)) == [theirs.pk]
    assert utc_s.pk != theirs.pk


def test_one_click_checks_in_and_the_home_page_says_so_with_the_undo(client, ann):
    night = club_night("Green Club", [ann])
    client.force_login(ann)
    response = client.post(reverse("leagues:check_in", args=[night.pk]), {"back": "home"})
    assert response.status_code == 302 and response["Location"] == HOME
    assert list(night.players.all()) == [ann]
    page = text(client.get(HOME))
    assert "You're checked in: the organiser will seat you." in page  # the message
    assert "You're checked in.</strong> The organiser will seat you." in page  # the box
    assert "Undo: I'm not staying" in page
    assert "I'm here</button>" not in page
    # The undo comes back home too, and the button with it.
    response = client.post(reverse("leagues:check_in_undo", args=[night.pk]), {"back": "home"})
    assert response.status_code == 302 and response["Location"] == HOME
    assert not night.players.exists() and not night.check_ins.exists()
    assert "I'm here</button>" in text(client.get(HOME))


def test_a_second_press_changes_nothing_and_says_so(client, ann):
    night = club_night("Green Club", [ann])
    client.force_login(ann)
    client.post(reverse("leagues:check_in", args=[night.pk]), {"back": "home"})
    first = CheckIn.objects.get(night=night)
    response = client.post(
        reverse("leagues:check_in", args=[night.pk]), {"back": "home"}, follow=True
    )
    assert response.redirect_chain == [(HOME, 302)]
    assert "You were checked in already." in text(response)
    assert list(CheckIn.objects.filter(night=night)) == [first]
    assert first.checked_in_at == CheckIn.objects.get(pk=first.pk).checked_in_at
    assert list(night.players.all()) == [ann]


def test_a_refused_check_in_from_home_says_why_on_it_and_changes_nothing(client, ann):
    bea, cat = make_player("bea"), make_player("cat")
    seated = club_night("Green Club", [ann, bea, cat])
    client.force_login(ann)
    assert "I'm here</button>" in text(client.get(HOME))
    open_table(seated, [bea, cat])  # the organiser seats the night meanwhile
    page = client.get(HOME)
    assert check_in_boxes(page) == [seated.pk]
    assert "The tables are seated: ask an organiser to add you." in text(page)
    assert "I'm here</button>" not in text(page)
    # The press from the page drawn before the seating.
    response = client.post(
        reverse("leagues:check_in", args=[seated.pk]), {"back": "home"}, follow=True
    )
    assert response.redirect_chain == [(HOME, 302)]
    assert "The tables are seated: ask an organiser to add you." in text(response)
    assert not seated.check_ins.exists() and not seated.players.filter(pk=ann.pk).exists()


def test_a_member_with_a_substitute_tonight_is_told_on_the_home_page(client, ann):
    night = club_night("Green Club", [ann])
    Substitute.objects.create(night=night, member=ann, guest_name="Zed")
    client.force_login(ann)
    response = client.post(
        reverse("leagues:check_in", args=[night.pk]), {"back": "home"}, follow=True
    )
    assert f"{guest_label('Zed')} plays for you tonight" in text(response)
    assert not night.check_ins.exists()


def test_a_non_member_gets_nothing_from_home_s_button(client, ann):
    night = club_night("Green Club", [make_player("bea")])
    client.force_login(ann)
    response = client.post(reverse("leagues:check_in", args=[night.pk]), {"back": "home"})
    assert response.status_code == 403
    assert b"Green Club" not in response.content
    assert not night.check_ins.exists()


def test_the_home_page_s_button_needs_the_csrf_token(ann):
    night = club_night("Green Club", [ann])
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    page = client.get(HOME)
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content)[1].decode()
    url = reverse("leagues:check_in", args=[night.pk])
    assert client.post(url, {"back": "home"}).status_code == 403
    assert not night.check_ins.exists()
    response = client.post(url, {"back": "home", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and night.check_ins.count() == 1


def test_the_home_page_reads_tonight_in_one_query_however_many_nights(
    client, ann, django_assert_num_queries
):
    """Tonight's nights cost the home page one query, whatever the site holds."""
    club_night("Green Club", [ann])
    client.force_login(ann)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(HOME).status_code == 200
        return len(captured)

    one = queries()
    for n in range(4):
        people = [ann, make_player(f"p{n}"), make_player(f"q{n}")]
        night = club_night(f"Club{n} Club", people, start_time=time(18 + n, 0))
        if n % 2:  # seated
            open_table(night, people[1:])
        else:  # checked in
            CheckIn.objects.create(night=night, player=ann)
            night.players.add(ann)
        for day in (-1, 1):  # other nights of the club
            make_night(night.season, timezone.localdate() + timedelta(days=day))
    club_night("Far Club", [make_player("zoe")])
    page_boxes = check_in_boxes(client.get(HOME))
    assert len(page_boxes) == 5
    assert queries() == one
    with django_assert_num_queries(1):
        assert len(tonight(ann)) == 5

"""Nights planned with a time and a place, the league's calendar page and its ICS feeds."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from leagues.calendar.services import calendar_token
from leagues.models import LeagueNight
from leagues.seasons.services import schedule_night
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    played_table,
)

pytestmark = pytest.mark.django_db


def feed_url(cn, player):
    token = calendar_token(player=player)
    return reverse("leagues:calendar_feed", args=[cn.league.pk, token])


def events(response) -> dict[str, object]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = Calendar.from_ical(response.content)
    return {str(event["uid"]): event for event in calendar.walk("VEVENT")}


def test_an_organiser_plans_a_night_with_a_time_and_a_place(client, club_night, settings):
    settings.TIME_ZONE = "Europe/London"
    cn = club_night
    client.force_login(cn.organiser)
    response = client.post(
        reverse("leagues:night_create", args=[cn.season.pk]),
        {"date": "2026-06-04", "start_time": "19:30", "venue": "  The Clubhouse, Back Room "},
    )
    assert response.status_code == 302
    night = LeagueNight.objects.get(date=date(2026, 6, 4))
    assert (night.start_time, night.venue) == (time(19, 30), "The Clubhouse, Back Room")
    html = client.get(night.get_absolute_url()).content.decode()
    assert "19:30" in html and "The Clubhouse, Back Room" in html


def test_an_organiser_moves_a_night_and_a_bad_move_changes_nothing(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    url = reverse("leagues:night_schedule", args=[cn.night.pk])
    response = client.post(url, {"date": "2026-03-02", "start_time": "20:00", "venue": "Pub"})
    assert response.status_code == 302
    cn.night.refresh_from_db()
    assert (cn.night.date, cn.night.start_time, cn.night.venue) == (
        date(2026, 3, 2),
        time(20, 0),
        "Pub",
    )
    for data, error in [
        ({"date": "2030-01-01", "start_time": "", "venue": ""}, "The season runs from"),
        ({"date": "2026-03-05", "start_time": "25:99", "venue": ""}, "Enter a valid time"),
    ]:
        response = client.post(url, data)
        assert response.status_code == 400
        assert error in response.content.decode()
        cn.night.refresh_from_db()
        assert (cn.night.date, cn.night.venue) == (date(2026, 3, 2), "Pub")


def test_members_may_not_move_a_night(client, club_night):
    cn = club_night
    client.force_login(cn.member)
    url = reverse("leagues:night_schedule", args=[cn.night.pk])
    assert client.post(url, {"date": "2026-03-02", "venue": "X"}).status_code == 403
    cn.night.refresh_from_db()
    assert (cn.night.date, cn.night.venue) == (date(2026, 3, 1), "")


def test_the_calendar_page_lists_nights_to_come_and_past_and_the_members_feed(client, club_night):
    cn = club_night
    today = timezone.localdate()
    season = make_season(cn.league, start=today - timedelta(days=60), end=today + timedelta(60))
    past = make_night(season, today - timedelta(days=30))
    coming = make_night(season, today + timedelta(days=10), start_time=time(18, 0), venue="Hall")
    client.force_login(cn.member)
    response = client.get(reverse("leagues:calendar", args=[cn.league.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    upcoming, before = html.split('id="past-heading"')
    assert f"{coming.date:%A} {coming.date.day} {coming.date:%b %Y}" in upcoming
    assert "18:00" in upcoming and "Hall" in upcoming
    assert f"{past.date:%A} {past.date.day} {past.date:%b %Y}" in before
    cn.member.refresh_from_db()
    assert cn.member.calendar_token and cn.member.calendar_token in html


def test_the_calendar_lists_the_latest_past_nights_and_reads_no_more(
    client, club_night, django_assert_max_num_queries
):
    """Years in, the page lists the latest twelve past nights and says where the rest are;
    it reads the same number of rows' worth of queries with 14 past nights as with 2."""
    cn = club_night
    today = timezone.localdate()
    season = make_season(cn.league, start=today - timedelta(days=400), end=today + timedelta(60))
    nights = [make_night(season, today - timedelta(days=7 * weeks)) for weeks in (1, 2)]
    client.force_login(cn.member)
    url = reverse("leagues:calendar", args=[cn.league.pk])
    with CaptureQueriesContext(connection) as few:
        html = client.get(url).content.decode()
    assert "Older ones are on their season" not in html
    nights += [make_night(season, today - timedelta(days=7 * weeks)) for weeks in range(3, 15)]
    with django_assert_max_num_queries(len(few)):
        html = client.get(url).content.decode()
    past = html.split('id="past-heading"')[1]
    shown = [n for n in nights if f'href="{n.get_absolute_url()}"' in past]
    assert shown == nights[:12]  # the latest first, the two oldest left out
    assert "The latest 12 nights. Older ones are on their season" in past


def test_tonight_s_night_is_past_once_every_table_is_over(client, club_night):
    """Played tonight: the calendar lists it among the past nights once its last table
    finishes, not among the nights to come."""
    cn = club_night
    today = timezone.localdate()
    season = make_season(cn.league, start=today - timedelta(days=60), end=today + timedelta(60))
    tonight = make_night(season, today, venue="Corner hall")
    table = played_table(tonight, [cn.member, cn.organiser], even_holes(30, 33))
    client.force_login(cn.member)

    def listed() -> tuple[str, str]:
        html = client.get(reverse("leagues:calendar", args=[cn.league.pk])).content.decode()
        return tuple(html.split('id="past-heading"'))

    upcoming, past = listed()
    assert "Corner hall" in past and "Corner hall" not in upcoming
    table.table.status = "playing"
    table.table.save(update_fields=["status"])
    upcoming, past = listed()
    assert "Corner hall" in upcoming and "Corner hall" not in past


def test_the_feed_parses_back_with_a_timed_event_per_night_in_utc(client, club_night, settings):
    settings.TIME_ZONE = "Europe/London"
    cn = club_night
    later = make_night(cn.season, date(2026, 7, 2), start_time=time(19, 30), venue="The Crown")
    response = client.get(feed_url(cn, cn.member))  # no session: the token is enough
    found = events(response)
    assert set(found) == {f"night-{cn.night.pk}@fairway", f"night-{later.pk}@fairway"}
    timed = found[f"night-{later.pk}@fairway"]
    # 19:30 in London in July is 18:30 UTC; a night is shown three hours long.
    assert timed.decoded("dtstart") == datetime(2026, 7, 2, 18, 30, tzinfo=UTC)
    assert timed.decoded("dtend") == datetime(2026, 7, 2, 21, 30, tzinfo=UTC)
    assert str(timed["location"]) == "The Crown"
    assert str(timed["summary"]) == f"{cn.league.name} night ({cn.season.name})"
    assert str(timed["url"]).endswith(later.get_absolute_url())
    all_day = found[f"night-{cn.night.pk}@fairway"]
    assert all_day.decoded("dtstart") == date(2026, 3, 1)
    assert all_day.decoded("dtend") == date(2026, 3, 2)
    assert "location" not in all_day


def test_a_moved_night_keeps_its_uid_so_calendars_update_it(client, club_night):
    cn = club_night
    url = feed_url(cn, cn.member)
    schedule_night(
        night=cn.night, night_date=date(2026, 3, 8), start_time=None, venue="", by=cn.organiser
    )
    event = events(client.get(url))[f"night-{cn.night.pk}@fairway"]
    assert event.decoded("dtstart") == date(2026, 3, 8)


def test_a_wrong_or_outsiders_token_gets_nothing(client, club_night):
    cn = club_night
    stranger = make_player()
    assert client.get(feed_url(cn, stranger)).status_code == 404
    bad = reverse("leagues:calendar_feed", args=[cn.league.pk, "not-a-token"])
    assert client.get(bad).status_code == 404
    # A member's token opens only the leagues of their own clubs.
    other = make_league(make_club(organiser=make_player()))
    make_season(other)
    token = calendar_token(player=cn.member)
    url = reverse("leagues:calendar_feed", args=[other.pk, token])
    assert client.get(url).status_code == 404


def test_a_new_address_cuts_off_the_old_one(client, club_night):
    cn = club_night
    old = feed_url(cn, cn.member)
    client.force_login(cn.member)
    response = client.post(reverse("leagues:calendar_reset", args=[cn.league.pk]))
    assert response.status_code == 302
    client.logout()
    assert client.get(old).status_code == 404
    cn.member.refresh_from_db()
    assert client.get(feed_url(cn, cn.member)).status_code == 200


def test_outsiders_do_not_see_the_calendar_page(client, club_night):
    cn = club_night
    url = reverse("leagues:calendar", args=[cn.league.pk])
    assert client.get(url).status_code == 302
    client.force_login(make_player())
    assert client.get(url).status_code == 404

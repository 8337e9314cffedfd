"""Every mail that gives a player a time gives it in their time zone (their profile's,
else the site's), with the zone's abbreviation: the same moment, each in local time."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from games import lobby
from games.models import Table
from leagues.accounts.models import TurnMail
from leagues.calendar.notices import send_due_notices
from leagues.events import services as events
from leagues.invitations import services as invitations
from leagues.models import Player, TurnNotice
from leagues.notify import services as notify
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.leagues.events_helpers import club_with, new_event

# Committed writes: a turn is told after the commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

NEW_YORK, PARIS = "America/New_York", "Europe/Paris"


def body_to(address: str) -> str:
    (message,) = [m for m in mail.outbox if m.to == [address]]
    return message.body


def long_local(moment: datetime, zone: str) -> str:
    """`moment` as the mails write a day and time ("Tuesday 8 December 2026, 14:00 CET")."""
    local = moment.astimezone(ZoneInfo(zone))
    return f"{local:%A} {local.day} {local:%B %Y, %H:%M %Z}"


def players_in(*zones, turn_mail=TurnMail.DAILY) -> list[Player]:
    return [
        make_player(
            name,
            display_name=name.title(),
            email=f"{name}@example.com",
            turn_mail=turn_mail,
            time_zone=zone,
        )
        for name, zone in zip(("ana", "ben", "cy"), zones, strict=False)
    ]


def turn_based(players) -> Table:
    table = lobby.create_table(
        host=players[0],
        variant="play-nine",
        seat_count=len(players),
        players=players,
        move_time=86400,
    )
    lobby.start_match(table=table, by=players[0])
    return table


def test_a_digest_gives_the_same_deadline_in_new_york_in_paris_and_in_the_sites_zone():
    # At a tee off every player waits at once, all on the same deadline.
    players = players_in(NEW_YORK, PARIS, "")
    table = turn_based(players)
    deadline = datetime(2026, 12, 8, 13, 0, tzinfo=UTC)
    Table.objects.filter(pk=table.pk).update(turn_deadline=deadline)
    assert TurnNotice.objects.update(deadline=deadline) == 3
    assert notify.send_digests(now=datetime(2026, 12, 7, 12, 0, tzinfo=UTC)) == 3
    assert "Move by Tue 8 Dec, 08:00 EST:" in body_to("ana@example.com")
    assert "Move by Tue 8 Dec, 14:00 CET:" in body_to("ben@example.com")
    assert "Move by Tue 8 Dec, 13:00 UTC:" in body_to("cy@example.com")


def test_the_your_turn_mail_gives_the_deadline_in_each_players_own_time():
    players = players_in(NEW_YORK, PARIS, turn_mail=TurnMail.AT_ONCE)
    table = turn_based(players)
    table.refresh_from_db()
    for player in players:
        local = table.turn_deadline.astimezone(ZoneInfo(player.time_zone))
        expected = f"Move by {local:%a} {local.day} {local:%b, %H:%M %Z},"
        assert expected in body_to(player.email)
    assert local.tzname() in ("CET", "CEST")


def test_a_night_reminder_gives_its_start_in_each_members_time_and_day():
    olive = make_player("olive", email="olive@example.org", time_zone=PARIS)
    mia = make_player("mia", email="mia@example.org", time_zone="Asia/Tokyo")
    noah = make_player("noah", email="noah@example.org")
    club = make_club("Green Club", organiser=olive, members=[mia, noah])
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    night.start_time = time(19, 30)
    night.save()
    assert send_due_notices(today=date(2026, 2, 28)).reminders == 3
    assert "Sunday 1 March 2026, from 20:30 CET" in body_to("olive@example.org")
    # Half past four the next morning in Tokyo: the day is Tokyo's too.
    assert "Monday 2 March 2026, from 04:30 JST" in body_to("mia@example.org")
    assert "Sunday 1 March 2026, from 19:30 UTC" in body_to("noah@example.org")


def test_an_events_reminder_and_its_place_come_free_mail_give_the_start_in_local_time(
    django_capture_on_commit_callbacks,
):
    club, olive, people = club_with(3)
    for person, zone in zip(people, (NEW_YORK, "", PARIS), strict=True):
        person.email, person.time_zone = f"{person.username}@example.org", zone
        person.save()
    starts = timezone.now() + timedelta(days=1)
    event = new_event(
        club,
        olive,
        starts_at=starts,
        entry_closes_at=starts - timedelta(hours=1),
        seats_per_table=2,
        max_entries=2,
    )
    for person in people:
        events.enter_event(event=event, player=person)  # the third waits: the event is full
    assert send_due_notices(today=timezone.localdate(starts) - timedelta(days=1)).event_reminders
    (reminder,) = [m for m in mail.outbox if m.to == ["p0@example.org"]]
    assert long_local(starts, NEW_YORK) in reminder.body
    assert long_local(starts, "UTC") in body_to("p1@example.org")
    local = starts.astimezone(ZoneInfo(NEW_YORK))
    assert reminder.subject.endswith(f"{local:%A %d %B %H:%M} {local.tzname()}")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.withdraw(event=event, player=people[0])
    assert long_local(starts, PARIS) in body_to("p2@example.org")


def test_an_invitation_gives_its_expiry_in_the_time_of_the_player_with_that_address():
    olive = make_player("olive")
    club = make_club("Green Club", organiser=olive)
    make_player("ana", email="ana@example.org", time_zone=NEW_YORK)
    invitations.invite(
        club=club, by=olive, people=[("", "Ana@example.org"), ("", "bo@example.org")]
    )
    expires = club.invitations.get(email="Ana@example.org").expires_at
    local = expires.astimezone(ZoneInfo(NEW_YORK))
    assert f"until {local.day} {local:%B %Y, %H:%M %Z})" in body_to("Ana@example.org")
    assert "UTC" in body_to("bo@example.org") and "EST" not in body_to("bo@example.org")

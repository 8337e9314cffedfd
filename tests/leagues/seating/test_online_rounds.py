"""An online round: a night with a time per move, an opening and a due time; seated at
turn-based tables, opened once at its opening, played out once at its due time."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from icalendar import Calendar

from games.models import Seat, Table
from leagues.calendar.notices import send_due_notices
from leagues.calendar.selectors import nights_to_come_and_past
from leagues.calendar.services import calendar_token
from leagues.models import CardResult, LeagueNight, TurnNotice
from leagues.seasons.forms import NightForm
from leagues.seasons.services import create_night, schedule_night
from leagues.seating import online
from leagues.seating.services import SeatingError, seat_night
from leagues.standings.selectors import season_standings
from tests.factories import make_club, make_league, make_player, make_season

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 86400
OPENS = datetime(2027, 3, 1, 18, 0, tzinfo=UTC)  # a Monday, in the season's future
DUE = OPENS + timedelta(days=7)


def league_of(count: int, prefix: str = "p", **league_fields):
    organiser = make_player(f"olive-{prefix}", display_name="Olive")
    players = [
        make_player(
            f"{prefix}{i}", display_name=f"{prefix.upper()}{i}", email=f"{prefix}{i}@example.org"
        )
        for i in range(count)
    ]
    league = make_league(make_club(organiser=organiser, members=players))
    for name, value in league_fields.items():
        setattr(league, name, value)
    league.save()
    return organiser, players, make_season(league, start=date(2026, 1, 1), end=date(2027, 12, 31))


def round_of(count: int, *, opens=OPENS, due=DUE, prefix="p", **league_fields):
    organiser, players, season = league_of(count, prefix, **league_fields)
    night = create_night(
        season=season,
        night_date=None,
        by=organiser,
        online=True,
        move_time=DAY,
        opens_at=opens,
        due_at=due,
    )
    night.players.set(players)
    return organiser, players, night


def seat(night, organiser, seats=2):
    return seat_night(night=night, by=organiser, seats_per_table=seats)


# --- the round's settings ------------------------------------------------------------------


def form(**data) -> NightForm:
    fields = {"online": "on", "move_time": str(DAY), "opens_at": "2027-03-01T18:00"}
    return NightForm({**fields, **data})


def test_a_rounds_due_time_comes_after_its_opening_and_holds_a_move():
    earlier = form(due_at="2027-03-01T17:00")
    assert not earlier.is_valid()
    assert earlier.errors["due_at"] == ["An online round is due after it opens."]
    short = form(due_at="2027-03-01T20:00")
    assert not short.is_valid()
    assert "1 day a move does not fit" in short.errors["move_time"][0]
    missing = NightForm({"online": "on"})
    assert not missing.is_valid()
    assert set(missing.errors) >= {"move_time", "opens_at", "due_at"}
    live_only = form(due_at="2027-03-08T18:00", move_time="0")
    assert not live_only.is_valid() and "move_time" in live_only.errors


def test_a_rounds_date_is_its_opening_day_and_an_ordinary_night_needs_one():
    good = form(due_at="2027-03-08T18:00")
    assert good.is_valid(), good.errors
    assert good.cleaned_data["date"] == date(2027, 3, 1)
    plain = NightForm({"venue": "The Crown"})
    assert not plain.is_valid() and plain.errors["date"] == ["Give the night's date."]
    # An ordinary night keeps no round's times, whatever was typed.
    night = NightForm({"date": "2026-03-05", "move_time": str(DAY), "opens_at": "2027-03-01T18:00"})
    assert night.is_valid() and night.cleaned_data["opens_at"] is None


def test_an_organiser_makes_a_night_an_online_round_on_the_season_page(client):
    organiser, _players, season = league_of(2)
    client.force_login(organiser)
    url = reverse("leagues:night_create", args=[season.pk])
    bad = client.post(
        url,
        {
            "online": "on",
            "move_time": DAY,
            "opens_at": "2027-03-01T18:00",
            "due_at": "2027-02-28T18:00",
        },
    )
    assert bad.status_code == 400 and "An online round is due after it opens." in bad.text
    assert not LeagueNight.objects.exists()
    response = client.post(
        url,
        {
            "online": "on",
            "move_time": DAY,
            "opens_at": "2027-03-01T18:00",
            "due_at": "2027-03-08T18:00",
        },
    )
    assert response.status_code == 302
    night = LeagueNight.objects.get()
    assert night.online and night.move_time == DAY and night.date == date(2027, 3, 1)


def test_a_seated_round_keeps_its_pace_an_open_one_its_opening_a_played_out_one_its_due_time():
    organiser, _players, night = round_of(2)
    seat(night, organiser)
    with pytest.raises(ValidationError, match="stay as they are"):
        schedule_night(
            night=night, night_date=None, start_time=None, venue="", by=organiser,
            online=True, move_time=DAY * 2, opens_at=OPENS, due_at=DUE,
        )  # fmt: skip
    assert LeagueNight.objects.get(pk=night.pk).move_time == DAY

    def move(opens, due):
        schedule_night(
            night=LeagueNight.objects.get(pk=night.pk), night_date=None, start_time=None,
            venue="", by=organiser, online=True, move_time=DAY, opens_at=opens, due_at=due,
        )  # fmt: skip

    move(OPENS + timedelta(hours=1), DUE)  # not open yet: its opening may move
    online.open_round(night.pk, now=OPENS + timedelta(hours=1))
    with pytest.raises(ValidationError, match="open already"):
        move(OPENS + timedelta(hours=2), DUE)
    move(OPENS + timedelta(hours=1), DUE + timedelta(days=1))  # open: it may be due later
    online.play_out_round(night.pk, now=DUE + timedelta(days=1))
    with pytest.raises(ValidationError, match="played out"):
        move(OPENS + timedelta(hours=1), DUE + timedelta(days=2))
    with pytest.raises(SeatingError, match="played out"):
        seat(LeagueNight.objects.get(pk=night.pk), organiser)
    kept = LeagueNight.objects.get(pk=night.pk)
    assert (kept.opens_at, kept.due_at) == (OPENS + timedelta(hours=1), DUE + timedelta(days=1))


# --- seating and opening -------------------------------------------------------------------


def test_a_round_is_seated_at_turn_based_tables_that_open_once_at_its_opening():
    organiser, players, night = round_of(4, stand_in_level="master")
    with pytest.raises(SeatingError, match="live tables only"):
        seat_night(night=night, by=organiser, seats_per_table=2, paper_tables=1, kind="live")
    tables = seat(night, organiser)
    assert len(tables) == 2
    for night_table in tables:
        table = night_table.table
        assert table.kind == Table.Kind.LIVE and table.turn_based
        assert table.move_time == DAY and table.stand_in_level == "master"
        assert table.status == Table.Status.OPEN  # its opening is to come
    before = OPENS - timedelta(minutes=1)
    assert online.open_round(night.pk, now=before) is False
    assert online.run_due_rounds(now=OPENS) == (1, 0)
    assert online.run_due_rounds(now=OPENS) == (0, 0)  # run twice, opened once
    assert online.open_round(night.pk, now=OPENS) is False
    statuses = set(Table.objects.filter(night_table__night=night).values_list("status", flat=True))
    assert statuses == {Table.Status.PLAYING}
    night.refresh_from_db()
    assert night.opened_at == OPENS
    # Each player is told it is their turn, as at any turn-based table.
    assert TurnNotice.objects.filter(player__in=players).count() == 4


def test_a_round_seated_after_its_opening_tees_off_at_once():
    now = timezone.now()
    organiser, _players, night = round_of(
        2, opens=now - timedelta(hours=1), due=now + timedelta(days=3)
    )
    (night_table,) = seat(night, organiser)
    night_table.table.refresh_from_db()
    assert night_table.table.status == Table.Status.PLAYING
    night.refresh_from_db()
    assert night.opened_at is not None


# --- playing out at the due time -----------------------------------------------------------


def test_at_its_due_time_every_unfinished_table_is_played_out_once_and_counts():
    organiser, players, night = round_of(4)
    seat(night, organiser)
    online.open_round(night.pk, now=OPENS)
    assert online.play_out_round(night.pk, now=DUE - timedelta(seconds=1)) is False
    assert online.run_due_rounds(now=DUE) == (0, 1)
    tables = Table.objects.filter(night_table__night=night)
    assert set(tables.values_list("status", flat=True)) == {Table.Status.FINISHED}
    # Each player's seat was played out by the league's stand-in bot.
    assert set(Seat.objects.filter(table__in=tables).values_list("bot_level", flat=True)) == {
        night.season.league.stand_in_level
    }
    results = CardResult.objects.filter(night_table__night=night)
    assert results.count() == 4 and all(r.counts_for_id for r in results)
    assert online.play_out_round(night.pk) is False
    assert online.run_due_rounds() == (0, 0)
    assert CardResult.objects.filter(night_table__night=night).count() == 4
    standings = season_standings(night.season)
    assert {row.player.pk for row in standings if row.matches} == {p.pk for p in players}


def test_a_league_that_does_not_count_the_bots_results_gives_the_played_out_seats_nothing():
    now = timezone.now()
    organiser, _players, night = round_of(
        2, opens=now + timedelta(hours=1), due=now + timedelta(days=2), stand_in_counts=False
    )
    (night_table,) = seat(night, organiser)
    LeagueNight.objects.filter(pk=night.pk).update(due_at=now - timedelta(seconds=1))
    call_command("run_online_rounds")  # never opened: it tees off, then is played out
    night_table.table.refresh_from_db()
    assert night_table.table.status == Table.Status.FINISHED
    results = CardResult.objects.filter(night_table__night=night)
    assert results.count() == 2 and not any(r.counts_for_id for r in results)


def test_the_play_deadlines_sweep_opens_and_plays_out_a_round_its_tasks_missed():
    """A deployment's task workers and `play_deadlines` sweep the deadlines now and then
    (`deadlines_swept`): a round whose times passed while no task ran for it is opened,
    then played out, by the sweep."""
    now = timezone.now()
    organiser, _players, night = round_of(
        2, opens=now + timedelta(hours=1), due=now + timedelta(days=2)
    )
    (night_table,) = seat(night, organiser)
    LeagueNight.objects.filter(pk=night.pk).update(opens_at=now - timedelta(minutes=2))
    call_command("play_deadlines", stdout=open(os.devnull, "w"))  # noqa: SIM115
    night.refresh_from_db()
    assert night.opened_at is not None and night.played_out_at is None
    LeagueNight.objects.filter(pk=night.pk).update(due_at=now - timedelta(minutes=1))
    call_command("play_deadlines", stdout=open(os.devnull, "w"))  # noqa: SIM115
    night.refresh_from_db()
    night_table.table.refresh_from_db()
    assert night.played_out_at is not None
    assert night_table.table.status == Table.Status.FINISHED


# --- what the pages and mails show ---------------------------------------------------------


def test_the_nights_page_shows_each_tables_progress_deadline_and_the_players_link(client):
    organiser, players, night = round_of(4)
    mine, other = seat(night, organiser)
    online.open_round(night.pk, now=OPENS)
    viewer = Seat.objects.filter(table=mine.table).first().player
    client.force_login(viewer)
    html = client.get(night.get_absolute_url()).text
    assert 'id="online-round"' in html and "1 day a move" in html
    assert "Opens Monday 1 March 2027, 18:00" in html and "It is open" in html
    # The viewer's own table has the link to play; the other's, to watch.
    assert html.count("Play at your table") == 1
    assert f'href="{mine.table.get_absolute_url()}">Play at your table' in html
    assert f'href="{other.table.get_absolute_url()}">Watch' in html
    deadline = Table.objects.get(pk=mine.table.pk).turn_deadline
    assert timezone.localtime(deadline).strftime("%H:%M") in html
    assert "0 of 9" in html
    online.play_out_round(night.pk, now=DUE)
    html = client.get(night.get_absolute_url()).text
    assert "9 of 9 · finished" in html and "It is over" in html
    assert f'href="{other.table.get_absolute_url()}">See the match' in html


def test_the_calendar_shows_a_round_from_its_opening_to_its_due_time(client):
    organiser, players, night = round_of(2)
    token = calendar_token(player=players[0])
    response = client.get(reverse("leagues:calendar_feed", args=[night.season.league.pk, token]))
    (event,) = Calendar.from_ical(response.content).walk("VEVENT")
    assert event.decoded("dtstart") == OPENS and event.decoded("dtend") == DUE
    assert "online round" in str(event["summary"])
    assert "1 day a move" in str(event["description"])


def test_the_reminder_says_when_the_round_opens_and_is_due_with_each_players_table():
    organiser, players, night = round_of(2)
    (night_table,) = seat(night, organiser)
    send_due_notices(today=date(2027, 2, 28))
    (message,) = [m for m in mail.outbox if m.to == [players[0].email]]
    assert "online round opens tomorrow" in message.subject
    assert "Opens Monday 1 March 2027, 18:00" in message.body
    assert "Due   Monday 8 March 2027, 18:00" in message.body
    assert night_table.table.get_absolute_url() in message.body


def test_the_rounds_progress_takes_the_same_queries_for_one_table_or_many():
    counts = []
    for players in (2, 6):
        organiser, _people, night = round_of(players, prefix=f"q{players}-")
        seat(night, organiser)
        online.open_round(night.pk, now=OPENS)
        with CaptureQueriesContext(connection) as queries:
            shown = online.progress(night, organiser)
        assert len(shown) == players // 2 and all(row.to_move for row in shown)
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_results_mail_goes_the_morning_after_the_round_was_due_not_after_it_opened():
    organiser, players, night = round_of(2)
    seat(night, organiser)
    online.play_out_round(night.pk, now=DUE)
    mail.outbox.clear()
    assert send_due_notices(today=date(2027, 3, 2)).results == 0  # the day after it opened
    assert send_due_notices(today=date(2027, 3, 9)).results == 2  # the day after it was due
    assert "results" in mail.outbox[0].subject


def test_the_calendar_lists_a_round_as_to_come_until_its_due_day():
    organiser, _players, night = round_of(2)
    seat(night, organiser)
    online.open_round(night.pk, now=OPENS)
    league = night.season.league
    assert nights_to_come_and_past(league, date(2027, 3, 5)) == ([night], [], False)
    assert nights_to_come_and_past(league, date(2027, 3, 9)) == ([], [night], False)


def test_a_rounds_opening_and_play_out_are_queued_for_their_times(settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    organiser, _players, night = round_of(2)
    queued = {row.task_path.rsplit(".", 1)[1]: row for row in DBTaskResult.objects.all()}
    assert set(queued) == {"open_round_task", "play_out_round_task"}
    assert queued["open_round_task"].run_after == OPENS
    assert queued["play_out_round_task"].run_after == DUE
    assert all(row.args_kwargs["args"] == [night.pk] for row in queued.values())
    # A round moved later is queued again for its new times; the early task finds nothing due.
    schedule_night(
        night=night, night_date=None, start_time=None, venue="", by=organiser,
        online=True, move_time=DAY, opens_at=OPENS + timedelta(days=1), due_at=DUE,
    )  # fmt: skip
    assert DBTaskResult.objects.filter(run_after=OPENS + timedelta(days=1)).count() == 1
    seat(night, organiser)
    assert online.open_round_task.call(night.pk) is False  # run early: not due yet

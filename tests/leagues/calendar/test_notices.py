"""Reminders the day before a night and results the morning after, each sent once."""

from __future__ import annotations

import io
from datetime import date, time

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from leagues.calendar.notices import send_due_notices
from leagues.models import NightNotice
from leagues.results.services import enter_night_results
from leagues.seasons.services import schedule_night
from tests.factories import even_holes, make_player
from tests.leagues.mail_backends import REFUSED

pytestmark = pytest.mark.django_db

NIGHT = date(2026, 3, 1)
EVE, MORNING_AFTER = date(2026, 2, 28), date(2026, 3, 2)


@pytest.fixture
def mailing(club_night):
    """Olive and Mia have addresses; Noah has none; Pia turned both notices off."""
    cn = club_night
    cn.night.start_time, cn.night.venue = time(19, 30), "The Crown"
    cn.night.save()
    for player, address in [(cn.organiser, "olive@example.org"), (cn.member, "mia@example.org")]:
        player.email = address
        player.save()
    pia = cn.others[1]
    pia.email, pia.email_reminders, pia.email_results = "pia@example.org", False, False
    pia.save()
    return cn


def addresses() -> set[str]:
    return {to for message in mail.outbox for to in message.to}


def test_members_are_reminded_the_day_before(mailing):
    cn = mailing
    sent = send_due_notices(today=EVE)
    assert (sent.reminders, sent.results) == (2, 0)
    assert addresses() == {"olive@example.org", "mia@example.org"}
    message = mail.outbox[0]
    assert len(message.to) == 1  # one mail each: no member sees another's address
    assert cn.league.name in message.subject and "tomorrow" in message.subject
    assert "Sunday 1 March 2026, from 19:30" in message.body
    assert "at The Crown" in message.body
    assert f"http://127.0.0.1:8000{cn.night.get_absolute_url()}" in message.body
    assert "http://127.0.0.1:8000/accounts/profile/" in message.body


def test_no_reminder_on_other_days(mailing):
    for day in (date(2026, 2, 27), NIGHT):
        assert send_due_notices(today=day).reminders == 0
    assert mail.outbox == []


def test_running_twice_sends_nothing_twice(mailing):
    call_command("send_night_mail", "--date", "2026-02-28")
    call_command("send_night_mail", "--date", "2026-02-28")
    assert len(mail.outbox) == 2
    assert NightNotice.objects.filter(kind="reminder").count() == 2


def test_a_member_who_gives_an_address_later_still_gets_the_reminder_once(mailing):
    cn = mailing
    send_due_notices(today=EVE)
    noah = cn.others[0]
    noah.email = "noah@example.org"
    noah.save()
    mail.outbox.clear()
    send_due_notices(today=EVE)
    assert addresses() == {"noah@example.org"}


def test_outsiders_never_get_a_clubs_mail(mailing):
    make_player("stranger", email="stranger@example.org")
    send_due_notices(today=EVE)
    assert "stranger@example.org" not in addresses()


def test_the_results_go_out_the_morning_after_with_places_and_standings(mailing):
    cn = mailing
    enter_night_results(
        night_table=cn.night_table, hole_scores=even_holes(30, 35, 40), by=cn.organiser
    )
    assert send_due_notices(today=NIGHT).results == 0  # not before the night is over
    sent = send_due_notices(today=MORNING_AFTER)
    assert (sent.reminders, sent.results) == (0, 2)
    assert addresses() == {"olive@example.org", "mia@example.org"}
    body = mail.outbox[0].body
    assert "results of Sunday 01 March" in mail.outbox[0].subject
    assert "Table 1" in body
    assert "1. Mia, 30 strokes" in body and "3. Pia, 40 strokes" in body
    assert "1. Mia, 6 points" in body
    assert send_due_notices(today=MORNING_AFTER).results == 0
    assert len(mail.outbox) == 2


def test_no_results_mail_for_a_night_without_results(mailing):
    assert send_due_notices(today=MORNING_AFTER).results == 0
    assert mail.outbox == []


def test_a_member_turns_the_mail_off_on_their_account_page(client, mailing):
    cn = mailing
    client.force_login(cn.member)
    html = client.get(reverse("account")).content.decode()
    assert "Remind me of league nights" in html and "Send me the results" in html
    response = client.post(
        reverse("account"),
        {"display_name": "Mia", "email": "mia@example.org", "email_results": "on"},
    )
    assert response.status_code == 302
    cn.member.refresh_from_db()
    assert (cn.member.email_reminders, cn.member.email_results) == (False, True)
    send_due_notices(today=EVE)
    assert addresses() == {"olive@example.org"}


def test_the_command_refuses_a_date_it_cannot_read(mailing):
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        call_command("send_night_mail", "--date", "tomorrow")
    assert mail.outbox == []
    assert not NightNotice.objects.exists()


def test_a_refused_mail_is_tried_again_on_the_next_run_and_the_rest_go_out(mailing, settings):
    cn = mailing
    settings.EMAIL_BACKEND = "tests.leagues.mail_backends.RefusingBackend"
    cn.member.email = REFUSED
    cn.member.save()
    with pytest.raises(CommandError, match="the next run tries again"):
        call_command("send_night_mail", "--date", "2026-02-28")
    assert addresses() == {"olive@example.org"}
    assert not NightNotice.objects.filter(player=cn.member).exists()
    cn.member.email = "mia@example.org"
    cn.member.save()
    call_command("send_night_mail", "--date", "2026-02-28")
    assert [m.to for m in mail.outbox] == [["olive@example.org"], ["mia@example.org"]]


def test_a_night_moved_to_another_day_is_reminded_of_again(mailing):
    cn = mailing
    send_due_notices(today=EVE)
    schedule_night(
        night=cn.night, night_date=date(2026, 3, 8), start_time=None, venue="", by=cn.organiser
    )
    mail.outbox.clear()
    assert send_due_notices(today=date(2026, 3, 7)).reminders == 2
    assert "Sunday 8 March 2026" in mail.outbox[0].body


def test_the_command_queues_the_mail_and_a_worker_sends_it_retrying_a_refused_address(
    mailing, task_workers, settings
):
    """Queued for the workers: nothing sent by the command itself. A refused address
    fails the task, tried again (the mail that went out is not sent twice), then kept
    failed with its error."""
    cn = mailing
    settings.EMAIL_BACKEND = "tests.leagues.mail_backends.RefusingBackend"
    settings.FAIRWAY_TASK_RETRY_SECONDS = 0
    cn.member.email = REFUSED
    cn.member.save()
    out = io.StringIO()
    call_command("send_night_mail", "--date", "2026-02-28", stdout=out)
    assert out.getvalue() == "1 mail task(s) queued.\n" and mail.outbox == []
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert [m.to for m in mail.outbox] == [["olive@example.org"]]
    row = DBTaskResult.objects.get()
    assert row.status == "FAILED" and len(row.worker_ids) == settings.FAIRWAY_TASK_ATTEMPTS
    assert "Could not mail 1 member(s)" in row.traceback


def test_the_command_sends_at_once_when_asked(mailing, task_workers):
    out = io.StringIO()
    call_command("send_night_mail", "--date", "2026-02-28", "--now", stdout=out)
    assert out.getvalue().startswith("2 reminder(s)")
    assert addresses() == {"olive@example.org", "mia@example.org"}
    assert not DBTaskResult.objects.exists()

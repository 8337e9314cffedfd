"""Mail about league nights: a reminder the day before, the results the morning after;
and a reminder the day before an event to each of its entrants (`EventNotice`).

`queue_due_notices` runs once a day, or more often (the `send_night_mail` command, from
cron or a systemd timer): it queues a task for each night's notice and each event's
reminder (`mail_night_notice`, `mail_event_reminder`), which a task worker sends, so a
slow mail server holds up no one. A task that could not mail every member fails and is
tried again (games.tasks); `send_due_notices` sends them all at once, in the caller's
process. A time in a mail is in the member's time zone (their profile's, else the
site's), with its abbreviation. Each member gets each notice of a night at most once: a
`NightNotice` is written with the mail, so running any of them again sends nothing
twice. Only members with an email address who have not turned the notice off get it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from games.models import Seat, Table

from ..attendance.links import answer_link
from ..attendance.selectors import answers_closed_reason
from ..clubs.selectors import club_members
from ..events.selectors import events_to_remind
from ..models import Answer, Event, EventNotice, LeagueNight, NightNotice, Player
from ..results.selectors import night_tables
from ..standings.selectors import season_standings
from .feed import night_start

logger = logging.getLogger(__name__)


@dataclass
class Sent:
    """How many mails a run sent, and the addresses it could not send to."""

    reminders: int = 0
    results: int = 0
    event_reminders: int = 0
    failed: list[str] = field(default_factory=list)


def nights_to_remind(today: date) -> QuerySet[LeagueNight]:
    """The nights played tomorrow."""
    return LeagueNight.objects.filter(date=today + timedelta(days=1)).select_related(
        "season__league__club"
    )


def nights_with_results(today: date) -> QuerySet[LeagueNight]:
    """The nights whose last day was yesterday (an online round's: the day it was due),
    with a table's results in."""
    return (
        LeagueNight.objects.with_last_day()
        .filter(last_day=today - timedelta(days=1), tables__table__status=Table.Status.FINISHED)
        .distinct()
        .select_related("season__league__club")
    )


def recipients(night: LeagueNight, kind: str) -> QuerySet[Player]:
    """The club's members who get this notice: with an address, and not turned off."""
    if kind == NightNotice.Kind.REMINDER:
        wants = {"email_reminders": True}
    else:
        wants = {"email_results": True}
    return club_members(night.season.league.club).filter(is_active=True, **wants).exclude(email="")


def _absolute(path: str) -> str:
    return settings.FAIRWAY_SITE_URL.rstrip("/") + path


def _results(night: LeagueNight) -> list[dict]:
    tables = []
    for night_table in night_tables(night):
        table = night_table.table
        cards = sorted(
            table.scorecards.all(), key=lambda c: (c.place is None, c.place or 0, c.position)
        )
        tables.append(
            {
                "number": night_table.number,
                "finished": table.status == Table.Status.FINISHED,
                "cards": cards,
            }
        )
    return tables


def _message(night: LeagueNight, kind: str) -> tuple[str, str]:
    """The subject and text of a notice: the same for every member."""
    league = night.season.league
    context = {
        "night": night,
        "league": league,
        "club": league.club,
        "start": night_start(night),
        "night_url": _absolute(night.get_absolute_url()),
        "calendar_url": _absolute(reverse("leagues:calendar", args=[league.pk])),
        "account_url": _absolute(reverse("account")),
    }
    if kind == NightNotice.Kind.REMINDER:
        what = "online round opens" if night.online else "league night"
        subject = f"{league.name}: {what} tomorrow, {night.date:%A %d %B}"
        return subject, render_to_string("leagues/mail/reminder.txt", context)
    context["tables"] = _results(night)
    context["standings"] = season_standings(night.season)
    context["season_url"] = _absolute(night.season.get_absolute_url())
    subject = f"{league.name}: results of {night.date:%A %d %B}"
    return subject, render_to_string("leagues/mail/results.txt", context)


def _answer_links(night: LeagueNight, player: Player) -> str:
    """A member's one-click answers to "are you coming?" (no log-in; each opens a page
    with a button, so a mail scanner following them records nothing)."""
    lines = [
        f"  {label}: {_absolute(answer_link(player, night.pk, value))}"
        for value, label in Answer.Choice.choices
    ]
    return "\nAre you coming? One click, no log-in needed:\n" + "\n".join(lines) + "\n"


def _round_table(night: LeagueNight, player: Player) -> str:
    """The link to a member's own table of an online round, once it is seated."""
    seat = Seat.objects.filter(table__night_table__night=night, player=player).first()
    if seat is None:
        return ""
    return f"\nYour table in the online round: {_absolute(seat.table.get_absolute_url())}\n"


def _send(night: LeagueNight, kind: str, sent: Sent) -> int:
    done = set(NightNotice.objects.filter(night=night, kind=kind).values_list("player", flat=True))
    members = [p for p in recipients(night, kind) if p.pk not in done]
    if not members:
        return 0
    reminder = kind == NightNotice.Kind.REMINDER
    # A reminder gives the night's start in each member's time zone: one text a zone.
    # The results give no time: one text for all.
    texts: dict[str, tuple[str, str]] = {}
    # A reminder carries each member's own one-click answers, while answers are open.
    asks = reminder and not answers_closed_reason(night)
    count = 0
    for player in members:
        zone = player.zone if reminder else timezone.get_default_timezone()
        if zone.key not in texts:
            with timezone.override(zone):
                texts[zone.key] = _message(night, kind)
        subject, body = texts[zone.key]
        try:
            # The record and the mail stand or fall together: a mail that fails is
            # tried again on the next run, and one that went out is never repeated.
            with transaction.atomic():
                NightNotice.objects.create(night=night, player=player, kind=kind)
                text = body + _answer_links(night, player) if asks else body
                if kind == NightNotice.Kind.REMINDER and night.online:
                    text += _round_table(night, player)
                send_mail(subject, text, None, [player.email])
        except IntegrityError:
            continue  # another run sent it meanwhile
        except OSError as error:  # smtplib's errors are OSErrors
            logger.warning("Could not mail %s about %s: %s", player.email, night, error)
            sent.failed.append(player.email)
            continue
        count += 1
    return count


def event_recipients(event: Event) -> QuerySet[Player]:
    """An event's entrants who get its reminder: with an address, reminders on."""
    return Player.objects.filter(
        event_entries__event=event, is_active=True, email_reminders=True
    ).exclude(email="")


def _send_event_reminder(event: Event, sent: Sent) -> int:
    done = set(EventNotice.objects.filter(event=event).values_list("player", flat=True))
    players = [p for p in event_recipients(event) if p.pk not in done]
    if not players:
        return 0
    context = {
        "event": event,
        "club": event.club,
        "starts": event.starts_at,
        "event_url": _absolute(event.get_absolute_url()),
        "account_url": _absolute(reverse("account")),
    }
    count = 0
    for player in players:
        with timezone.override(player.zone):  # the start in the entrant's own time
            starts = timezone.localtime(event.starts_at)
            subject = f"{event.name}: tomorrow, {starts:%A %d %B %H:%M %Z}"
            body = render_to_string("leagues/mail/event_reminder.txt", context)
        try:
            with transaction.atomic():  # the record and the mail stand or fall together
                EventNotice.objects.create(event=event, player=player)
                send_mail(subject, body, None, [player.email])
        except IntegrityError:
            continue
        except OSError as error:
            logger.warning("Could not mail %s about %s: %s", player.email, event, error)
            sent.failed.append(player.email)
            continue
        count += 1
    return count


def send_due_notices(*, today: date) -> Sent:
    """Send tomorrow's reminders (of nights and of events) and yesterday's results, each
    at most once a member."""
    sent = Sent()
    tomorrow = timezone.make_aware(datetime.combine(today + timedelta(days=1), time.min))
    for event in events_to_remind(tomorrow, tomorrow + timedelta(days=1)):
        sent.event_reminders += _send_event_reminder(event, sent)
    for night in nights_to_remind(today):
        sent.reminders += _send(night, NightNotice.Kind.REMINDER, sent)
    for night in nights_with_results(today):
        sent.results += _send(night, NightNotice.Kind.RESULTS, sent)
    return sent


class NotSent(Exception):
    """Some members' mail could not be sent: the task is tried again for them."""


@task()
def mail_night_notice(night_id: int, kind: str) -> int:
    """The task: a night's notice (`kind`) to each member who has not had it. Returns
    how many were sent; raises NotSent when an address failed (tried again for it)."""
    night = LeagueNight.objects.select_related("season__league__club").filter(pk=night_id).first()
    if night is None:
        return 0  # the night was deleted meanwhile
    sent = Sent()
    count = _send(night, kind, sent)
    if sent.failed:
        raise NotSent(f"Could not mail {len(sent.failed)} member(s) about {night} ({count} sent).")
    return count


@task()
def mail_event_reminder(event_id: int) -> int:
    """The task: an event's reminder to each entrant who has not had it (as above)."""
    event = Event.objects.select_related("club").filter(pk=event_id).first()
    if event is None:
        return 0
    sent = Sent()
    count = _send_event_reminder(event, sent)
    if sent.failed:
        raise NotSent(f"Could not mail {len(sent.failed)} entrant(s) about {event} ({count} sent).")
    return count


def queue_due_notices(*, today: date) -> list:
    """Queue the tasks that mail tomorrow's reminders and yesterday's results (as
    `send_due_notices` would send them): one a night's notice, one an event's reminder.
    Returns their results (already run, with the immediate backend)."""
    tomorrow = timezone.make_aware(datetime.combine(today + timedelta(days=1), time.min))
    results = [
        mail_event_reminder.enqueue(event.pk)
        for event in events_to_remind(tomorrow, tomorrow + timedelta(days=1))
    ]
    results += [
        mail_night_notice.enqueue(night.pk, NightNotice.Kind.REMINDER)
        for night in nights_to_remind(today)
    ]
    results += [
        mail_night_notice.enqueue(night.pk, NightNotice.Kind.RESULTS)
        for night in nights_with_results(today)
    ]
    return results

"""Writes of announcements: an organiser's announcement written and queued, its mail
sent by a task, and a member's choice to get a club's announcements or not.

The mail goes out through the task queue (`mail_announcement`, one task an
announcement, after the commit): a slow mail server holds up no page. Each member's
mail is recorded with it (`AnnouncementMail`), so a task tried again after a failure
sends only to those it missed. Each mail carries its one-click unsubscribe link, in its
text and in the List-Unsubscribe headers (RFC 2369, RFC 8058).
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django_tasks import task

from ..guards import require_organiser
from ..models import (
    Announcement,
    AnnouncementMail,
    AnnouncementOptOut,
    Club,
    League,
    Player,
)
from .links import unsubscribe_link
from .selectors import audience

logger = logging.getLogger(__name__)


@transaction.atomic
def announce(
    *, club: Club, subject: str, body: str, by: Player, league: League | None = None
) -> Announcement:
    """An organiser's announcement to the club's members (or one league's players),
    mailed by a task once the transaction commits."""
    require_organiser(by, club)
    if league is not None and league.club_id != club.pk:
        raise ValidationError(f"{league.name} is not a league of {club.name}.")
    announcement = Announcement(
        club=club, league=league, subject=" ".join(subject.split()), body=body.strip(), sent_by=by
    )
    announcement.full_clean()
    announcement.recipients = audience(club, league).count()
    if not announcement.recipients:
        raise ValidationError("Nobody would get it: no member has an address and wants it.")
    announcement.save()
    transaction.on_commit(partial(mail_announcement.enqueue, announcement.pk))
    return announcement


def set_choice(*, player: Player, club: Club, wants: bool) -> None:
    """Whether `player` gets `club`'s announcements."""
    if wants:
        AnnouncementOptOut.objects.filter(club=club, player=player).delete()
    else:
        AnnouncementOptOut.objects.get_or_create(club=club, player=player)


def _absolute(path: str) -> str:
    return settings.FAIRWAY_SITE_URL.rstrip("/") + path


class NotSent(Exception):
    """Some members' mail could not be sent: the task is tried again for them."""


@task()
def mail_announcement(announcement_id: int) -> int:
    """The task: the announcement to each member it is for who has not had it (and still
    wants it). Returns how many were sent; raises NotSent when an address failed."""
    announcement = (
        Announcement.objects.select_related("club", "league", "sent_by")
        .filter(pk=announcement_id)
        .first()
    )
    if announcement is None:
        return 0
    club = announcement.club
    done = AnnouncementMail.objects.filter(announcement=announcement).values("player_id")
    count, failed = 0, 0
    for player in audience(club, announcement.league).exclude(pk__in=done):
        link = _absolute(unsubscribe_link(player, club))
        body = render_to_string(
            "leagues/mail/announcement.txt",
            {"announcement": announcement, "club": club, "unsubscribe_url": link},
        )
        message = EmailMessage(
            f"{club.name}: {announcement.subject}",
            body,
            to=[player.email],
            headers={
                "List-Unsubscribe": f"<{link}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
        try:
            with transaction.atomic():  # the record and the mail stand or fall together
                AnnouncementMail.objects.create(announcement=announcement, player=player)
                message.send()
        except IntegrityError:
            continue  # another run sent it meanwhile
        except OSError as error:  # smtplib's errors are OSErrors
            logger.warning("Could not mail %s: %s", player.email, error)
            failed += 1
            continue
        count += 1
    if failed:
        raise NotSent(f"Could not mail {failed} member(s) ({count} sent).")
    return count

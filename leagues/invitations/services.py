"""Writes to a club's ways in: its join link made, renewed or withdrawn; invitations
mailed, sent again with a new secret, withdrawn; a link or an invitation followed.

Every organiser's write checks their role in that club (`require_organiser`, which also
refuses a club waiting for approval or suspended). Invitations go out by a task
(`mail_invitation`), queued once the invitation is committed; the task makes the
secret, so that the queue never holds one, and a new one cuts off the old address.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from games.tasks import enqueue_on_commit

from ..guards import require_active, require_organiser
from ..models import Club, Invitation, JoinLink, Membership, Player
from . import selectors
from .roster import Row
from .secret_links import hash_secret, new_secret

#: The most addresses one invitation form takes (a longer list is a roster to import).
MAX_ADDRESSES = 50


def renew_join_link(
    *,
    club: Club,
    by: Player,
    expires_at: datetime | None = None,
    max_uses: int | None = None,
) -> str:
    """A new join link for the club (the old address stops working), its uses counted
    from nought. Returns the secret: shown once, to the organiser, never stored."""
    require_organiser(by, club)
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": "The link would have expired already."})
    if max_uses is not None and max_uses < 1:
        raise ValidationError({"max_uses": "A link used by no one lets no one in."})
    secret = new_secret()
    JoinLink.objects.update_or_create(
        club=club,
        defaults={
            "secret_hash": hash_secret(secret),
            "expires_at": expires_at,
            "max_uses": max_uses,
            "uses": 0,
            "created_by": by,
            "created_at": timezone.now(),
        },
    )
    return secret


def withdraw_join_link(*, club: Club, by: Player) -> int:
    """The club's join link withdrawn: its address lets no one in. Returns how many."""
    require_organiser(by, club)
    deleted, _ = JoinLink.objects.filter(club=club).delete()
    return deleted


def _admit(club: Club, player: Player) -> bool:
    """Make `player` a member (as a player); False when they were one already."""
    require_active(club)
    _, created = Membership.objects.get_or_create(
        club=club, player=player, defaults={"role": Membership.Role.PLAYER}
    )
    return created


def join_by_link(*, secret: str, player: Player) -> Club:
    """`player` follows a join link: a member of its club from now on.

    A member already uses none of the link's uses. Refused (ValidationError) for a
    link unknown, withdrawn, renewed since, expired or used up.
    """
    with transaction.atomic():
        link = selectors.link_for(secret)
        if link is None:
            raise ValidationError(
                "This join link is not (or no longer) valid: the club may have renewed it."
            )
        link = JoinLink.objects.select_for_update().select_related("club").get(pk=link.pk)
        reason = link.closed_reason(timezone.now())
        if reason:
            raise ValidationError(reason)
        if _admit(link.club, player):
            # Counted on condition, so that two people at once never pass a limit of one
            # (SQLite has no row lock: the condition holds there too).
            counted = JoinLink.objects.filter(pk=link.pk)
            if link.max_uses is not None:
                counted = counted.filter(uses__lt=link.max_uses)
            if not counted.update(uses=F("uses") + 1):
                raise ValidationError(
                    "This join link has been used as often as it may be: ask for a new one."
                )
        return link.club


def invite(*, club: Club, by: Player, people: Iterable[tuple[str, str]]) -> list[Invitation]:
    """Invitations to `people` (name, address), each mailed by a task once committed.

    Addresses of members and of pending invitations are left out (no second mail).
    """
    require_organiser(by, club)
    wanted: dict[str, tuple[str, str]] = {}
    for name, email in people:
        wanted.setdefault(email.lower(), (name, email))
    if not wanted:
        return []
    try:
        with transaction.atomic():
            # One invitation of a club at a time (PostgreSQL): two organisers inviting
            # the same address at once make one invitation, the second finding it pending.
            Club.objects.select_for_update().filter(pk=club.pk).first()
            skip = set(
                Player.objects.annotate(key=Lower("email"))
                .filter(key__in=wanted, memberships__club=club)
                .values_list("key", flat=True)
            ) | set(
                selectors.pending_invitations(club)
                .annotate(key=Lower("email"))
                .filter(key__in=wanted)
                .values_list("key", flat=True)
            )
            made = Invitation.objects.bulk_create(
                Invitation(club=club, email=email, name=name[:80], invited_by=by)
                for key, (name, email) in wanted.items()
                if key not in skip
            )
            # Both databases give the new rows' ids back (SQLite from 3.35).
            for invitation in made:
                enqueue_on_commit(mail_invitation, invitation.pk)
    except IntegrityError:  # a database that takes no row lock, and another invite at once
        raise ValidationError(
            "Someone else invited one of these addresses at the same moment: nothing was "
            "sent. Look at the pending invitations and try again."
        ) from None
    return made


def invite_roster(*, club: Club, by: Player, rows: list[Row]) -> list[Invitation]:
    """The roster's rows confirmed: each row to invite, invited (rows refused or known
    since the dry run are left out, as `invite` leaves them)."""
    return invite(
        club=club, by=by, people=[(row.name, row.email) for row in rows if not row.problem]
    )


def send_again(*, invitation: Invitation, by: Player) -> None:
    """Mail a pending invitation again, with a new secret (the old address stops)."""
    require_organiser(by, invitation.club)
    if not invitation.is_pending:
        raise ValidationError("Only a pending invitation can be sent again.")
    enqueue_on_commit(mail_invitation, invitation.pk)


def withdraw_invitation(*, invitation: Invitation, by: Player) -> None:
    """A pending invitation withdrawn: its address lets no one in."""
    require_organiser(by, invitation.club)
    changed = Invitation.objects.filter(
        pk=invitation.pk, accepted_at__isnull=True, withdrawn_at__isnull=True
    ).update(withdrawn_at=timezone.now())
    if not changed:
        raise ValidationError("That invitation is no longer pending.")


def accept_invitation(*, secret: str, player: Player) -> Club:
    """`player` follows an invitation: a member of its club, and the invitation used.

    Refused (ValidationError) for one unknown, sent again since, withdrawn, used or
    expired.
    """
    with transaction.atomic():
        invitation = selectors.invitation_for(secret)
        if invitation is None:
            raise ValidationError(
                "This invitation is not (or no longer) valid: a newer mail may have replaced it."
            )
        invitation = (
            Invitation.objects.select_for_update().select_related("club").get(pk=invitation.pk)
        )
        reason = invitation.closed_reason(timezone.now())
        if reason:
            raise ValidationError(reason)
        _admit(invitation.club, player)
        invitation.accepted_at = timezone.now()
        invitation.accepted_by = player
        invitation.save(update_fields=["accepted_at", "accepted_by"])
        return invitation.club


@task()
def mail_invitation(invitation_id: int) -> bool:
    """The task: mail a pending invitation with a fresh secret. The secret and the mail
    stand or fall together: a mail that fails leaves the old secret, and the task is
    tried again. False when the invitation is no longer pending (or its club is held)."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update(of=("self",))
            .select_related("club", "invited_by")
            .filter(pk=invitation_id, accepted_at__isnull=True, withdrawn_at__isnull=True)
            .first()
        )
        if invitation is None or not invitation.club.is_active:
            return False
        secret = new_secret()
        now = timezone.now()
        invitation.secret_hash = hash_secret(secret)
        invitation.sent_at = now
        invitation.expires_at = now + timedelta(days=settings.FAIRWAY_INVITATION_DAYS)
        invitation.save(update_fields=["secret_hash", "sent_at", "expires_at"])
        site = settings.FAIRWAY_SITE_URL.rstrip("/")
        # The expiry in the time zone of the player whose address it already is, if any.
        known = Player.objects.filter(email__iexact=invitation.email).first()
        with timezone.override(known.zone if known else timezone.get_default_timezone()):
            body = render_to_string(
                "leagues/mail/invitation.txt",
                {
                    "invitation": invitation,
                    "club": invitation.club,
                    "by": invitation.invited_by,
                    "url": site + reverse("leagues:invitation", args=[secret]),
                },
            )
        send_mail(f"An invitation to {invitation.club.name}", body, None, [invitation.email])
    return True

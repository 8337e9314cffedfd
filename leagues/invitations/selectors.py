"""Reads about a club's ways in: its join link and pending invitations, the link or
invitation a secret opens, and a roster's rows sorted before anything is written."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.db.models.functions import Lower

from ..models import Club, Invitation, JoinLink, Player
from .roster import Row
from .secret_links import hash_secret, matches


def pending_invitations(club: Club) -> QuerySet[Invitation]:
    """The club's invitations neither accepted nor withdrawn, newest first."""
    return club.invitations.filter(accepted_at__isnull=True, withdrawn_at__isnull=True).order_by(
        "-created_at", "email"
    )


def join_link_of(club: Club) -> JoinLink | None:
    return JoinLink.objects.filter(club=club).first()


def link_for(secret: str) -> JoinLink | None:
    """The join link `secret` opens, or None."""
    link = JoinLink.objects.select_related("club").filter(secret_hash=hash_secret(secret)).first()
    return link if link is not None and matches(secret, link.secret_hash) else None


def invitation_for(secret: str) -> Invitation | None:
    """The invitation `secret` opens (pending or not, so that its page says why not)."""
    invitation = (
        Invitation.objects.select_related("club").filter(secret_hash=hash_secret(secret)).first()
    )
    if invitation is None or not matches(secret, invitation.secret_hash):
        return None
    return invitation


@dataclass
class Sorted:
    """A roster's rows as the dry run shows them."""

    to_invite: list[Row] = field(default_factory=list)
    members: list[Row] = field(default_factory=list)
    invited: list[Row] = field(default_factory=list)
    refused: list[Row] = field(default_factory=list)


def sort_roster(club: Club, rows: list[Row]) -> Sorted:
    """Who will be invited, who is a member already, who has an invitation waiting, and
    which rows are refused: two queries, whatever the roster's length."""
    emails = {row.email.lower() for row in rows if not row.problem}
    members = set(
        Player.objects.annotate(key=Lower("email"))
        .filter(key__in=emails, memberships__club=club)
        .values_list("key", flat=True)
    )
    invited = set(
        pending_invitations(club)
        .annotate(key=Lower("email"))
        .filter(key__in=emails)
        .values_list("key", flat=True)
    )
    result = Sorted()
    for row in rows:
        key = row.email.lower()
        if row.problem:
            result.refused.append(row)
        elif key in members:
            result.members.append(row)
        elif key in invited:
            result.invited.append(row)
        else:
            result.to_invite.append(row)
    return result

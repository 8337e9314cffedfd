"""Reads of announcements: whom one goes to, and what a club has sent."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from ..models import Announcement, AnnouncementOptOut, Club, League, Player


def audience(club: Club, league: League | None = None) -> QuerySet[Player]:
    """Who an announcement of `club` (to one `league`: its nights' players) reaches: its
    members with an address, active, who have not turned the club's announcements off."""
    players = Player.objects.filter(memberships__club=club, is_active=True).exclude(email="")
    if league is not None:
        players = players.filter(league_nights__season__league=league)
    opted_out = AnnouncementOptOut.objects.filter(club=club).values("player_id")
    return players.exclude(pk__in=opted_out).distinct()


def sent(club: Club, limit: int = 50) -> list[Announcement]:
    """The club's latest announcements with how many mails went out, newest first."""
    return list(
        Announcement.objects.filter(club=club)
        .select_related("league", "sent_by")
        .annotate(mailed=Count("mails"))[:limit]
    )


def wants_announcements(player: Player, club: Club) -> bool:
    return not AnnouncementOptOut.objects.filter(club=club, player=player).exists()

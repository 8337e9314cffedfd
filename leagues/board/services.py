"""Writes of the night's board: its link made, revoked or renewed by an organiser, and
the news, after the commit, that the night's holes changed (`announce_night_changed`).

The news goes through `games.announce`, the one door to the channel layer; each board
connection then reads the night as it stands and renders it (`consumers`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games import announce

from ..guards import require_organiser
from ..models import LeagueNight, NightBoard, Player


def night_group(night_id: int) -> str:
    """The channel-layer group of a night's open boards."""
    return f"night_board_{night_id}"


def announce_night_changed(night_id: int) -> None:
    """After the commit, tell the night's open boards that its holes changed: a live
    table's hole finished, or a paper table's strokes were saved or corrected. Cheap:
    one message, and nothing read, for the boards to read the night themselves."""
    announce.group_changed(night_group(night_id), {"type": "night.changed"})


def _announce_revoked(night_id: int) -> None:
    """After the commit, tell the night's open boards that a link was revoked: each
    checks its own and closes if it was."""
    announce.group_changed(night_group(night_id), {"type": "board.revoked"})


def _hold(night: LeagueNight) -> None:
    """Lock the night's row until the transaction ends: two organisers making or
    renewing its link at once go one after the other."""
    LeagueNight.objects.select_for_update().filter(pk=night.pk).values_list("pk").get()


@transaction.atomic
def create_board(*, night: LeagueNight, by: Player) -> NightBoard:
    """The night's board link, made if it has none that works (organisers only)."""
    require_organiser(by, night.season.league.club)
    _hold(night)
    board = NightBoard.objects.filter(night=night, revoked=False).first()
    return board or NightBoard.objects.create(night=night, created_by=by)


@transaction.atomic
def revoke_board(*, night: LeagueNight, by: Player) -> int:
    """Stop the night's board link working, and close the boards open on it; how many
    links were revoked back (0: there was none)."""
    require_organiser(by, night.season.league.club)
    _hold(night)
    revoked = NightBoard.objects.filter(night=night, revoked=False).update(
        revoked=True, revoked_at=timezone.now()
    )
    if revoked:
        _announce_revoked(night.pk)
    return revoked


@transaction.atomic
def renew_board(*, night: LeagueNight, by: Player) -> NightBoard:
    """A new link for the night's board: the old one stops working (its boards close)."""
    revoke_board(night=night, by=by)
    return NightBoard.objects.create(night=night, created_by=by)

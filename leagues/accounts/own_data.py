"""What the site holds about one player, for them to download: their account, their
memberships, their scorecards (with each hole's strokes), their ratings, the reviews
of their holes and the devices that show their turns. A read, of their own records only;
`as_rows` lays it out for a CSV file (one line a value: section, record, field, value),
so that every section fits one sheet.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlsplit

from django.db.models import Exists, OuterRef

from games.models import HoleReview, Scorecard, ScorecardHole

from ..models import Membership, Player, PushSubscription, Rating

ACCOUNT_FIELDS = (
    "username",
    "display_name",
    "first_name",
    "last_name",
    "email",
    "date_joined",
    "last_login",
    "email_reminders",
    "email_results",
    "turn_mail",
    "time_zone",
)


def _when(value) -> str | None:
    return value.isoformat() if value is not None else None


def own_data(player: Player) -> dict:
    """Everything the site keeps about `player`, as plain values (JSON's)."""
    account = {}
    for name in ACCOUNT_FIELDS:
        value = getattr(player, name)
        account[name] = _when(value) if hasattr(value, "isoformat") else value
    account["has_calendar_address"] = bool(player.calendar_token)
    memberships = [
        {"club": m.club.name, "role": m.role, "joined_at": _when(m.joined_at)}
        for m in Membership.objects.filter(player=player).select_related("club")
    ]
    cards = list(
        Scorecard.objects.filter(player=player)
        .select_related("table")
        .order_by("table__created_at", "table_id")
    )
    strokes: dict[int, list] = {}
    for hole in ScorecardHole.objects.filter(scorecard__player=player).order_by("number"):
        strokes.setdefault(hole.scorecard_id, []).append(
            {"hole": hole.number, "strokes": hole.strokes}
        )
    scorecards = [
        {
            "table": card.table_id,
            "game": card.table.variant,
            "played_at": _when(card.table.created_at),
            "name_on_card": card.name,
            "seat": card.position,
            "total": card.total,
            "place": card.place,
            "holes": strokes.get(card.pk, []),
        }
        for card in cards
    ]
    ratings = [
        {
            "league": rating.league.name,
            "club": rating.league.club.name,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "matches": rating.matches,
        }
        for rating in Rating.objects.filter(player=player).select_related("league__club")
    ]
    own_seat = Scorecard.objects.filter(
        player=player, table=OuterRef("hole__table"), position=OuterRef("position")
    )
    reviews = [
        {
            "table": review.hole.table_id,
            "hole": review.hole.number,
            "strokes_given_away": review.given_away,
            "decisions": review.decisions,
        }
        for review in HoleReview.objects.filter(Exists(own_seat)).select_related("hole")
    ]
    devices = [
        {
            "device": device.device,
            "push_service": urlsplit(device.endpoint).hostname,
            "created_at": _when(device.created_at),
            "last_used_at": _when(device.last_used_at),
        }
        for device in PushSubscription.objects.filter(player=player).order_by("created_at")
    ]
    return {
        "account": account,
        "memberships": memberships,
        "scorecards": scorecards,
        "ratings": ratings,
        "reviews": reviews,
        "devices": devices,
    }


def as_rows(data: dict) -> Iterator[tuple[str, int, str, object]]:
    """`own_data` flattened: (section, record number, field, value) a line."""
    yield from (("account", 1, field, value) for field, value in data["account"].items())
    for section in ("memberships", "scorecards", "ratings", "reviews", "devices"):
        for number, record in enumerate(data[section], start=1):
            for field, value in record.items():
                if field == "holes":
                    for hole in value:
                        yield section, number, f"hole {hole['hole']} strokes", hole["strokes"]
                elif field == "decisions":
                    yield section, number, "decisions", len(value)
                else:
                    yield section, number, field, value

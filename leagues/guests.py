"""Who really played a member's seat: a guest without an account plays it under the
member's card, and every page of a night's results names them ("Walt (guest) for Ann")."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.formats import date_format

from .attendance.models import guest_label
from .models import Substitute


def guests_on(night_ids: Iterable[int]) -> dict[tuple[int, int], str]:
    """The guests who play members' seats on these nights, by (night, member)."""
    rows = Substitute.objects.filter(night_id__in=list(night_ids), player__isnull=True)
    return {
        (night, member): guest
        for night, member, guest in rows.values_list("night_id", "member_id", "guest_name")
    }


def as_played(name: str, guest: str | None) -> str:
    """The name on a member's card or seat as the night's results show it: "Walt (guest)
    for Ann" when a guest played it, else the name as it is."""
    return f"{guest_label(guest)} for {name}" if guest else name


def name_cards(cards: Iterable, night_id: int, guests: dict[tuple[int, int], str]) -> None:
    """Rename, for the page at hand, the cards (of the night `night_id`) a guest played.
    The cards so named are read, never saved."""
    for card in cards:
        if guest := guests.get((night_id, card.player_id)):
            card.name = as_played(card.name, guest)


def guest_seats(season) -> list[str]:
    """Who played a member's seat as a guest this season, night by night, in words:
    the standings count those results by the league's rule, under the member's name."""
    rows = (
        Substitute.objects.filter(night__season=season, player__isnull=True)
        .select_related("member", "night")
        .order_by("night__date", "member__username")
    )
    return [
        f"{as_played(sub.member.name, sub.guest_name)} on {date_format(sub.night.date, 'j M Y')}."
        for sub in rows
    ]

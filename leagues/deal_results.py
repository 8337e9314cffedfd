"""A league's results as one viewer may see them: none of a deal they have yet to play.

On a night of duplicate deals the other tables' strokes on a hole tell a player what
that hole deals them. `games.deal_visibility` says which holes of which tables a user
has yet to play; this applies it to what the league pages and exports show: the
night's scorecards (the holes still to play blank, with no total or place), the
corrections log, a player's matches, and the season's standings. The night's board,
which the whole room reads, leaves out every hole some table has yet to play.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import Min, Q, QuerySet

from games.deal_visibility import Unplayed, unplayed_deals, unplayed_in_room

from .models import NightTable
from .results.selectors import TableView
from .standings.selectors import season_standings

Correction = TypeVar("Correction")
Report = TypeVar("Report")


def table_views(views: Iterable[TableView], user) -> list[TableView]:
    """The night's scorecards (`results.selectors.table_view`) as `user` may see them."""
    unplayed = unplayed_deals(user)
    return [_masked(view, unplayed) for view in views]


class RoomViews(list):
    """A night's scorecards as the whole room may see them, and the deals still to play
    at its tables (`unplayed`) that they leave out."""

    unplayed = Unplayed()


def room_views(views: Iterable[TableView], played: Mapping[int, int] | None = None) -> RoomViews:
    """The night's scorecards (`results.selectors.table_view`) for a screen the whole
    room reads (the night's board): none of a hole that another table dealt the same
    cards has yet to finish, whoever sits where. `played`: the holes paper tables have
    reported so far, by table id."""
    views = list(views)
    unplayed = unplayed_in_room((view.table for view in views), played)
    masked = RoomViews(_masked(view, unplayed) for view in views)
    masked.unplayed = unplayed
    return masked


def _masked(view: TableView, unplayed: Unplayed) -> TableView:
    first = unplayed.first_hidden(view.table)
    if first is None:
        return view
    cards = [
        replace(
            card,
            holes=[s if number < first else None for number, s in enumerate(card.holes, 1)],
            playoff=[None] * len(card.playoff),
            hidden=True,
        )
        for card in view.cards
    ]
    return replace(view, cards=cards, hidden=True)


def corrections(log: Iterable[Correction], user) -> list[Correction]:
    """The corrections `user` may read: none to a hole they have yet to play."""
    unplayed = unplayed_deals(user)
    return [c for c in log if unplayed.may_see_hole(c.scorecard.table, c.hole_number)]


#: Corrections a page of the league's log shows.
CORRECTIONS_PER_PAGE = 25


def corrections_page(log: QuerySet, user, number: object) -> tuple[list[Correction], Page]:
    """Page `number` of the league's corrections log (newest first; a number that is
    not a page gives the first or last), and those of it `user` may read."""
    page = Paginator(log, CORRECTIONS_PER_PAGE).get_page(number)
    return corrections(page.object_list, user), page


def hidden_scorecards(user, path: str = "table__") -> Q:
    """A filter for the scorecards of tables that hide a hole from `user` (`path` leads
    from the model filtered to the table): a player's page and the admin leave those
    matches out until `user` has played the deals."""
    return unplayed_deals(user).hidden_tables(path)


def reports(views: Iterable[Report], user) -> list[Report]:
    """The paper tables' reports (`reporting.selectors.night_reports`) `user` may read:
    none of a table that hides a hole from them."""
    unplayed = unplayed_deals(user)
    return [view for view in views if unplayed.may_see_table(view.report.night_table.table)]


def hides_any(table, user) -> bool:
    """Whether `table` hides a hole from `user` (a page about it as a whole is refused)."""
    return not unplayed_deals(user).may_see_table(table)


class Standings(list):
    """A season's standing rows, and the date they stand before when a night is left out
    (None: they count every result)."""

    before = None


def standings(season, user) -> Standings:
    """The season's standings as `user` may see them: while a night of it deals them
    what another table has played, as they stood before that night."""
    hidden = NightTable.objects.filter(night__season=season).filter(
        unplayed_deals(user).hidden_tables("table__")
    )
    before = hidden.aggregate(first=Min("night__date"))["first"]
    rows = Standings(season_standings(season, before=before))
    rows.before = before
    return rows

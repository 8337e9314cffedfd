"""Which deals a user may see: the one rule for tables that share their deals.

Tables with the same deal seed deal the same cards, hole by hole (a league's night of
duplicate deals). Someone seated at one of them who has yet to finish hole n there
must not see hole n, or any later hole, of another: not its cards (the table, its
frames, its replays and reviews), nor its strokes (scorecards, exports, comparisons).
It holds whatever else they are: host, organiser, staff or superuser.

A table of theirs stops hiding anything once it is finished or abandoned.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.db.models import Q

from .models import Hole, Seat, Table

#: The statuses of a table whose deals are all played (or never will be).
DONE = (Table.Status.FINISHED, Table.Status.ABANDONED)


@dataclass(frozen=True)
class Unplayed:
    """The deals one user is still to play: per deal seed, the tables of theirs that
    share it and the first hole each has yet to finish."""

    by_seed: dict[int, dict[int, int]] = field(default_factory=dict)

    def first_hidden(self, table: Table) -> int | None:
        """The first hole of `table` the user may not see (every later one is hidden
        too), or None when every hole may be seen. Their own table hides nothing."""
        holding = self.by_seed.get(table.deal_seed)
        if not holding:
            return None
        others = [first for table_id, first in holding.items() if table_id != table.pk]
        return min(others) if others else None

    def may_see_table(self, table: Table) -> bool:
        """Whether the user may watch `table` as a whole: live, it deals on to holes they
        have yet to play, so only when it hides no hole at all."""
        return self.first_hidden(table) is None

    def may_see_hole(self, table: Table, number: int) -> bool:
        """Whether the user may see hole `number` of `table`: its cards or its strokes."""
        first = self.first_hidden(table)
        return first is None or number < first

    def hidden_tables(self, path: str = "") -> Q:
        """A filter for the tables that hide at least one hole from the user; `path`
        leads to the table from the model filtered ("table__" from a scorecard)."""
        query = Q(**{f"{path}pk__in": []})
        for seed, holding in self.by_seed.items():
            part = Q(**{f"{path}deal_seed": seed})
            if len(holding) == 1:
                # Their own table hides nothing from them (two of theirs hide each other).
                part &= ~Q(**{f"{path}pk__in": list(holding)})
            query |= part
        return query


def unplayed_deals(user) -> Unplayed:
    """The deals `user` is still to play, read in two small queries."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Unplayed()
    seats = (
        Seat.objects.filter(player_id=user.pk)
        .exclude(table__status__in=DONE)
        .values_list("table_id", "table__deal_seed")
    )
    return _unplayed(dict(seats))


def unplayed_in_room(tables: Iterable[Table], played: Mapping[int, int] | None = None) -> Unplayed:
    """The deals still to play at `tables` (a night's), for a screen the whole room
    reads: each table not done hides, from every other table dealt the same cards, the
    holes from its first unfinished one on. `played`: for paper tables, which keep no
    holes, how many holes their players have reported, by table id. One small query."""
    seeds = {t.pk: t.deal_seed for t in tables if t.status not in DONE}
    return _unplayed(seeds, played or {})


def _unplayed(seeds: dict[int, int], played: Mapping[int, int] | None = None) -> Unplayed:
    """The deals still to play at the tables of `seeds` (deal seed by table id)."""
    if not seeds:
        return Unplayed()
    # The first hole each table has yet to finish: past its finished holes, or the one
    # in play (paper tables keep no holes: past those reported, if told).
    first = {table_id: (played or {}).get(table_id, 0) + 1 for table_id in seeds}
    holes = Hole.objects.filter(table_id__in=list(seeds))
    unfinished: dict[int, int] = {}
    for table_id, number, finished in holes.values_list("table_id", "number", "finished_at"):
        if finished is None:
            unfinished[table_id] = min(number, unfinished.get(table_id, number))
        else:
            first[table_id] = max(first[table_id], number + 1)
    first.update(unfinished)
    by_seed: dict[int, dict[int, int]] = {}
    for table_id, seed in seeds.items():
        by_seed.setdefault(seed, {})[table_id] = first[table_id]
    return Unplayed(by_seed)


def may_see_table(table: Table, user) -> bool:
    """Whether `user` may watch `table` (`Unplayed.may_see_table`)."""
    return unplayed_deals(user).may_see_table(table)

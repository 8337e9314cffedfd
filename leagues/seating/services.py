"""Writes of seating: a night's players seated at live or paper tables (organisers only,
while the season is open), each seated player's handicap frozen for the night."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence

from django.db import transaction

from games import scorecards
from games import services as game_services
from games.models import Table

from ..checkin.services import announce_arrivals
from ..guards import require_open, require_organiser
from ..handicaps.services import freeze
from ..locks import hold_season
from ..models import Absence, LeagueNight, NightTable, Player
from ..reporting.codes import give_code
from ..teams.apart import keep_apart
from ..teams.selectors import teammate_pairs


class SeatingError(ValueError):
    """The night's players cannot be seated as asked; the message says why."""


def table_sizes(players: int, seats_per_table: int) -> list[int]:
    """Split `players` over as few tables of at most `seats_per_table` as evenly as can be."""
    if players <= 0:
        return []
    tables = -(-players // seats_per_table)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def snake_order(players: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    """Deal players (best first) to tables in a snake: 1, 2, 3, 3, 2, 1, 1, 2, ...

    A full table is skipped, so smaller tables still get a fair share of the field.
    """
    tables: list[list[Player]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    queue = list(players)
    forward = True
    while queue:
        for index in order if forward else reversed(order):
            if queue and len(tables[index]) < sizes[index]:
                tables[index].append(queue.pop(0))
        forward = not forward
    return tables


def _create_live_table(
    *,
    host: Player,
    variant: str,
    house_rules: Sequence[str],
    players: Sequence[Player],
    seed: int,
    stand_in_level: str,
):
    """A live table through live play's own service (the only door to a live table)."""
    try:
        return game_services.create_table(
            host=host,
            variant=variant,
            house_rules=house_rules,
            seat_count=len(players),
            players=players,
            is_public=False,
            deal_seed=seed,
            seats_assigned=True,
            # A member who leaves mid-match has their seat played out by the league's bot.
            stand_in_level=stand_in_level,
        )
    except ValueError as error:  # live play's refusals are sentences for the organiser
        raise SeatingError(str(error)) from error


def _guests_on_paper(night: LeagueNight, seated: list[list[Player]], paper: int) -> None:
    """Move the seats that guests play to the paper tables (the last `paper` of `seated`):
    a guest has no account to play live with. Swaps each with someone at a paper table."""
    guests = set(night.substitutes.filter(player__isnull=True).values_list("member_id", flat=True))
    live, on_paper = seated[: len(seated) - paper], seated[len(seated) - paper :]
    for table in live:
        for index, player in enumerate(table):
            if player.pk not in guests:
                continue
            swap = next(
                (
                    (other, i)
                    for other in on_paper
                    for i, p in enumerate(other)
                    if p.pk not in guests
                ),
                None,
            )
            if swap is None:
                raise SeatingError(
                    f"{player.name}'s seat is played by a guest, who has no account to play "
                    "live with: play more tables on paper."
                )
            other, i = swap
            table[index], other[i] = other[i], table[index]


def _teammates_apart(
    night: LeagueNight, seated: list[list[Player]], *, ranked: list[Player] | None, live: int
) -> list[list[Player]]:
    """`seated` with teammates at different tables wherever swaps find a way (a team
    league's): by rating, swaps between players near each other in `ranked`; a guest's
    seat stays at a paper table (the tables after the first `live`)."""
    league = night.season.league
    everyone = {player.pk: player for table in seated for player in table}
    apart = teammate_pairs(league, everyone) if league.is_team_league else set()
    if not apart:
        return seated
    guests = set(night.substitutes.filter(player__isnull=True).values_list("member_id", flat=True))
    tables = keep_apart(
        [[player.pk for player in table] for table in seated],
        apart,
        rank={player.pk: i for i, player in enumerate(ranked)} if ranked else None,
        may_sit=lambda pk, index: pk not in guests or index >= live,
    )
    return [[everyone[pk] for pk in table] for table in tables]


def _byes(night: LeagueNight, players: list[Player], count: int, rng: random.Random):
    """The `count` players to sit out: fewest byes in the season first, at random among equals."""
    if not count:
        return []
    had = Counter(
        Absence.objects.filter(night__season=night.season, kind=Absence.Kind.BYE)
        .exclude(night=night)
        .values_list("player_id", flat=True)
    )
    drawn = sorted(players, key=lambda p: p.pk)
    rng.shuffle(drawn)
    drawn.sort(key=lambda p: had[p.pk])
    return drawn[:count]


@transaction.atomic
def seat_night(
    *,
    night: LeagueNight,
    by: Player,
    method: str = "random",
    seats_per_table: int = 4,
    kind: str = Table.Kind.HAND,
    paper_tables: int = 0,
    byes: bool = False,
    rng: random.Random | None = None,
) -> list[NightTable]:
    """Seat the night's players at tables: at random, or balanced by rating (snake seeding).

    Tables are as even as possible; with `byes` every table is full and the players
    left over sit the night out with a bye (those with the fewest byes this season,
    drawn at random among equals). On a duplicate night every table with the same
    number of seats shares one deal seed, so they play the same deals. With live
    tables, the last `paper_tables` of them are played with a physical deck instead
    (dealt from their deal sheets on a duplicate night); each paper table gets its
    card's short code (`reporting.codes`). Seating again replaces the
    tables, as long as none has results yet. Each seated player's handicap for the
    night is frozen the first time they are seated (`freeze`). In a team league,
    teammates then sit at different tables wherever the tables' sizes allow it
    (`leagues.teams.apart`); the night's page names those who could not be split.
    """
    league = night.season.league
    require_organiser(by, league.club)
    hold_season(night.season)
    require_open(night.season)
    rules = league.rules
    if not rules.min_players <= seats_per_table <= rules.max_players:
        raise SeatingError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players a table."
        )
    players = list(night.players.all())
    rng = rng or random.Random()
    left_over: list[Player] = []
    if byes:
        if len(players) < seats_per_table:
            raise SeatingError(
                f"{len(players)} player{'s' if len(players) != 1 else ''} present cannot fill "
                f"a table of {seats_per_table}."
            )
        left_over = _byes(night, players, len(players) % seats_per_table, rng)
        players = [p for p in players if p not in left_over]
    sizes = table_sizes(len(players), seats_per_table)
    if not sizes or min(sizes) < rules.min_players:
        raise SeatingError(
            f"{len(players)} player{'s' if len(players) != 1 else ''} present cannot fill "
            f"tables of {rules.min_players} "
            f"to {seats_per_table} for {rules.name}."
        )
    if paper_tables < 0 or paper_tables > len(sizes):
        raise SeatingError(
            f"{len(players)} players make {len(sizes)} table{'s' if len(sizes) != 1 else ''}: "
            f"{paper_tables} cannot be played on paper."
        )
    existing = list(night.tables.select_related("table"))
    if any(nt.table.status == Table.Status.FINISHED or nt.table.holes.exists() for nt in existing):
        raise SeatingError("A table of this night has results already: it cannot be reseated.")
    for night_table in existing:
        night_table.table.delete()
    night.absences.filter(kind=Absence.Kind.BYE).delete()
    Absence.objects.bulk_create(
        Absence(night=night, player=player, kind=Absence.Kind.BYE) for player in left_over
    )

    ranked = None
    if method == "balanced":
        ratings = {r.player_id: r.ordinal for r in league.ratings.all()}
        players.sort(key=lambda p: (-ratings.get(p.pk, 0.0), p.name.lower()))
        seated = snake_order(players, sizes)
        ranked = list(players)
    elif method == "random":
        rng.shuffle(players)
        seated, start = [], 0
        for size in sizes:
            seated.append(players[start : start + size])
            start += size
    else:
        raise SeatingError(f"Unknown seating method {method!r}.")

    live = 0
    if kind == Table.Kind.LIVE:
        _guests_on_paper(night, seated, paper_tables)
        live = len(seated) - paper_tables
    # A team league's teammates sit at different tables wherever the tables allow.
    seated = _teammates_apart(night, seated, ranked=ranked, live=live)
    seeds: dict[int, int] = {}
    created = []
    for number, table_players in enumerate(seated, start=1):
        if night.duplicate_deals:
            seed = seeds.setdefault(len(table_players), secrets.randbits(62))
        else:
            seed = secrets.randbits(62)
        if kind == Table.Kind.LIVE and number <= len(seated) - paper_tables:
            table = _create_live_table(
                host=by,
                variant=league.variant,
                house_rules=league.house_rules,
                players=table_players,
                seed=seed,
                stand_in_level=league.stand_in_level,
            )
        else:
            table = scorecards.open_hand_table(
                variant=league.variant,
                house_rules=league.house_rules,
                players=table_players,
                host=by,
                deal_seed=seed,
            )
        night_table = NightTable.objects.create(night=night, table=table, number=number)
        if night_table.is_hand:
            # Its card's code exists before anyone prints the card or types it.
            give_code(night_table=night_table)
        created.append(night_table)
    # Handicaps are the night's from here on, whatever is corrected before it later.
    freeze(night, [player.pk for table_players in seated for player in table_players])
    announce_arrivals(night.pk)  # check-in closes: the night's pages say so
    return created

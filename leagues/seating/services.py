"""Writes of seating: a night's players seated at live or paper tables (organisers only,
while the season is open), each seated player's handicap frozen for the night."""

from __future__ import annotations

import random
import secrets
from collections import Counter

from django.db import transaction

from games.models import Table

from ..guards import require_open, require_organiser
from ..handicaps.services import freeze
from ..locks import hold_season
from ..models import Absence, LeagueNight, NightTable, Player
from ..news import send_arrivals_changed
from ..reporting.codes import give_code
from ..teams.selectors import teammate_pairs
from . import dealing, online
from .tables import open_table


class SeatingError(ValueError):
    """The night's players cannot be seated as asked; the message says why."""


def _byes_had(night: LeagueNight) -> Counter:
    """Each player's byes this season, on the season's other nights."""
    return Counter(
        Absence.objects.filter(night__season=night.season, kind=Absence.Kind.BYE)
        .exclude(night=night)
        .values_list("player_id", flat=True)
    )


@transaction.atomic
def seat_night(
    *,
    night: LeagueNight,
    by: Player,
    method: str = "random",
    seats_per_table: int = 4,
    kind: str = Table.Kind.PAPER,
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
    (`dealing.keep_apart`); the night's page names those who could not be split.

    An online round's tables are all live and turn-based at the round's time per move;
    seated once its opening has come, they tee off at once (`online`).
    """
    league = night.season.league
    require_organiser(by, league.club)
    hold_season(night.season)
    require_open(night.season)
    if night.online:
        if paper_tables:
            raise SeatingError("An online round is played at live tables only: none on paper.")
        if night.played_out_at is not None:
            raise SeatingError("This online round was played out: it cannot be reseated.")
        kind = Table.Kind.LIVE
    rules = league.rules
    if not rules.min_players <= seats_per_table <= rules.max_players:
        raise SeatingError(
            f"{rules.name} is for {rules.min_players} to {rules.max_players} players a table."
        )
    players = list(night.players.all())
    if byes and len(players) < seats_per_table:
        raise SeatingError(
            f"{len(players)} player{'s' if len(players) != 1 else ''} present cannot fill "
            f"a table of {seats_per_table}."
        )
    sizes, left_over = dealing.deal_sizes(
        len(players), seats_per_table, seats_per_table if byes else 1
    )
    playing = len(players) - left_over
    if not sizes or min(sizes) < rules.min_players:
        raise SeatingError(
            f"{playing} player{'s' if playing != 1 else ''} present cannot fill "
            f"tables of {rules.min_players} "
            f"to {seats_per_table} for {rules.name}."
        )
    if paper_tables < 0 or paper_tables > len(sizes):
        raise SeatingError(
            f"{playing} players make {len(sizes)} table{'s' if len(sizes) != 1 else ''}: "
            f"{paper_tables} cannot be played on paper."
        )
    existing = list(night.tables.select_related("table"))
    if any(nt.table.status == Table.Status.FINISHED or nt.table.holes.exists() for nt in existing):
        raise SeatingError("A table of this night has results already: it cannot be reseated.")
    if method not in ("balanced", "random"):
        raise SeatingError(f"Unknown seating method {method!r}.")
    for night_table in existing:
        night_table.table.delete()
    night.absences.filter(kind=Absence.Kind.BYE).delete()

    if method == "balanced":
        ratings = {r.player_id: r.ordinal for r in league.ratings.all()}
        players.sort(key=lambda p: (-ratings.get(p.pk, 0.0), p.name.lower()))
    live = len(sizes) - paper_tables if kind == Table.Kind.LIVE else 0
    # A guest has no account to play live with: their seat goes to a paper table.
    guests = set(night.substitutes.filter(player__isnull=True).values_list("member_id", flat=True))
    everyone = {player.pk: player for player in players}
    try:
        dealt = dealing.deal(
            list(everyone),
            seats_per_table,
            byes_had=_byes_had(night) if byes else None,
            balanced=method == "balanced",
            rng=rng,
            # A team league's teammates sit at different tables wherever the tables allow.
            apart=teammate_pairs(league, everyone) if league.is_team_league else (),
            may_sit=(lambda pk, index: pk not in guests or index >= live)
            if kind == Table.Kind.LIVE
            else None,
        )
    except dealing.NowhereToSit as error:
        name = everyone[error.player].name
        if night.online:
            raise SeatingError(
                f"{name}'s seat is played by a guest, who has no account to play an online "
                "round with."
            ) from None
        raise SeatingError(
            f"{name}'s seat is played by a guest, who has no account "
            "to play live with: play more tables on paper."
        ) from None
    Absence.objects.bulk_create(
        Absence(night=night, player=everyone[pk], kind=Absence.Kind.BYE) for pk in dealt.byes
    )
    seated = [[everyone[pk] for pk in table] for table in dealt.tables]
    seeds: dict[int, int] = {}
    created = []
    for number, table_players in enumerate(seated, start=1):
        if night.duplicate_deals:
            seed = seeds.setdefault(len(table_players), secrets.randbits(62))
        else:
            seed = secrets.randbits(62)
        try:
            table = open_table(
                host=by,
                variant=league.variant,
                house_rules=league.house_rules,
                players=table_players,
                live=number <= live,
                seed=seed,
                # A member who leaves mid-match has their seat played out by the league's bot.
                stand_in_level=league.stand_in_level,
                pace=night.pace,
            )
        except ValueError as error:  # live play's refusals are sentences for the organiser
            raise SeatingError(str(error)) from error
        night_table = NightTable.objects.create(night=night, table=table, number=number)
        if night_table.is_paper:
            # Its card's code exists before anyone prints the card or types it.
            give_code(night_table=night_table)
        created.append(night_table)
    # Handicaps are the night's from here on, whatever is corrected before it later.
    freeze(night, [player.pk for table_players in seated for player in table_players])
    send_arrivals_changed(night.pk)  # check-in closes: the night's pages say so
    if night.online:
        # Its opening has come: it tees off now (its steps were queued with its times).
        online.open_round(night.pk)
    return created

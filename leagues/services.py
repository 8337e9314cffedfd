"""Writes: clubs, leagues, seasons, nights, seating, hand-entered results, corrections, ratings.

Every function is keyword-only and checks that `by` may do what it asks
(`PermissionDenied` otherwise). Scorecards themselves are written through
`games.scorecards` and `games.services`, except that a correction takes playoff
holes it made unnecessary off the cards (`correct_score`).
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, time

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.text import get_text_list

from games import scorecards
from games import services as game_services
from games.models import Scorecard, ScorecardHole, Table, hole_name

from . import selectors
from .guards import require_open, require_organiser
from .handicaps.services import freeze
from .models import (
    Absence,
    FrozenStanding,
    League,
    LeagueNight,
    NightNotice,
    NightTable,
    Player,
    ScoreCorrection,
    Season,
)
from .ratings.services import rebuild_ratings
from .standings.selectors import season_standings


class SeatingError(ValueError):
    """The night's players cannot be seated as asked; the message says why."""


# --- Accounts --------------------------------------------------------------------------


# --- Clubs -----------------------------------------------------------------------------


# --- Leagues, seasons, nights ----------------------------------------------------------


def create_season(*, league: League, name: str, start: date, end: date, by: Player) -> Season:
    """A new season of the league (organisers only)."""
    require_organiser(by, league.club)
    season = Season(league=league, name=name, start=start, end=end)
    season.full_clean()
    season.save()
    return season


def _check_night_date(season: Season, night_date: date) -> None:
    if not season.start <= night_date <= season.end:
        raise ValidationError(
            {"date": f"The season runs from {season.start:%d %b %Y} to {season.end:%d %b %Y}."}
        )


def create_night(
    *,
    season: Season,
    night_date: date,
    duplicate_deals: bool = False,
    start_time: time | None = None,
    venue: str = "",
    by: Player,
) -> LeagueNight:
    """A new night of the season, on a date within it, with its time and place if known
    (organisers only)."""
    require_organiser(by, season.league.club)
    require_open(season)
    _check_night_date(season, night_date)
    night = LeagueNight(
        season=season,
        date=night_date,
        duplicate_deals=duplicate_deals,
        start_time=start_time,
        venue=venue.strip(),
    )
    night.full_clean()
    night.save()
    return night


def schedule_night(
    *, night: LeagueNight, night_date: date, start_time: time | None, venue: str, by: Player
) -> LeagueNight:
    """Move a night to another date, time or place within its season (organisers only).

    A night whose tables have results keeps its date: the standings' order follows it.
    A night moved to another day is reminded of again, the day before its new date.
    """
    season = night.season
    require_organiser(by, season.league.club)
    require_open(season)
    _check_night_date(season, night_date)
    if (
        night_date != night.date
        and night.tables.filter(table__scorecards__holes__isnull=False).exists()
    ):
        raise ValidationError({"date": "This night has results: its date stays as it is."})
    moved = night_date != night.date
    night.date, night.start_time, night.venue = night_date, start_time, venue.strip()
    night.full_clean()
    with transaction.atomic():
        night.save(update_fields=["date", "start_time", "venue"])
        if moved:
            night.notices.filter(kind=NightNotice.Kind.REMINDER).delete()
    return night


# --- Absences and substitutes ---------------------------------------------------------


# --- Public leagues, seasons' close ---------------------------------------------------


def set_league_public(*, league: League, is_public: bool, by: Player) -> League:
    """Open a league's results to anyone without an account, or close them again."""
    require_organiser(by, league.club)
    league.is_public = is_public
    league.save(update_fields=["is_public"])
    return league


@transaction.atomic
def close_season(*, season: Season, by: Player) -> list[FrozenStanding]:
    """Close a season: its standings are frozen as they are and its leaders named champion.

    Refused while a live table of the season waits or is being played, and for a season
    with no results; a paper table without results does not count. After the close
    nothing of the season changes: no new nights, seating, results or corrections.
    """
    season = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
    require_organiser(by, season.league.club)
    require_open(season)
    playing = (
        NightTable.objects.filter(
            night__season=season,
            table__kind=Table.Kind.LIVE,
            table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        )
        .select_related("night")
        .first()
    )
    if playing is not None:
        raise ValidationError(
            f"Table {playing.number} of {playing.night.date:%d %b %Y} is still being played: "
            "close the season once it is over."
        )
    rows = season_standings(season)
    if not rows:
        raise ValidationError("The season has no results yet: there is nothing to close.")
    frozen = FrozenStanding.objects.bulk_create(
        FrozenStanding(
            season=season,
            player=row.player,
            place=row.place,
            matches=row.matches,
            holes=row.holes,
            strokes=row.strokes,
            wins=row.wins,
            points=row.points,
            order=order,
        )
        for order, row in enumerate(rows)
    )
    season.closed_at, season.closed_by = timezone.now(), by
    season.save(update_fields=["closed_at", "closed_by"])
    return frozen


def start_next_season(*, season: Season, name: str, start: date, end: date, by: Player) -> Season:
    """The league's next season, after a closed one.

    A season's settings (its game, points per place) and its members (the club's) are
    the league's, so the new season starts with them as they are.
    """
    require_organiser(by, season.league.club)
    if not season.is_closed:
        raise ValidationError("Close this season before starting the next one.")
    if start <= season.end:
        raise ValidationError(
            {"start": f"The next season starts after {season.end:%d %b %Y}, when this one ends."}
        )
    return create_season(league=season.league, name=name, start=start, end=end, by=by)


# --- Calendars ---------------------------------------------------------------------------


def calendar_token(*, player: Player) -> str:
    """The secret of the player's calendar feeds, made the first time it is asked for."""
    if not player.calendar_token:
        return reset_calendar_token(player=player)
    return player.calendar_token


def reset_calendar_token(*, player: Player) -> str:
    """A new secret for the player's calendar feeds: the old addresses stop working."""
    player.calendar_token = secrets.token_urlsafe(32)
    player.save(update_fields=["calendar_token"])
    return player.calendar_token


# --- Seating ---------------------------------------------------------------------------


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
    (dealt from their deal sheets on a duplicate night). Seating again replaces the
    tables, as long as none has results yet. Each seated player's handicap for the
    night is frozen the first time they are seated (`freeze`).
    """
    league = night.season.league
    require_organiser(by, league.club)
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

    if method == "balanced":
        ratings = {r.player_id: r.ordinal for r in league.ratings.all()}
        players.sort(key=lambda p: (-ratings.get(p.pk, 0.0), p.name.lower()))
        seated = snake_order(players, sizes)
    elif method == "random":
        rng.shuffle(players)
        seated, start = [], 0
        for size in sizes:
            seated.append(players[start : start + size])
            start += size
    else:
        raise SeatingError(f"Unknown seating method {method!r}.")

    if kind == Table.Kind.LIVE:
        _guests_on_paper(night, seated, paper_tables)
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
        created.append(NightTable.objects.create(night=night, table=table, number=number))
    # Handicaps are the night's from here on, whatever is corrected before it later.
    freeze(night, [player.pk for table_players in seated for player in table_players])
    return created


# --- Results and corrections -----------------------------------------------------------


@transaction.atomic
def enter_hand_results(
    *, night_table: NightTable, hole_scores: Sequence[Sequence[object]], by: Player
) -> None:
    """Record a hand-played table's holes (validated by the match rules) and rerate."""
    league = night_table.night.season.league
    require_organiser(by, league.club)
    require_open(night_table.night.season)
    scorecards.record_hand_results(table=night_table.table, hole_scores=hole_scores)
    rebuild_ratings(league=league)


@dataclass(frozen=True)
class Correction:
    """What a correction recorded: the changed hole, and any playoff holes it removed."""

    changed: ScoreCorrection
    removed: list[ScoreCorrection]

    @property
    def removed_holes(self) -> list[str]:
        """The names of the removed playoff holes, in order."""
        return [hole_name(n) for n in sorted({c.hole_number for c in self.removed})]


@transaction.atomic
def correct_score(
    *,
    scorecard: Scorecard,
    number: int,
    strokes: int,
    reason: str,
    by: Player,
    remove_playoffs: bool = False,
) -> Correction:
    """Change one hole of a league scorecard, keeping the old value, who, when and why.

    A correction may decide a finished match before its playoff did (a tie after nine
    holes is no longer one): its playoff holes are then no longer needed. They are
    removed only with `remove_playoffs`, each with its own record in the log; without
    it the correction is refused, saying so. A correction that keeps the playoff
    needed leaves it as it is. Standings follow at once (they are computed); the
    league's ratings are rebuilt.
    """
    night_table = NightTable.objects.select_related("night__season__league__club").get(
        table=scorecard.table
    )
    league = night_table.night.season.league
    require_organiser(by, league.club)
    require_open(night_table.night.season)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": "Say why the score changes."})
    table = Table.objects.select_for_update().get(pk=scorecard.table_id)
    after = selectors.corrected_match(scorecard, number, strokes)
    removed = []
    if after.unneeded:
        # Anything else wrong with the corrected match is named first.
        scorecards.check_hand_scores(table.rules, after.scores, after.names)
        holes = [hole_name(n) for n in after.unneeded]
        if not remove_playoffs:
            decided = hole_name(after.decided_after).lower()
            one = len(holes) == 1
            raise ValidationError(
                {
                    "remove_playoffs": (
                        f"With this correction the match is decided after {decided}, so "
                        f"{get_text_list(holes, 'and')} {'is' if one else 'are'} no longer "
                        f"needed: tick the box to remove {'it' if one else 'them'}."
                    )
                }
            )
        why = (
            f"No longer needed once {scorecard.name}'s "
            f"{hole_name(number).lower()} was corrected: {reason}"
        )
        unneeded = ScorecardHole.objects.filter(
            scorecard__table=table, number__in=after.unneeded
        ).order_by("number", "scorecard__position")
        removed = [
            ScoreCorrection(
                scorecard_id=hole.scorecard_id,
                hole_number=hole.number,
                old_strokes=hole.strokes,
                new_strokes=None,
                reason=why,
                corrected_by=by,
            )
            for hole in unneeded
        ]
        # games has no door for taking holes off a card; correct_scorecard below
        # recomputes the totals and places and checks the match that is left.
        unneeded.delete()
    old = game_services.correct_scorecard(scorecard=scorecard, number=number, strokes=strokes)
    # Saved in this order so that the log, newest first, shows the change above the
    # playoff holes it removed.
    for record in removed:
        record.save()
    changed = ScoreCorrection.objects.create(
        scorecard=scorecard,
        hole_number=number,
        old_strokes=old,
        new_strokes=strokes,
        reason=reason,
        corrected_by=by,
    )
    rebuild_ratings(league=league)
    return Correction(changed=changed, removed=removed)


# --- Ratings ---------------------------------------------------------------------------

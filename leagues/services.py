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

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import get_text_list
from openskill.models import PlackettLuce

from games import scorecards
from games import services as game_services
from games.models import Scorecard, ScorecardHole, Table, hole_name
from games.text import validate_shown

from . import bounds, handicaps, locks, selectors
from .models import (
    Absence,
    Club,
    FrozenStanding,
    League,
    LeagueNight,
    Membership,
    NightNotice,
    NightTable,
    Player,
    Rating,
    RatingChange,
    ScoreCorrection,
    Season,
    Substitute,
)

#: The league's settings for nights missed and seats played by someone else.
LEAGUE_RULES = (
    "absence_points",
    "absence_fixed_points",
    "absence_needs_notice",
    "bye_points",
    "bye_fixed_points",
    "substitute_counts",
    "stand_in_counts",
    "stand_in_level",
)


class SeatingError(ValueError):
    """The night's players cannot be seated as asked; the message says why."""


def _require_organiser(by: Player, club: Club) -> None:
    if not selectors.is_organiser(by, club):
        raise PermissionDenied("Only the club's organisers may do that.")


def _require_open(season: Season) -> None:
    if season.is_closed:
        raise ValidationError(
            f"{season.name} is closed: its standings are frozen and its nights stay as they were."
        )


# --- Accounts --------------------------------------------------------------------------


def update_account(
    *,
    player: Player,
    display_name: str,
    email: str,
    email_reminders: bool | None = None,
    email_results: bool | None = None,
) -> Player:
    """Change the name a player shows at tables, the address their mail goes to, and
    whether they get reminders and results by mail (None leaves a choice as it is).

    Cards already written keep the name they were written with. An email address
    another account has (in any case) is refused.
    """
    email = Player.objects.normalize_email(email.strip())
    if selectors.email_in_use(email, other_than=player):
        raise ValidationError({"email": selectors.EMAIL_TAKEN})
    player.display_name = display_name.strip()
    player.email = email
    if email_reminders is not None:
        player.email_reminders = email_reminders
    if email_results is not None:
        player.email_results = email_results
    player.full_clean()
    player.save(update_fields=["display_name", "email", "email_reminders", "email_results"])
    return player


# --- Clubs -----------------------------------------------------------------------------


@transaction.atomic
def create_club(*, name: str, slug: str, organiser: Player) -> Club:
    """A new club with its first organiser."""
    club = Club.objects.create(name=name, slug=slug)
    add_member(club=club, player=organiser, role=Membership.Role.ORGANISER)
    return club


def add_member(
    *, club: Club, player: Player, role: str = Membership.Role.PLAYER, by: Player | None = None
) -> Membership:
    """Add `player` to `club` (or change their role).

    An organiser is made staff, so the admin opens for them (scoped to their clubs).
    """
    if by is not None:
        _require_organiser(by, club)
    membership, _ = Membership.objects.update_or_create(
        club=club, player=player, defaults={"role": role}
    )
    if role == Membership.Role.ORGANISER and not player.is_staff:
        player.is_staff = True
        player.save(update_fields=["is_staff"])
    return membership


# --- Leagues, seasons, nights ----------------------------------------------------------


def create_league(
    *,
    club: Club,
    name: str,
    variant: str,
    points_per_place: str = "6,4,2,0",
    night_points: str = League.NightPoints.PLACE,
    points_from: str = League.Strokes.GROSS,
    house_rules: Sequence[str] = (),
    by: Player,
    **rules: object,
) -> League:
    """A new league of the club (organisers only), whose nights' tables all play
    `house_rules` (keys of its game's house rules).

    `rules` are the league's other settings by field name: what absences and byes earn,
    whom a substitute's result counts for, which bot finishes a member's seat and
    whether that result counts.
    """
    _require_organiser(by, club)
    unknown = set(rules) - set(LEAGUE_RULES)
    if unknown:
        raise ValidationError(f"A league has no setting {sorted(unknown)[0]!r}.")
    league = League(
        club=club,
        name=name,
        variant=variant,
        points_per_place=points_per_place,
        night_points=night_points,
        points_from=points_from,
        house_rules=list(house_rules),
        **rules,
    )
    league.full_clean()
    league.save()
    return league


def create_season(*, league: League, name: str, start: date, end: date, by: Player) -> Season:
    """A new season of the league (organisers only)."""
    _require_organiser(by, league.club)
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
    _require_organiser(by, season.league.club)
    _require_open(season)
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
    _require_organiser(by, season.league.club)
    _require_open(season)
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


def set_night_players(*, night: LeagueNight, players: Sequence[Player], by: Player) -> None:
    """Record who is present; only the club's members can be."""
    club = night.season.league.club
    _require_organiser(by, club)
    _require_open(night.season)
    members = set(selectors.club_members(club).values_list("pk", flat=True))
    strangers = [p for p in players if p.pk not in members]
    if strangers:
        raise ValidationError(f"{strangers[0].name} is not a member of {club.name}.")
    with transaction.atomic():
        night.players.set(players)
        # Someone present is no longer away.
        night.absences.filter(player__in=players).exclude(kind=Absence.Kind.BYE).delete()


# --- Absences and substitutes ---------------------------------------------------------


def _require_member(player: Player, club: Club) -> None:
    if not Membership.objects.filter(club=club, player=player).exists():
        raise ValidationError(f"{player.name} is not a member of {club.name}.")


def _require_unseated(night: LeagueNight, player: Player) -> None:
    seated = night.tables.filter(table__seats__player=player).first()
    if seated is not None:
        raise ValidationError(
            f"{player.name} is seated at table {seated.number}: seat the night again first."
        )


@transaction.atomic
def mark_absent(*, night: LeagueNight, player: Player, notice: bool, by: Player) -> Absence:
    """Record a member as away for the night, with or without notice (not seated)."""
    club = night.season.league.club
    _require_organiser(by, club)
    locks.hold_season(night.season)
    _require_open(night.season)
    _require_member(player, club)
    _require_unseated(night, player)
    if night.substitutes.filter(player=player).exists():
        raise ValidationError(f"{player.name} is a substitute tonight: remove that first.")
    if night.substitutes.filter(member=player).exists():
        raise ValidationError(f"{player.name} has a substitute tonight: remove that first.")
    night.players.remove(player)
    kind = Absence.Kind.NOTICE if notice else Absence.Kind.NO_NOTICE
    absence, _ = Absence.objects.update_or_create(
        night=night, player=player, defaults={"kind": kind}
    )
    return absence


@transaction.atomic
def clear_absence(*, night: LeagueNight, player: Player, by: Player) -> None:
    """Take back an absence or a substitute for `player`; nobody is marked present."""
    _require_organiser(by, night.season.league.club)
    _require_open(night.season)
    night.absences.filter(player=player).delete()
    night.substitutes.filter(member=player).delete()


@transaction.atomic
def set_substitute(
    *,
    night: LeagueNight,
    member: Player,
    by: Player,
    player: Player | None = None,
    guest_name: str = "",
) -> Substitute:
    """Name who plays for an absent member tonight: another member, or a guest by name.

    A member substitute is marked present in their own name. A guest has no account, so
    the absent member's own seat is kept for them (at a paper table) and the card is
    the member's; the league's rule then says whom the result counts for.
    """
    club = night.season.league.club
    _require_organiser(by, club)
    locks.hold_season(night.season)
    _require_open(night.season)
    _require_member(member, club)
    guest_name = " ".join(guest_name.split())
    if (player is None) == (not guest_name):
        raise ValidationError("Name one substitute: a member, or a guest who has no account.")
    if len(guest_name) > 40:
        raise ValidationError("A guest's name is at most 40 characters.")
    validate_shown(guest_name)
    if night.substitutes.filter(member=member).exists():
        raise ValidationError(f"{member.name} has a substitute tonight already.")
    if player is not None:
        _require_member(player, club)
        if player.pk == member.pk:
            raise ValidationError("A member cannot stand in for themselves.")
        if night.substitutes.filter(Q(player=player) | Q(member=player)).exists():
            raise ValidationError(f"{player.name} already plays for someone tonight.")
        if night.absences.filter(player=player).exists():
            raise ValidationError(f"{player.name} is marked away tonight.")
        _require_unseated(night, member)
        night.players.remove(member)
        night.players.add(player)
    else:
        # The member's seat is the guest's, so it stays in the member's name.
        night.players.add(member)
    # The substitute's result, by the league's rule, takes the place of an absence.
    night.absences.filter(player=member).delete()
    return Substitute.objects.create(
        night=night, member=member, player=player, guest_name=guest_name
    )


# --- Public leagues, seasons' close ---------------------------------------------------


def set_league_public(*, league: League, is_public: bool, by: Player) -> League:
    """Open a league's results to anyone without an account, or close them again."""
    _require_organiser(by, league.club)
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
    _require_organiser(by, season.league.club)
    _require_open(season)
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
    rows = selectors.season_standings(season)
    if not rows:
        raise ValidationError("The season has no results yet: there is nothing to close.")
    bounds.check_season_points(rows)
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
    _require_organiser(by, season.league.club)
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
    night is frozen the first time they are seated (`handicaps.freeze`).
    """
    league = night.season.league
    _require_organiser(by, league.club)
    locks.hold_season(night.season)
    _require_open(night.season)
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
    handicaps.freeze(night, [player.pk for table_players in seated for player in table_players])
    return created


# --- Results and corrections -----------------------------------------------------------


@transaction.atomic
def enter_hand_results(
    *, night_table: NightTable, hole_scores: Sequence[Sequence[object]], by: Player
) -> None:
    """Record a hand-played table's holes (validated by the match rules) and rerate."""
    league = night_table.night.season.league
    _require_organiser(by, league.club)
    _require_open(night_table.night.season)
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
    _require_organiser(by, league.club)
    _require_open(night_table.night.season)
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


def compact_ranks(values: Sequence[int]) -> list[int]:
    """openskill ranks from places (or totals): lower is better, equal values share a rank."""
    return [1 + sum(other < value for other in values) for value in values]


@transaction.atomic
def rebuild_ratings(*, league: League) -> int:
    """Rate every finished match of the league again from scratch, oldest first.

    PlackettLuce, one team per person (bots are left out), ranked by the places on
    the scorecards, so a playoff decides between players level after nine holes.
    Stores each player's rating after every match and the current rating. Returns
    how many matches were rated (a match needs two people with a place).
    """
    model = PlackettLuce()
    current: dict[int, object] = {}
    counts: dict[int, int] = {}
    changes: list[RatingChange] = []
    rated = 0
    rules = league.rules
    for night_table in selectors.counted_tables(league=league):
        # Only matches on the league's rules count: a table played before its game or
        # house rules changed measures something else.
        if night_table.table.rules != rules:
            continue
        cards = selectors.ranked_cards(night_table)
        # A finished match has a place on every card; one without was never decided.
        if len(cards) < 2 or any(card.place is None for card in cards):
            continue
        rated += 1
        before = [current.get(card.player_id) or model.rating() for card in cards]
        after = model.rate(
            [[rating] for rating in before],
            ranks=compact_ranks([card.place for card in cards]),
        )
        for card, old, (new,) in zip(cards, before, after, strict=True):
            current[card.player_id] = new
            counts[card.player_id] = counts.get(card.player_id, 0) + 1
            changes.append(
                RatingChange(
                    league=league,
                    player_id=card.player_id,
                    night_table=night_table,
                    sequence=rated,
                    mu_before=old.mu,
                    sigma_before=old.sigma,
                    mu=new.mu,
                    sigma=new.sigma,
                )
            )
    RatingChange.objects.filter(league=league).delete()
    Rating.objects.filter(league=league).delete()
    RatingChange.objects.bulk_create(changes)
    Rating.objects.bulk_create(
        Rating(league=league, player_id=pk, mu=r.mu, sigma=r.sigma, matches=counts[pk])
        for pk, r in current.items()
    )
    return rated

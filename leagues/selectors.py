"""Reads: who may see what, standings, played matches, ratings and a player's record.

Standings are computed from finished tables' scorecards every time: nothing here is
stored, so a correction shows at once.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from django.db.models import Count, F, Prefetch, Q, QuerySet

from games import selectors as games_selectors
from games.engine import scoring_pairs
from games.engine.match import HOLES, match_status
from games.models import Hole, HoleReview, Scorecard, ScorecardHole, Seat, Table, hole_name
from games.scorecards import Grid

from . import duplicate, handicaps
from .models import (
    Absence,
    Club,
    FrozenStanding,
    League,
    LeagueNight,
    Membership,
    NightTable,
    Player,
    Rating,
    RatingChange,
    ScoreCorrection,
    Season,
    Substitute,
)

TIE_BREAK_RULE = (
    "Ordered by league points, then match wins, then fewer strokes per hole, then name. "
    "Players level on points, wins and strokes per hole share a place."
)

#: What a paper table says until its results are entered: it is not played on the site.
AWAITING_RESULTS = "Results to enter"

# --- Accounts ---------------------------------------------------------------------------

EMAIL_TAKEN = "Another account uses that email address. Give an address of your own."


def email_in_use(email: str, *, other_than: Player | None = None) -> bool:
    """Whether an account other than `other_than` has `email`, in any case: an address
    is one player's, so that a password reset or a league's mail reaches one account."""
    if not email:
        return False
    taken = Player.objects.filter(email__iexact=email)
    if other_than is not None and other_than.pk is not None:
        taken = taken.exclude(pk=other_than.pk)
    return taken.exists()


# --- Clubs and roles --------------------------------------------------------------------


def role_in(player: Player, club: Club) -> str | None:
    """The player's role in `club` ("player" or "organiser"), or None for a non-member.

    A superuser counts as an organiser of every club.
    """
    if not player.is_authenticated:
        return None
    if player.is_superuser:
        return Membership.Role.ORGANISER
    return (
        Membership.objects.filter(club=club, player=player).values_list("role", flat=True).first()
    )


def is_organiser(player: Player, club: Club) -> bool:
    """Whether the player may change the club's leagues."""
    return role_in(player, club) == Membership.Role.ORGANISER


def clubs_of(player: Player) -> QuerySet[Club]:
    """The clubs a player belongs to (every club for a superuser)."""
    if player.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(memberships__player=player).distinct()


def organised_clubs(player: Player) -> QuerySet[Club]:
    """The clubs a player organises (every club for a superuser)."""
    if player.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__player=player, memberships__role=Membership.Role.ORGANISER
    ).distinct()


def in_league(player: Player, league: League) -> bool:
    """Whether the player belongs to the league: a member of its club, or on its scorecards."""
    return (
        Membership.objects.filter(club_id=league.club_id, player=player).exists()
        or Scorecard.objects.filter(
            player=player, table__night_table__night__season__league=league
        ).exists()
    )


def may_see_player(viewer: Player, person: Player, league: League) -> bool:
    """Whether `viewer` may open `person`'s page in `league`.

    Superusers may; anyone else must belong to the league, and then sees their own
    page and those of the people who belong to it too, no one else's.
    """
    if not viewer.is_authenticated:
        return False
    if viewer.is_superuser:
        return True
    if not in_league(viewer, league):
        return False
    return viewer.pk == person.pk or in_league(person, league)


def club_members(club: Club) -> QuerySet[Player]:
    """The club's members, by name."""
    return Player.objects.filter(memberships__club=club).order_by("display_name", "username")


# --- Matches ---------------------------------------------------------------------------


def counted_tables(*, league: League | None = None, season: Season | None = None):
    """Finished night tables of a league or season, oldest first (the rating order)."""
    tables = NightTable.objects.filter(table__status=Table.Status.FINISHED)
    if season is not None:
        tables = tables.filter(night__season=season)
    if league is not None:
        tables = tables.filter(night__season__league=league)
    return tables.select_related("table", "night", "night__season").order_by(
        "night__date", "night__pk", "number"
    )


def ranked_cards(night_table: NightTable) -> list[Scorecard]:
    """The cards of people (bots are not ranked) at a finished night table."""
    return [
        card
        for card in night_table.table.scorecards.order_by("position")
        if card.player_id is not None
    ]


def night_tables(night: LeagueNight) -> list[NightTable]:
    """A night's tables with their seats, cards and holes, ready for the scorecards."""
    cards = Scorecard.objects.order_by("position").prefetch_related(
        Prefetch("holes", queryset=ScorecardHole.objects.order_by("number"))
    )
    return list(
        night.tables.select_related("table")
        .prefetch_related("table__seats__player", Prefetch("table__scorecards", queryset=cards))
        .order_by("number")
    )


def unfinished_table_of(player: Player, night: LeagueNight) -> NightTable | None:
    """The table of `night` at which `player` sits, if it is still being played."""
    if not player.is_authenticated:
        return None
    return (
        night.tables.filter(table__seats__player=player)
        .exclude(table__status__in=[Table.Status.FINISHED, Table.Status.ABANDONED])
        .select_related("table")
        .first()
    )


@dataclass
class CardView:
    """One scorecard as the pages print it: the nine holes, playoff holes, total, place."""

    card: Scorecard
    holes: list[int | None]
    playoff: list[int | None]
    #: Some holes are blank, and the total and place left out: a deal the viewer has yet
    #: to play (`deal_results`).
    hidden: bool = False


@dataclass
class TableView:
    night_table: NightTable
    cards: list[CardView]
    playoff_numbers: list[int]
    #: The table deals what the viewer has yet to play (`deal_results`).
    hidden: bool = False

    @property
    def table(self) -> Table:
        return self.night_table.table

    @property
    def playoff_names(self) -> list[str]:
        return [hole_name(number) for number in self.playoff_numbers]

    @property
    def awaiting_results(self) -> bool:
        """A paper table not played on the site, its results still to be entered."""
        return self.table.kind == Table.Kind.HAND and self.table.status != Table.Status.FINISHED

    @property
    def status_label(self) -> str:
        """The table's status in words, as the night's page shows it."""
        return AWAITING_RESULTS if self.awaiting_results else self.table.get_status_display()

    @property
    def status_code(self) -> str:
        """The status as the scorecards CSV gives it: the stored value, except that a
        paper table still to be entered says so in the night page's words."""
        return AWAITING_RESULTS.lower() if self.awaiting_results else self.table.status


def table_view(night_table: NightTable) -> TableView:
    """The printable grid of one table: a row per card, a column per hole."""
    grid = Grid.of(list(night_table.table.scorecards.all()))
    views = [
        CardView(card=row.card, holes=row.strokes[:HOLES], playoff=row.strokes[HOLES:])
        for row in grid.rows
    ]
    playoff_numbers = [n for n in grid.numbers if n > HOLES]
    return TableView(night_table=night_table, cards=views, playoff_numbers=playoff_numbers)


# --- Standings -------------------------------------------------------------------------


@dataclass
class StandingRow:
    """One player's line in a season's standings."""

    player: Player
    matches: int = 0
    holes: int = 0
    strokes: int = 0
    wins: int = 0
    points: int = 0
    place: int = 0
    movement: int | None = None
    is_new: bool = False
    net_strokes: Fraction = Fraction(0)
    #: Whether ties on points go by net strokes per hole (a league playing net).
    by_net: bool = False
    #: Nights away, byes, and the points they earned (included in `points`).
    absences: int = 0
    byes: int = 0
    missed_points: int = 0

    @property
    def mean(self) -> Fraction | None:
        """Strokes per hole, exact (shown rounded)."""
        return Fraction(self.strokes, self.holes) if self.holes else None

    @property
    def mean_display(self) -> str:
        return f"{float(self.mean):.2f}" if self.mean is not None else "–"

    @property
    def net_mean(self) -> Fraction | None:
        """Net strokes per hole, exact."""
        return self.net_strokes / self.holes if self.holes else None

    @property
    def net_display(self) -> str:
        return f"{float(self.net_strokes):.1f}"

    @property
    def net_mean_display(self) -> str:
        return f"{float(self.net_mean):.2f}" if self.net_mean is not None else "–"

    def sort_key(self) -> tuple:
        mean = self.net_mean if self.by_net else self.mean
        mean = mean if mean is not None else Fraction(10**6)
        return (-self.points, -self.wins, mean, self.player.name.lower(), self.player.pk)

    def level_key(self) -> tuple:
        return self.sort_key()[:3]


def _season_cards(season: Season, before: date | None = None) -> QuerySet[Scorecard]:
    cards = Scorecard.objects.filter(
        table__night_table__night__season=season,
        table__status=Table.Status.FINISHED,
        player__isnull=False,
    )
    if before is not None:
        cards = cards.filter(table__night_table__night__date__lt=before)
    return cards.select_related("player").annotate(
        regulation_holes=Count("holes", filter=Q(holes__number__lte=HOLES)),
        night_id=F("table__night_table__night_id"),
    )


def points_rule(league: League) -> str:
    """How the league's nights earn points, in a few sentences for the standings."""
    per_place = f"Points per place: {league.points_per_place}."
    if league.night_points != League.NightPoints.MATCHPOINTS:
        rule = f"{per_place} A night earns points by place at the table."
    else:
        rule = (
            f"{per_place} A night of duplicate deals earns points by matchpoint percentage, "
            f"ranked across the night (bots are compared but not ranked); other nights, and "
            f"a table with no other of its size, by place at the table. "
            f"{duplicate.MATCHPOINT_RULE}"
        )
    if league.by_net:
        rule += (
            " Places, wins and matchpoints go by net strokes (players level on net share "
            "a place at the table), and ties on points by net strokes per hole. "
            f"{handicaps.HANDICAP_RULE}"
        )
    return rule


def _earns(how: str, fixed: int) -> str:
    if how == League.Missed.FIXED:
        return f"{fixed} point{'s' if fixed != 1 else ''}"
    if how == League.Missed.AVERAGE:
        return "the player's average points per night played this season (rounded, halves up)"
    return "nothing"


def absence_rule(league: League) -> str:
    """What absences, substitutes, byes and a seat the bot finished earn, in words."""
    away = _earns(league.absence_points, league.absence_fixed_points)
    if league.absence_needs_notice and league.absence_points != League.Missed.NOTHING:
        away = f"An absence with notice earns {away}; one without notice, nothing."
    else:
        away = f"An absence earns {away}."
    bye = (
        "A bye (present, but left over when only full tables are seated) earns "
        f"{_earns(league.bye_points, league.bye_fixed_points)}."
    )
    substitute = {
        League.SubstituteCounts.MEMBER: "A substitute's result counts for the member who was away.",
        League.SubstituteCounts.SUBSTITUTE: "A substitute's result counts for the "
        "substitute (a guest's for nobody); the member who was away earns nothing.",
        League.SubstituteCounts.TABLE: "A substitute's result counts only for the table: "
        "its places stand, the standings leave it out.",
    }[league.substitute_counts]
    bot = f"the {league.stand_in_level} bot"
    stand_in = "A member who leaves a live table mid-match has their seat played out by " + (
        f"{bot}, and the result counts for them."
        if league.stand_in_counts
        else f"{bot}; that result earns them nothing."
    )
    return f"{away} {bye} {substitute} {stand_in}"


def _ranks(values: Sequence[Fraction]) -> list[int]:
    """Places for values where lower is better, equal values sharing a place."""
    return [1 + sum(other < value for other in values) for value in values]


class Scoring:
    """How the league scores cards (annotated `night_id`): handicaps, net strokes,
    places and points, by place or by matchpoints, gross or net."""

    def __init__(self, league: League, cards: Iterable[Scorecard], nights: Iterable[LeagueNight]):
        self.league = league
        cards = list(cards)
        # Net strokes are shown beside gross ones whichever earns the points.
        self.handicaps = handicaps.by_night(league)
        by_matchpoints = [n for n in nights if duplicate.counts_by_matchpoints(league, n)]
        self.matchpoints = duplicate.night_points(
            by_matchpoints, league, self.handicaps if league.by_net else None
        )
        self.net_places: dict[int, int] = {}
        if league.by_net:
            night_of = {card.table_id: card.night_id for card in cards}
            everyone = defaultdict(list)
            for pk, table_id, player_id, total in Scorecard.objects.filter(
                table_id__in=night_of
            ).values_list("pk", "table_id", "player_id", "total"):
                h = self.handicaps.get(night_of[table_id], {}).get(player_id, Fraction(0))
                everyone[table_id].append((pk, total - HOLES * h))
            for table_cards in everyone.values():
                places = _ranks([net for _pk, net in table_cards])
                for (pk, _net), place in zip(table_cards, places, strict=True):
                    self.net_places[pk] = place

    def handicap(self, card: Scorecard) -> Fraction:
        return self.handicaps.get(card.night_id, {}).get(card.player_id, Fraction(0))

    def net_total(self, card: Scorecard) -> Fraction:
        """The card's strokes over the nine holes less nine times its handicap."""
        return card.total - HOLES * self.handicap(card)

    def place(self, card: Scorecard) -> int | None:
        """The card's place at its table: net places share a tie, gross ones are played off."""
        return self.net_places.get(card.pk) if self.league.by_net else card.place

    def points(self, card: Scorecard) -> int:
        """Points by matchpoints where the card was compared, else by place at the table."""
        if (card.night_id, card.player_id) in self.matchpoints:
            return self.matchpoints[card.night_id, card.player_id]
        return self.league.points_for(self.place(card))


def credited_to(league: League, cards: Iterable[Scorecard]) -> dict[int, int | None]:
    """Whom each card's result (annotated `night_id`) counts for in the standings.

    Its player, unless a substitute played it (the league's rule: the member who was
    away, the substitute, or nobody; a guest is not in the standings), or its player
    left the match for the bot to finish and the league does not count that (nobody).
    """
    cards = list(cards)
    nights = {card.night_id for card in cards}
    members, guests = {}, set()
    for sub in Substitute.objects.filter(night_id__in=nights):
        if sub.player_id:
            members[sub.night_id, sub.player_id] = sub.member_id
        else:
            guests.add((sub.night_id, sub.member_id))
    left = set()
    if not league.stand_in_counts:
        left = set(
            Seat.objects.filter(
                table_id__in={card.table_id for card in cards}, player__isnull=False
            )
            .exclude(bot_level="")
            .values_list("table_id", "player_id")
        )
    rule = league.substitute_counts
    credit: dict[int, int | None] = {}
    for card in cards:
        key = (card.night_id, card.player_id)
        owner: int | None = card.player_id
        if key in members:
            owner = {
                League.SubstituteCounts.MEMBER: members[key],
                League.SubstituteCounts.SUBSTITUTE: card.player_id,
            }.get(rule)
        elif key in guests and rule != League.SubstituteCounts.MEMBER:
            owner = None
        if (card.table_id, card.player_id) in left:
            owner = None
        credit[card.pk] = owner
    return credit


def _missed(how: str, fixed: int, average: Fraction) -> int:
    """What a night missed earns: nothing, a fixed number, or the average (halves up)."""
    if how == League.Missed.FIXED:
        return fixed
    if how == League.Missed.AVERAGE:
        return math.floor(average + Fraction(1, 2))
    return 0


def _standings(season: Season, before: date | None = None) -> list[StandingRow]:
    league = season.league
    rows: dict[int, StandingRow] = {}
    cards = list(_season_cards(season, before))
    nights = LeagueNight.objects.filter(pk__in={card.night_id for card in cards})
    scoring = Scoring(league, cards, nights)
    credit = credited_to(league, cards)
    absences = list(
        Absence.objects.filter(night__in=nights).exclude(night__substitutes__member=F("player"))
    )
    people = Player.objects.in_bulk(
        set(credit.values()) | {absence.player_id for absence in absences} - {None}
    )

    def row_of(player_id: int) -> StandingRow:
        if player_id not in rows:
            rows[player_id] = StandingRow(player=people[player_id], by_net=league.by_net)
        return rows[player_id]

    played: dict[int, set[int]] = defaultdict(set)
    for card in cards:
        owner = credit[card.pk]
        if owner is None:
            continue
        row = row_of(owner)
        row.matches += 1
        row.holes += card.regulation_holes
        row.strokes += card.total
        row.net_strokes += scoring.net_total(card)
        row.wins += scoring.place(card) == 1
        row.points += scoring.points(card)
        played[owner].add(card.night_id)
    # Nights missed earn what the league says, the average from the nights played.
    averages = {
        pk: Fraction(row.points, len(played[pk])) if played[pk] else Fraction(0)
        for pk, row in rows.items()
    }
    for absence in absences:
        row = row_of(absence.player_id)
        average = averages.get(absence.player_id, Fraction(0))
        if absence.kind == Absence.Kind.BYE:
            earned = _missed(league.bye_points, league.bye_fixed_points, average)
            row.byes += 1
        else:
            row.absences += 1
            earned = 0
            if absence.kind == Absence.Kind.NOTICE or not league.absence_needs_notice:
                earned = _missed(league.absence_points, league.absence_fixed_points, average)
        row.missed_points += earned
        row.points += earned
    ordered = sorted(rows.values(), key=StandingRow.sort_key)
    for index, row in enumerate(ordered):
        if index and row.level_key() == ordered[index - 1].level_key():
            row.place = ordered[index - 1].place
        else:
            row.place = index + 1
    return ordered


def season_standings(season: Season, before: date | None = None) -> list[StandingRow]:
    """The season's standings, with each player's movement since the previous night
    (`before` a date: as they stood before it, without movement).

    Only finished tables count, and only people (bots are not ranked). See
    `TIE_BREAK_RULE` for the order. `movement` is how many places a player rose
    (negative: fell) since the standings before the latest night with results;
    `is_new` marks a player who had no result before it.
    """
    if season.is_closed:
        return _frozen_standings(season)
    if before is not None:
        return _standings(season, before)
    rows = _standings(season)
    dates = sorted(
        set(
            NightTable.objects.filter(
                night__season=season, table__status=Table.Status.FINISHED
            ).values_list("night__date", flat=True)
        )
    )
    if len(dates) < 2:
        return rows
    before = {row.player.pk: row.place for row in _standings(season, before=dates[-1])}
    for row in rows:
        if row.player.pk in before:
            row.movement = before[row.player.pk] - row.place
        else:
            row.is_new = True
    return rows


def _frozen_standings(season: Season) -> list[StandingRow]:
    return [
        StandingRow(
            player=line.player,
            matches=line.matches,
            holes=line.holes,
            strokes=line.strokes,
            wins=line.wins,
            points=line.points,
            place=line.place,
        )
        for line in FrozenStanding.objects.filter(season=season).select_related("player")
    ]


def champions(season: Season) -> list[Player]:
    """Whoever stood first in a closed season's standings (several when level)."""
    return [
        line.player
        for line in FrozenStanding.objects.filter(season=season, place=1).select_related("player")
    ]


# --- Calendars, public leagues, corrections -------------------------------------------


def league_nights(league: League) -> QuerySet[LeagueNight]:
    """Every night of the league, in date order, with its season."""
    return (
        LeagueNight.objects.filter(season__league=league)
        .select_related("season")
        .order_by("date", "start_time", "pk")
    )


def public_league(league_id: int) -> League | None:
    """The league if it is public, else None (for pages read without an account)."""
    return League.objects.filter(pk=league_id, is_public=True).select_related("club").first()


@dataclass
class DealComparison:
    """What a night's deal comparison page shows a visitor."""

    #: The visitor's own table of the night while it is still being played: the
    #: comparison would tell them about deals they are still to play.
    waiting: NightTable | None
    #: On the public page, whether a table of the night is still being played: anyone
    #: may read that page, someone seated at such a table too, so it waits for all.
    in_play: bool
    comparison: duplicate.Comparison | None
    #: Tables whose replays the visitor may open (a league table's are private).
    replayable: set[int]


def deal_comparison(night: LeagueNight, viewer: Player, *, public: bool = False) -> DealComparison:
    """A duplicate night's comparison as `viewer` may read it: on the members' page or,
    with `public`, on a public league's (no replays there: a league table's are private)."""
    league = night.season.league
    waiting = unfinished_table_of(viewer, night)
    in_play = (
        public
        and night.tables.exclude(
            table__status__in=[Table.Status.FINISHED, Table.Status.ABANDONED]
        ).exists()
    )
    comparison = None
    if waiting is None and not in_play:
        night_handicaps = handicaps.by_night(league).get(night.pk, {}) if league.by_net else None
        comparison = duplicate.compare(night, handicaps=night_handicaps)
    replayable = {
        night_table.table_id
        for group in (comparison.groups if comparison and not public else [])
        for night_table in group.night_tables
        if not night_table.is_hand and games_selectors.may_watch(night_table.table, viewer)
    }
    return DealComparison(waiting, in_play, comparison, replayable)


def corrections_in(league: League) -> QuerySet[ScoreCorrection]:
    """Every correction made to the league's scorecards, newest first."""
    return ScoreCorrection.objects.filter(
        scorecard__table__night_table__night__season__league=league
    ).select_related("scorecard__table__night_table__night__season", "corrected_by")


# --- Ratings ---------------------------------------------------------------------------


def league_ratings(league: League) -> list[Rating]:
    """The league's ratings, best ordinal first."""
    ratings = list(league.ratings.select_related("player"))
    return sorted(ratings, key=lambda r: (-r.ordinal, r.player.name.lower()))


def rating_history(league: League, player: Player) -> list[RatingChange]:
    """The player's rating after each rated match of the league, oldest first."""
    return list(
        RatingChange.objects.filter(league=league, player=player)
        .select_related("night_table__night")
        .order_by("sequence")
    )


# --- A player's record -----------------------------------------------------------------


@dataclass
class MatchLine:
    night_table: NightTable
    card: Scorecard
    date: date
    points: int = 0
    handicap: Fraction = Fraction(0)
    net_total: Fraction = Fraction(0)
    #: The place at the table that earned points: the net one in a league playing net.
    place: int | None = None
    #: Whom the result counts for when not the player (a substitute's, a seat the bot
    #: finished): a name, or "nobody"; its points are then not the player's.
    counts_for: str = ""

    @property
    def handicap_display(self) -> str:
        return handicaps.display(self.handicap)

    @property
    def net_display(self) -> str:
        return f"{float(self.net_total):.1f}"


@dataclass
class PlayerRecord:
    """A player's league record: matches, holes and what the holes looked like."""

    player: Player
    matches: list[MatchLine] = field(default_factory=list)
    hole_strokes: list[int] = field(default_factory=list)
    pairs_made: int | None = None
    pairs_holes: int = 0

    @property
    def holes(self) -> int:
        return len(self.hole_strokes)

    @property
    def strokes(self) -> int:
        return sum(self.hole_strokes)

    @property
    def mean_per_hole(self) -> float | None:
        return self.strokes / self.holes if self.holes else None

    @property
    def mean_per_match(self) -> float | None:
        if not self.matches:
            return None
        return sum(line.card.total for line in self.matches) / len(self.matches)

    @property
    def wins(self) -> int:
        return sum(line.place == 1 for line in self.matches)

    @property
    def best_hole(self) -> int | None:
        return min(self.hole_strokes) if self.hole_strokes else None

    @property
    def worst_hole(self) -> int | None:
        return max(self.hole_strokes) if self.hole_strokes else None

    @property
    def spread(self) -> list[tuple[int, int]]:
        """(strokes, how many holes) for every score the player made, lowest first."""
        return sorted(Counter(self.hole_strokes).items())


def player_record(league: League, player: Player, leave_out: Q | None = None) -> PlayerRecord:
    """Everything the player page shows about `player` in `league` (regulation holes);
    `leave_out`: a filter for scorecards the viewer may not see yet."""
    record = PlayerRecord(player=player)
    cards = (
        Scorecard.objects.filter(
            player=player,
            table__status=Table.Status.FINISHED,
            table__night_table__night__season__league=league,
        )
        .exclude(leave_out or Q(pk__in=[]))
        .select_related("table__night_table__night")
        .prefetch_related(Prefetch("holes", queryset=ScorecardHole.objects.order_by("number")))
        .annotate(night_id=F("table__night_table__night_id"))
        .order_by("table__night_table__night__date", "table__night_table__night__pk", "table__pk")
    )
    scoring = Scoring(league, cards, {card.table.night_table.night for card in cards})
    credit = credited_to(league, cards)
    others = Player.objects.in_bulk({pk for pk in credit.values() if pk not in (None, player.pk)})
    live_cards = []
    for card in cards:
        night_table = card.table.night_table
        owner = credit[card.pk]
        counts_for = "" if owner == player.pk else others[owner].name if owner else "nobody"
        record.matches.append(
            MatchLine(
                night_table,
                card,
                night_table.night.date,
                0 if counts_for else scoring.points(card),
                handicap=scoring.handicap(card),
                net_total=scoring.net_total(card),
                place=scoring.place(card),
                counts_for=counts_for,
            )
        )
        record.hole_strokes.extend(h.strokes for h in card.holes.all() if h.number <= HOLES)
        if card.table.kind == Table.Kind.LIVE:
            live_cards.append(card)
    record.pairs_made, record.pairs_holes = _pairs_made(live_cards)
    return record


def _given_away(record: PlayerRecord) -> dict[tuple[int, int], list[float]]:
    """Strokes given away in each reviewed regulation hole, by (table, position) of the
    record's matches. A hole the player made no decision in (a bot played it for them)
    gave nothing away and counts for nothing."""
    lines = {(line.card.table_id, line.card.position) for line in record.matches}
    reviews = (
        HoleReview.objects.filter(
            hole__table_id__in={table for table, _ in lines}, hole__number__lte=HOLES
        )
        .exclude(decisions=[])
        .values_list("hole__table_id", "position", "given_away")
    )
    given: dict[tuple[int, int], list[float]] = defaultdict(list)
    for table, position, away in reviews:
        if (table, position) in lines:
            given[table, position].append(away)
    return given


def given_away_by_match(record: PlayerRecord) -> list[tuple[date, float]]:
    """Per match with reviewed holes, the mean strokes the player gave away a hole."""
    given = _given_away(record)
    keys = ((line.card.table_id, line.card.position, line.date) for line in record.matches)
    return [
        (day, sum(given[table, position]) / len(given[table, position]))
        for table, position, day in keys
        if given.get((table, position))
    ]


@dataclass(frozen=True)
class NightGivenAway:
    """The strokes a player gave away on one league night, over its reviewed holes."""

    night: LeagueNight
    holes: int
    total: float

    @property
    def per_hole(self) -> float:
        """Strokes given away a reviewed hole: the night's total over its reviewed holes,
        so that a night of more matches weighs each of its holes alike."""
        return self.total / self.holes


def given_away_by_night(record: PlayerRecord) -> list[NightGivenAway]:
    """Per league night with reviewed holes, oldest first: the player's reviewed holes
    of all its matches, the strokes given away over them and a hole on average."""
    given = _given_away(record)
    nights: dict[int, tuple[LeagueNight, list[float]]] = {}
    for line in record.matches:
        night = line.night_table.night
        away = given.get((line.card.table_id, line.card.position))
        if away:
            nights.setdefault(night.pk, (night, []))[1].extend(away)
    return [NightGivenAway(night, len(away), sum(away)) for night, away in nights.values()]


def _pairs_made(cards: Iterable[Scorecard]) -> tuple[int | None, int]:
    """Pairs scored on live holes whose final layouts are known (None when none are)."""
    pairs, holes = 0, 0
    by_table = defaultdict(list)
    for card in cards:
        by_table[card.table_id].append(card.position)
    for hole in Hole.objects.filter(table_id__in=by_table, number__lte=HOLES):
        state = hole.state or {}
        if state.get("phase") != "over" or "layouts" not in state:
            continue
        for position in by_table[hole.table_id]:
            if position not in hole.seat_positions:
                continue
            layout = state["layouts"][hole.seat_positions.index(position)]
            try:
                pairs += len(scoring_pairs(state["variant"], layout))
            except (KeyError, ValueError):
                continue
            holes += 1
    return (pairs if holes else None), holes


@dataclass(frozen=True)
class CorrectedMatch:
    """A finished match as a correction of one hole would leave it."""

    names: list[str]
    #: Strokes by hole then seat, the corrected hole changed and `unneeded` left out.
    scores: list[list[int | None]]
    #: The playoff holes the corrected scores no longer need, in order.
    unneeded: list[int]
    #: The hole after which the corrected match is decided (None if it is not).
    decided_after: int | None


def corrected_match(scorecard: Scorecard, number: int, strokes: int) -> CorrectedMatch:
    """What changing `scorecard`'s hole `number` to `strokes` makes of its finished match.

    A correction can decide a match earlier than its playoff did (after the nine holes,
    say, where there was a tie): the playoff holes after that point are `unneeded`.
    A table still in play is left to the live match, so nothing is unneeded there.
    """
    table = scorecard.table
    grid = Grid.read(table)
    cards = grid.cards
    names = [card.name for card in cards]
    numbers = sorted(grid.played)
    scores = grid.by_hole()
    if number not in numbers:
        return CorrectedMatch(names, scores, [], None)
    scores[numbers.index(number)][[card.pk for card in cards].index(scorecard.pk)] = strokes
    if table.status != Table.Status.FINISHED:
        return CorrectedMatch(names, scores, [], None)
    for played in range(HOLES, len(scores) + 1):
        try:
            decided = match_status(scores[:played], len(cards)).over
        except ValueError:
            # Not a match the rules allow: the checks name what is wrong with it.
            break
        if decided:
            return CorrectedMatch(names, scores[:played], numbers[played:], numbers[played - 1])
    return CorrectedMatch(names, scores, [], None)


def corrections_for(night: LeagueNight) -> QuerySet[ScoreCorrection]:
    """The corrections made to the night's scorecards, newest first."""
    return ScoreCorrection.objects.filter(
        scorecard__table__night_table__night=night
    ).select_related("scorecard__table__night_table__night__season", "corrected_by")

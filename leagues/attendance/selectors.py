"""Reads of who played a night for whom: whom each card's result counts for (a
substitute's, a seat the bot finished), what a night missed earns, and those rules in
words."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from fractions import Fraction

from django.utils import timezone
from django.utils.formats import date_format

from games.models import Scorecard, Seat

from ..calendar.feed import night_start
from ..models import Answer, AnswerRule, League, LeagueNight, Player, Substitute
from ..seating.dealing import table_sizes

#: The seats a table is counted with before the night, as the seating form starts.
EXPECTED_SEATS = 4

RATED_RULE = (
    "A result moves a rating and a handicap only when it counts for the person who played "
    "it: a guest's, a substitute's that counts for the member away, and one that counts "
    "for nobody move no one's."
)


def _earns(how: str, fixed: int) -> str:
    if how == League.Missed.FIXED:
        return f"{fixed} point{'s' if fixed != 1 else ''}"
    if how == League.Missed.AVERAGE:
        return "the player's average points per night played this season (rounded, halves up)"
    return "nothing"


def absence_rule(league: League) -> str:
    """What absences, substitutes, byes and a seat the bot finished earn, and whose
    rating and handicap a result moves, in words."""
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
    return f"{away} {bye} {substitute} {stand_in} {RATED_RULE}"


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


def rated_cards(
    league: League, cards: Iterable[Scorecard], credit: dict[int, int | None] | None = None
) -> set[int]:
    """The cards (annotated `night_id`) whose result moves their player's rating and
    handicap: only a result that counts for the person who played it does. A guest's
    card (in a member's name), a member substitute's whose result counts for the member
    away, and a result that counts for nobody move no one's."""
    cards = list(cards)
    if credit is None:
        credit = credited_to(league, cards)
    guests = set(
        Substitute.objects.filter(
            night_id__in={card.night_id for card in cards}, player__isnull=True
        ).values_list("night_id", "member_id")
    )
    return {
        card.pk
        for card in cards
        if credit[card.pk] is not None
        and credit[card.pk] == card.player_id
        and (card.night_id, card.player_id) not in guests
    }


def missed_points(how: str, fixed: int, average: Fraction) -> int:
    """What a night missed earns: nothing, a fixed number, or the average (halves up)."""
    if how == League.Missed.FIXED:
        return fixed
    if how == League.Missed.AVERAGE:
        return math.floor(average + Fraction(1, 2))
    return 0


def answers_close_at(night: LeagueNight) -> datetime:
    """When members can no longer say whether they are coming: the league's hours
    before the night's start, or its start. A night with no start time is counted from
    the end of its day, so that answers stay open through it."""
    starts = night_start(night) or datetime.combine(
        night.date + timedelta(days=1), time.min, tzinfo=timezone.get_default_timezone()
    )
    hours = answers_close_hours(night.season.league)
    return starts - timedelta(hours=hours or 0)


def answers_close_hours(league: League) -> int | None:
    """The league's hours before a night at which answers close (None: at its start)."""
    return AnswerRule.objects.filter(league=league).values_list("close_hours", flat=True).first()


def answers_closed_reason(night: LeagueNight, now: datetime | None = None) -> str:
    """Why `night` takes no answer now ("" when it does)."""
    if night.season.is_closed:
        return f"{night.season.name} is closed."
    now = now or timezone.now()
    closes = answers_close_at(night)
    if now >= closes:
        when = date_format(timezone.localtime(closes), "l j F, H:i")
        return f"Answers for this night closed on {when}: tell an organiser instead."
    return ""


def expected_tables(players: int, league: League) -> list[int]:
    """The tables `players` would fill, as the seating deals them (`dealing.table_sizes`)
    at the league's game's usual table."""
    rules = league.rules
    seats = max(rules.min_players, min(EXPECTED_SEATS, rules.max_players))
    return table_sizes(players, seats) if players else []


@dataclass(frozen=True)
class Answers:
    """The night's answers: each member's choice by id, the counts, and the tables the
    members coming would fill (and with the maybes too)."""

    choices: dict[int, str]
    counts: Counter
    tables: list[int]
    tables_with_maybe: list[int]
    closes_at: datetime
    closed: str

    @property
    def coming(self) -> int:
        return self.counts[Answer.Choice.COMING]

    @property
    def maybe(self) -> int:
        return self.counts[Answer.Choice.MAYBE]

    @property
    def not_coming(self) -> int:
        return self.counts[Answer.Choice.NOT_COMING]

    def of(self, player: Player) -> str:
        """`player`'s answer ("" if none)."""
        return self.choices.get(player.pk, "") if player.is_authenticated else ""


def night_answers(night: LeagueNight) -> Answers:
    """The night's answers, in one query whatever the league's history."""
    choices = dict(night.answers.values_list("player_id", "choice"))
    counts = Counter(choices.values())
    league = night.season.league
    coming = counts[Answer.Choice.COMING]
    return Answers(
        choices=choices,
        counts=counts,
        tables=expected_tables(coming, league),
        tables_with_maybe=expected_tables(coming + counts[Answer.Choice.MAYBE], league),
        closes_at=answers_close_at(night),
        closed=answers_closed_reason(night),
    )

"""A league's stored figures (each card as the league scores it, and the ratings) kept by
its writes equal a recompute from scratch, whatever sequence of results, corrections,
absences, substitutes, byes, handicap freezes and a season's close led to them."""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict
from datetime import date, timedelta
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.db.models import F
from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.match import HOLES
from games.models import Scorecard, Table
from games.scorecards import PaperScoreError
from leagues.attendance import services as attendance
from leagues.attendance.selectors import credited_to, missed_points, rated_cards
from leagues.handicaps.selectors import worked_out
from leagues.models import Absence, CardResult, League, LeagueNight, Rating, RatingChange
from leagues.ratings.services import rebuild_ratings
from leagues.results.services import correct_score, enter_night_results
from leagues.seasons.services import close_season
from leagues.seating.services import seat_night
from leagues.standings.scoring import Scoring
from leagues.standings.selectors import season_standings
from leagues.standings.services import rebuild_figures
from tests.factories import make_club, make_league, make_player, make_season
from tests.leagues.reference import by_night

pytestmark = pytest.mark.both_databases


def reference_standings(season) -> dict[int, tuple]:
    """The season's standings by player, worked out from every scorecard as the site did
    before it kept figures: (matches, holes, strokes, wins, points, net, absences, byes)."""
    league = season.league
    cards = list(
        Scorecard.objects.filter(
            table__night_table__night__season=season,
            table__status=Table.Status.FINISHED,
            player__isnull=False,
        ).annotate(night_id=F("table__night_table__night_id"))
    )
    nights = LeagueNight.objects.filter(pk__in={card.night_id for card in cards})
    all_cards = list(
        Scorecard.objects.filter(
            table__night_table__night__season__league=league,
            table__status=Table.Status.FINISHED,
            player__isnull=False,
        ).annotate(night_id=F("table__night_table__night_id"))
    )
    scoring = Scoring(
        league,
        cards,
        nights,
        night_handicaps=by_night(league, rated=rated_cards(league, all_cards)),
    )
    credit = credited_to(league, cards)
    rows: dict[int, list] = defaultdict(lambda: [0, 0, 0, 0, 0, Fraction(0), 0, 0])
    played: dict[int, set] = defaultdict(set)
    for card in cards:
        owner = credit[card.pk]
        if owner is None:
            continue
        row = rows[owner]
        row[0] += 1
        row[1] += card.holes.filter(number__lte=HOLES).count()
        row[2] += card.total
        row[3] += scoring.place(card) == 1
        row[4] += scoring.points(card)
        row[5] += scoring.net_total(card)
        played[owner].add(card.night_id)
    averages = {pk: Fraction(row[4], len(played[pk])) for pk, row in rows.items()}
    for absence in Absence.objects.filter(night__in=nights).exclude(
        night__substitutes__member=F("player")
    ):
        row = rows[absence.player_id]
        average = averages.get(absence.player_id, Fraction(0))
        if absence.kind == Absence.Kind.BYE:
            row[4] += missed_points(league.bye_points, league.bye_fixed_points, average)
            row[7] += 1
        else:
            row[6] += 1
            if absence.kind == Absence.Kind.NOTICE or not league.absence_needs_notice:
                row[4] += missed_points(league.absence_points, league.absence_fixed_points, average)
    return {pk: tuple(row) for pk, row in rows.items()}


def _ratings(league) -> list[tuple]:
    return sorted(
        Rating.objects.filter(league=league).values_list("player_id", "mu", "sigma", "matches")
    )


def _history(league) -> list[tuple]:
    return list(
        RatingChange.objects.filter(league=league)
        .order_by("sequence", "player_id")
        .values_list("sequence", "night_table_id", "player_id", "mu", "sigma")
    )


#: One step of a league's life: (what, a number choosing among the things it may act on).
STEPS = st.lists(
    st.tuples(
        st.sampled_from(
            ["night", "enter", "enter", "enter", "correct", "correct", "absent", "substitute"]
            + ["guest"]
        ),
        st.integers(0, 10**6),
    ),
    min_size=6,
    max_size=24,
)


def _holes(rng: random.Random, seats: int) -> list[list[int]]:
    """Nine holes of strokes, with a playoff hole where the nine leave a tie for first."""
    holes = [[rng.randint(-2, 12) for _ in range(seats)] for _ in range(HOLES)]
    totals = [sum(hole[seat] for hole in holes) for seat in range(seats)]
    low = min(totals)
    tied = [seat for seat, total in enumerate(totals) if total == low]
    if len(tied) > 1:
        playoff = [None] * seats
        for rank, seat in enumerate(tied):
            playoff[seat] = rank  # strictly different: the first of them wins
        holes.append(playoff)
    return holes


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    steps=STEPS,
    rules=st.fixed_dictionaries(
        {
            "points_from": st.sampled_from(list(League.Strokes.values)),
            "night_points": st.sampled_from(list(League.NightPoints.values)),
            "substitute_counts": st.sampled_from(list(League.SubstituteCounts.values)),
            "absence_points": st.sampled_from(list(League.Missed.values)),
            "bye_points": st.sampled_from(list(League.Missed.values)),
        }
    ),
    close=st.booleans(),
)
def test_the_stored_figures_equal_a_recompute_from_scratch(steps, rules, close):
    organiser = make_player()
    members = [make_player() for _ in range(7)]
    club = make_club(organiser=organiser, members=members)
    league = make_league(club, points="6,4,2,0")
    for name, value in rules.items():
        setattr(league, name, value)
    league.save()
    season = make_season(league)
    nights: list[LeagueNight] = []
    rng = random.Random(len(steps))

    def new_night() -> LeagueNight:
        night = LeagueNight.objects.create(
            season=season,
            date=date(2026, 2, 1) + timedelta(days=7 * len(nights)),
            duplicate_deals=len(nights) % 2 == 1,
        )
        nights.append(night)
        return night

    def unseated() -> LeagueNight | None:
        open_nights = [n for n in nights if not n.tables.exists()]
        return open_nights[-1] if open_nights else None

    def step(what: str, choice: int) -> None:
        if what == "night" or not nights:
            night = new_night()
            present = members[: 4 + choice % 4]
            attendance.set_night_players(night=night, players=present, by=organiser)
        elif what in ("absent", "substitute", "guest"):
            night = unseated()
            if night is None:
                return
            present = list(night.players.all())
            away = [m for m in members if m not in present and m.pk not in _subs(night)]
            if not away:
                return
            member = away[choice % len(away)]
            try:
                if what == "absent":
                    attendance.mark_absent(
                        night=night, player=member, notice=choice % 2 == 0, by=organiser
                    )
                elif what == "guest":
                    attendance.set_substitute(
                        night=night, member=member, guest_name=f"Guest {choice}", by=organiser
                    )
                else:
                    spare = [m for m in away if m != member]
                    if spare:
                        attendance.set_substitute(
                            night=night,
                            member=member,
                            player=spare[choice % len(spare)],
                            by=organiser,
                        )
            except ValidationError:
                pass
        elif what == "enter":
            # Seat a night not seated yet (byes for the odd ones out), or enter a
            # table of any night, the latest or an earlier one.
            night = unseated()
            if night is not None and night.players.count() >= 2:
                seat_night(
                    night=night, by=organiser, seats_per_table=3, byes=choice % 2 == 0, rng=rng
                )
                return
            waiting = [
                nt
                for n in nights
                for nt in n.tables.select_related("table")
                if nt.table.status != Table.Status.FINISHED
            ]
            if waiting:
                night_table = waiting[choice % len(waiting)]
                seats = night_table.table.seat_count
                enter_night_results(
                    night_table=night_table, hole_scores=_holes(rng, seats), by=organiser
                )
        elif what == "correct":
            cards = list(
                Scorecard.objects.filter(
                    table__night_table__night__season=season,
                    table__status=Table.Status.FINISHED,
                )
            )
            if not cards:
                return
            card = cards[choice % len(cards)]
            # Refused (a rule of the match broken, a playoff not removed): nothing changed.
            with contextlib.suppress(ValidationError, PaperScoreError):
                correct_score(
                    scorecard=card,
                    number=1 + choice % HOLES,
                    strokes=rng.randint(-2, 12),
                    reason="Misread",
                    by=organiser,
                    remove_playoffs=choice % 3 != 0,
                )

    for what, choice in steps:
        # Each step as a request: what it queues for after its commit (a re-rating) runs
        # once it is over, before the next.
        with TestCase.captureOnCommitCallbacks(execute=True):
            step(what, choice)

    expected = reference_standings(season)
    if close and expected:
        with contextlib.suppress(ValidationError):
            close_season(season=season, by=organiser)
        season.refresh_from_db()
    stored = {
        row.player.pk: (
            row.matches,
            row.holes,
            row.strokes,
            row.wins,
            row.points,
            row.net_strokes,
            row.absences,
            row.byes,
        )
        for row in season_standings(season)
    }
    if season.is_closed:  # frozen lines keep the gross figures
        expected = {pk: (*row[:5],) for pk, row in expected.items()}
        stored = {pk: row[:5] for pk, row in stored.items()}
    assert stored == expected
    # The next night's handicaps, worked out from the stored figures, are those of
    # every rated hole so far.
    rated = CardResult.objects.filter(rated=True).values_list("scorecard_id", flat=True)
    handicaps = by_night(league, rated=set(rated))[None]
    everyone = [m.pk for m in members]
    assert worked_out(league, everyone) == {pk: handicaps.get(pk, 0) for pk in everyone}
    ratings, history = _ratings(league), _history(league)
    assert str(rebuild_figures(league=league)) == "every stored figure was right"
    assert rebuild_ratings(league=league).changed == []
    assert _ratings(league) == ratings
    assert _history(league) == history


def _subs(night: LeagueNight) -> set[int]:
    return set(night.substitutes.values_list("member_id", flat=True)) | set(
        night.substitutes.filter(player__isnull=False).values_list("player_id", flat=True)
    )

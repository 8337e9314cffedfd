"""Benchmark of a league's history: writes and pages early in a league and years in.

    python tests/bench/bench_league.py [--database sqlite|postgres|both]
        [--seasons 3] [--nights 30] [--tables 12] [--record FILE]

Builds a club's league through the site's own services, in this one process, as fast
as they allow: one club of `4 x tables` members (48), one Play Nine league (public),
`seasons` seasons of `nights` nights (3 of 30), every member present every night,
seated at random at `tables` paper tables of four (12), each table's strokes entered
by the organiser (`enter_night_results`), and one score corrected a night. Strokes are
drawn from a seeded generator (each member plays to a skill of their own); table 1 of
every night is tied for the lowest total after nine holes, so playoffs happen, and
other ties happen by chance. Each season but the last is closed, the next started.

Twice, once the first season has 4 nights and once the last season has all of its
nights, it times the figures below in-process, the median of 5 after one untimed run:

Writes, each timed inside `transaction.atomic()` and rolled back after it, so that
every repetition finds the same history; the commit and the work of
`transaction.on_commit` callbacks (which nobody waits for) are left out. Each is
checked, untimed and before the rollback, to have done what it is timed for. They
are made on the night just played, whose last table is left for them to enter:
- "enter one table's results (organiser)": `enter_night_results` of the last table;
- "table report, last confirmation": the phones' report of the last table, one
  player entering each hole and another confirming it (`leagues.reporting.services`);
  untimed up to the last hole's confirmation, which is timed: it writes the table's
  results as the organiser's entry does;
- "event paper table": `enter_event_results` of a paper table of a club event seeded
  by the league's ratings, everyone entered: the last of round 1's tables, so the
  round closes and round 2 is seated (a new event at each point, so its size is the
  same at both);
- "correction": `correct_score`, one hole of table 1 (the highest card, +1);
- "correction of the season's first night": the same on the season's first night
  (what a correction of an old night re-rates);
- "correction removing playoffs": `correct_score(remove_playoffs=True)`, table 1's
  playoff made unneeded by a tied player's hole 1 one lower;
- "close the season": `close_season` of the season in play;
- "seat the next night": `seat_night` of a night a week later, everyone present, at
  random (its tables made and its handicaps frozen).
The last table is then entered for good, and the pages are timed, through
`django.test.Client` (each must answer 200): as the organiser, the season page, its
standings CSV, the night page, the league page, the corrections page; as a member,
their player page, the league calendar and the home page; signed out, the league's
public pages (league, season, night, corrections).

Prints one line per figure: the two medians, their ratio and the goal, then one line
per goal saying whether it holds: at the last point, every page within 50 ms and every
write within 60 ms, and no figure growing more than 1.5 times. The goals are for
SQLite on the 2-core machine; on PostgreSQL the same lines are information.

SQLite in a temporary directory; PostgreSQL from DATABASE_URL (default
postgres://postgres@127.0.0.1:5432/fairway_bench_league), a database of its own that
the script creates and drops, so its name must contain "bench". Production settings.
"""

from __future__ import annotations

import argparse
import atexit
import json
import logging
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/fairway_bench_league"

#: Goals at the last point on SQLite, in milliseconds, and the most a figure may grow.
PAGE_GOAL_MS = 50.0
WRITE_GOAL_MS = 60.0
RATIO_GOAL = 1.5

REPEATS = 5

WRITES = (
    "enter one table's results (organiser)",
    "table report, last confirmation",
    "event paper table",
    "correction",
    "correction of the season's first night",
    "correction removing playoffs",
    "close the season",
    "seat the next night",
)
PAGES = (
    "season page (standings)",
    "standings CSV",
    "player page",
    "night page",
    "league page",
    "calendar",
    "corrections page",
    "home page",
    "public league page",
    "public season page",
    "public night page",
    "public corrections page",
)

#: Strokes a hole is drawn within: plausible Play Nine holes, inside what the rules allow.
LOW, HIGH = -10, 40


@dataclass(frozen=True)
class Size:
    """How big a league to build."""

    seasons: int = 3
    nights: int = 30
    tables: int = 12
    seed: int = 1

    @property
    def first_point(self) -> int:
        """The night (counted over the whole league) of the early point: the 4th, or an
        earlier one in a league too small to have one after it."""
        return max(1, min(4, self.seasons * self.nights - 1))


@dataclass
class Point:
    """The figures at one point of the league's history, in milliseconds by name."""

    label: str
    times: dict[str, float] = field(default_factory=dict)
    load: float = 0.0


@dataclass
class Outcome:
    build_seconds: float
    early: Point
    late: Point


def setup(database: str) -> None:
    """Django on production settings and a fresh database."""
    sys.path.insert(0, str(ROOT))
    directory = tempfile.mkdtemp(prefix="fairway-bench-league-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    if database == "sqlite":
        os.environ["DATABASE_URL"] = f"sqlite:///{directory}/db.sqlite3"
    else:
        os.environ["DATABASE_URL"] = postgres_url()
        fresh_postgres(os.environ["DATABASE_URL"])
        atexit.register(drop_postgres, os.environ["DATABASE_URL"])
    os.environ.update(
        DEBUG="false",
        SECRET_KEY="bench-only-secret-key-" + "x" * 40,
        # The test client's requests name "testserver".
        ALLOWED_HOSTS="127.0.0.1,testserver",
        SECURE_SSL_REDIRECT="false",
        FAIRWAY_REVIEW_AFTER_HOLE="false",
        FAIRWAY_VAR_DIR=directory,
    )
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    import django

    django.setup()
    # The test client's sign-ins are no news.
    logging.getLogger("axes").setLevel(logging.WARNING)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    # Pages name their static files through production's manifest.
    call_command("collectstatic", interactive=False, verbosity=0)


def postgres_url() -> str:
    """DATABASE_URL when it names PostgreSQL, else the default; refused unless its
    database's name says it is a benchmark's (it is dropped and made again)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        url = POSTGRES_URL
    name = urlsplit(url).path.lstrip("/")
    if "bench" not in name:
        sys.exit(
            f"The database {name!r} would be dropped and made again: name one whose name "
            f"contains 'bench' in DATABASE_URL (default {POSTGRES_URL})."
        )
    return url


def _maintenance(url: str):
    import psycopg

    parts = urlsplit(url)
    return psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)


def fresh_postgres(url: str) -> None:
    from psycopg import sql

    name = urlsplit(url).path.lstrip("/")
    with _maintenance(url) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def drop_postgres(url: str) -> None:
    from django.db import connections
    from psycopg import sql

    connections.close_all()
    name = urlsplit(url).path.lstrip("/")
    with _maintenance(url) as connection:
        connection.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )


# --- strokes -----------------------------------------------------------------------------


def match_holes(
    rng: random.Random, skills: Sequence[float], *, tie: bool
) -> list[list[int | None]]:
    """A plausible match: nine holes for every seat (around each player's skill), then
    the playoff holes a tie for the lowest total needs. With `tie` the second best is
    brought level with the best on the last holes."""
    seats = range(len(skills))

    def hole(seat: int) -> int:
        return max(LOW, min(HIGH, round(rng.gauss(skills[seat], 7))))

    holes: list[list[int | None]] = [[hole(seat) for seat in seats] for _ in range(9)]
    totals = [sum(h[seat] for h in holes) for seat in seats]
    if tie:
        best, second = sorted(seats, key=lambda seat: totals[seat])[:2]
        gap = totals[second] - totals[best]
        for row in reversed(holes):  # the gap off the last holes, none below LOW
            taken = min(gap, row[second] - LOW)
            row[second] -= taken
            gap -= taken
        totals[second] = totals[best] + gap
    lowest = min(totals)
    contenders = [seat for seat in seats if totals[seat] == lowest]
    while len(contenders) > 1:
        row = [None] * len(skills)
        for seat in contenders:
            row[seat] = hole(seat)
        holes.append(row)
        best_hole = min(row[seat] for seat in contenders)
        contenders = [seat for seat in contenders if row[seat] == best_hole]
    return holes


def regulation_totals(holes: Sequence[Sequence[int | None]]) -> list[int]:
    return [sum(row[seat] for row in holes[:9]) for seat in range(len(holes[0]))]


# --- the league --------------------------------------------------------------------------


class BenchLeague:
    """The benchmark's league as it is built: its records and the strokes drawn."""

    def __init__(self, size: Size, say: Callable[[str], None] = print):
        from leagues.clubs.services import add_member, create_league
        from leagues.models import Club, Membership, Player
        from leagues.public.services import set_league_public

        self.size, self.say = size, say
        self.rng = random.Random(size.seed)
        run = f"{size.seed}-{random.Random().getrandbits(32):08x}"  # apart from other runs
        self.club = Club.objects.create(name=f"Bench Club {run}", slug=f"bench-club-{run}")
        self.organiser = Player.objects.create_user(username=f"bench-organiser-{run}")
        add_member(club=self.club, player=self.organiser, role=Membership.Role.ORGANISER)
        self.members = [
            Player.objects.create_user(username=f"bench-{run}-{n}", display_name=f"Member {n}")
            for n in range(1, 4 * size.tables + 1)
        ]
        for member in self.members:
            add_member(club=self.club, player=member, by=self.organiser)
        self.skill = {m.pk: self.rng.uniform(5.0, 12.0) for m in self.members}
        self.league = create_league(
            club=self.club, name="Thursday league", variant="play-nine", by=self.organiser
        )
        set_league_public(league=self.league, is_public=True, by=self.organiser)
        self.holes: dict[int, list[list[int | None]]] = {}  # by NightTable pk
        self.season = None
        self.nights_played = 0

    # Building.

    def start_season(self, number: int):
        from leagues.seasons.services import create_season, start_next_season

        start = date(2023 + number, 1, 1)
        end = date(2023 + number, 12, 31)
        name = f"{2023 + number}"
        if self.season is None:
            self.season = create_season(
                league=self.league, name=name, start=start, end=end, by=self.organiser
            )
        else:
            self.season = start_next_season(
                season=self.season, name=name, start=start, end=end, by=self.organiser
            )
        self.first_night = None
        return self.season

    def close_season(self) -> None:
        from leagues.seasons.services import close_season

        close_season(season=self.season, by=self.organiser)
        self.season.refresh_from_db()

    def seat_night(self, number: int):
        """Night `number` of the season, everyone present, seated at paper tables, each
        table's strokes drawn (table 1's tied); nothing entered yet."""
        from games.models import Seat
        from leagues.attendance.services import set_night_players
        from leagues.seasons.services import create_night
        from leagues.seating.services import seat_night

        night = create_night(
            season=self.season,
            night_date=self.season.start + timedelta(days=7 * number),
            by=self.organiser,
        )
        set_night_players(night=night, players=self.members, by=self.organiser)
        tables = seat_night(
            night=night, by=self.organiser, method="random", seats_per_table=4, rng=self.rng
        )
        for night_table in tables:
            seated = Seat.objects.filter(table=night_table.table_id).order_by("position")
            skills = [self.skill[pk] for pk in seated.values_list("player_id", flat=True)]
            tie = night_table.number == 1 or self.rng.random() < 0.05
            self.holes[night_table.pk] = match_holes(self.rng, skills, tie=tie)
        if self.first_night is None:
            self.first_night = night
        return night, tables

    def enter(self, night_table) -> None:
        from leagues.results.services import enter_night_results

        enter_night_results(
            night_table=night_table, hole_scores=self.holes[night_table.pk], by=self.organiser
        )

    def correction_args(self, night_table, *, remove_playoffs: bool = False) -> dict:
        """A correction of one of the table's holes: the highest card's hole 1 one more,
        or (`remove_playoffs`) a tied player's hole 1 one less, which decides the match
        after nine."""
        from games.models import Scorecard

        holes = self.holes[night_table.pk]
        totals = regulation_totals(holes)
        seat = totals.index(min(totals)) if remove_playoffs else totals.index(max(totals))
        card = Scorecard.objects.get(table=night_table.table_id, position=seat)
        strokes = card.holes.get(number=1).strokes + (-1 if remove_playoffs else 1)
        return {
            "scorecard": card,
            "number": 1,
            "strokes": strokes,
            "reason": "Card misread",
            "by": self.organiser,
            "remove_playoffs": remove_playoffs,
        }

    def correct(self, night_table) -> None:
        from leagues.results.services import correct_score

        correct_score(**self.correction_args(night_table))


def timed_write(
    action: Callable[[Any], object],
    *,
    prepare: Callable[[], object] = lambda: None,
    check: Callable[[object], bool] = lambda done: True,
    repeats: int = REPEATS,
) -> float:
    """The median milliseconds of `action` over `repeats` runs after one untimed, each in a
    transaction rolled back after it: `prepare` runs in it first, untimed, and what it
    returns is passed to `action`; `check` then says, untimed, whether `action` did
    what it is timed for (given what it returned)."""
    from django.db import transaction

    took = []
    for _ in range(repeats + 1):
        with transaction.atomic():
            prepared = prepare()
            start = time.perf_counter()
            done = action(prepared)
            took.append(time.perf_counter() - start)
            if not check(done):
                raise AssertionError(f"{action.__name__} did not do what it is timed for")
            transaction.set_rollback(True)
    return statistics.median(took[1:]) * 1000


def timed_page(client, url: str, repeats: int = REPEATS) -> float:
    """The median milliseconds of a GET of `url` over `repeats` after one untimed; each
    must answer 200."""
    took = []
    for _ in range(repeats + 1):
        start = time.perf_counter()
        response = client.get(url)
        took.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise AssertionError(f"GET {url} answered {response.status_code}")
    return statistics.median(took[1:]) * 1000


def measure(league: BenchLeague, night, tables, label: str, repeats: int = REPEATS) -> Point:
    """Time every figure on `night`, whose last table has no results yet (entered for
    good here, after the writes that need it open)."""
    from django.test import Client
    from django.urls import reverse

    from games.models import Table
    from leagues.attendance.services import set_night_players
    from leagues.events.services import (
        add_entry,
        check_in,
        create_event,
        enter_event_results,
        start_event,
    )
    from leagues.models import (
        Event,
        EventRound,
        EventTable,
        LeagueNight,
        NightTable,
        ScoreCorrection,
        Season,
        TableReport,
    )
    from leagues.reporting import services as reporting
    from leagues.results.services import correct_score, enter_night_results
    from leagues.seasons.services import close_season, create_night
    from leagues.seating.services import seat_night

    point = Point(label, load=os.getloadavg()[0])
    times = point.times

    def timed(action, **kwargs) -> float:
        return timed_write(action, repeats=repeats, **kwargs)

    organiser, last = league.organiser, tables[-1]
    holes = league.holes[last.pk]

    def last_table() -> NightTable:
        return NightTable.objects.select_related("table").get(pk=last.pk)

    def enter_results(night_table: NightTable) -> NightTable:
        enter_night_results(night_table=night_table, hole_scores=holes, by=organiser)
        return night_table

    def finished(night_table: NightTable) -> bool:
        return Table.objects.get(pk=night_table.table_id).status == Table.Status.FINISHED

    times[WRITES[0]] = timed(enter_results, prepare=last_table, check=finished)

    seats = list(last.table.seats.order_by("position").values_list("player", flat=True))
    first_phone, second_phone = (m for m in league.members if m.pk in seats[:2])

    def report_but_the_last():
        report = TableReport.objects.get(night_table=last.pk)
        for number, strokes in enumerate(holes, start=1):
            hole = reporting.enter_hole(
                report=report, number=number, strokes=strokes, version=0, by=first_phone
            )
            if number < len(holes):
                reporting.confirm_hole(
                    report=report, number=number, version=hole.version, by=second_phone
                )
        return report, hole

    def confirm_the_last(entered) -> NightTable:
        report, hole = entered
        reporting.confirm_hole(
            report=report, number=hole.number, version=hole.version, by=second_phone
        )
        return last

    times[WRITES[1]] = timed(confirm_the_last, prepare=report_but_the_last, check=finished)
    enter_results(last_table())  # for good

    # A club event seeded by the league's ratings, on paper, everyone in it: round 1's
    # tables entered but the last.
    soon = datetime.now().astimezone() + timedelta(days=1)
    event = create_event(
        club=league.club,
        by=organiser,
        name=f"Cup at {label}",
        format=Event.Format.SWISS,
        variant="play-nine",
        rounds=3,
        starts_at=soon,
        entry_closes_at=soon,
        league=league.league,
    )
    for member in league.members:
        add_entry(event=event, player=member, by=organiser)
        check_in(event=event, player=member, by=organiser)
    start_event(event=event, by=organiser)
    event_tables = list(EventTable.objects.filter(round__event=event, round__number=1))
    event_holes = {}
    for event_table in event_tables:
        seated = event_table.table.seats.order_by("position").values_list("player", flat=True)
        skills = [league.skill[pk] for pk in seated]
        event_holes[event_table.pk] = match_holes(league.rng, skills, tie=False)
    for event_table in event_tables[:-1]:
        enter_event_results(
            event_table=event_table, hole_scores=event_holes[event_table.pk], by=organiser
        )
    last_event_table = event_tables[-1]

    def enter_event_table(event_table: EventTable) -> None:
        enter_event_results(
            event_table=event_table, hole_scores=event_holes[event_table.pk], by=organiser
        )

    times[WRITES[2]] = timed(
        enter_event_table,
        prepare=lambda: EventTable.objects.select_related("round__event").get(
            pk=last_event_table.pk
        ),
        check=lambda done: EventRound.objects.filter(event=event, number=2).exists(),
    )

    def correct(arguments: dict):
        return correct_score(**arguments)

    def corrected(correction) -> bool:
        return ScoreCorrection.objects.filter(pk=correction.changed.pk).exists()

    first_table = tables[0]
    season_first = NightTable.objects.get(night=league.first_night, number=1)
    times[WRITES[3]] = timed(
        correct, prepare=lambda: league.correction_args(first_table), check=corrected
    )
    times[WRITES[4]] = timed(
        correct, prepare=lambda: league.correction_args(season_first), check=corrected
    )
    times[WRITES[5]] = timed(
        correct,
        prepare=lambda: league.correction_args(first_table, remove_playoffs=True),
        check=lambda correction: bool(correction.removed),
    )

    def close(season: Season) -> Season:
        close_season(season=season, by=organiser)
        return season

    times[WRITES[6]] = timed(
        close,
        prepare=lambda: Season.objects.get(pk=league.season.pk),
        check=lambda season: Season.objects.get(pk=season.pk).is_closed,
    )

    def next_night() -> LeagueNight:
        upcoming = create_night(
            season=league.season, night_date=night.date + timedelta(days=7), by=organiser
        )
        set_night_players(night=upcoming, players=league.members, by=organiser)
        return upcoming

    def seat(upcoming: LeagueNight) -> LeagueNight:
        seat_night(night=upcoming, by=organiser, method="random", seats_per_table=4, rng=league.rng)
        return upcoming

    times[WRITES[7]] = timed(
        seat,
        prepare=next_night,
        check=lambda upcoming: (
            upcoming.tables.count() == len(tables)
            and upcoming.handicaps.count() == len(league.members)
        ),
    )

    as_organiser, as_member, signed_out = Client(), Client(), Client()
    as_organiser.force_login(organiser)
    member = league.members[0]
    as_member.force_login(member)
    league_id, season_id = league.league.pk, league.season.pk

    def url(name: str, *args: int) -> str:
        return reverse(f"leagues:{name}", args=args)

    pages = {
        "season page (standings)": (as_organiser, url("season", season_id)),
        "standings CSV": (as_organiser, url("standings_csv", season_id)),
        "player page": (as_member, url("player", league_id, member.pk)),
        "night page": (as_organiser, url("night", night.pk)),
        "league page": (as_organiser, url("league", league_id)),
        "calendar": (as_member, url("calendar", league_id)),
        "corrections page": (as_organiser, url("corrections", league_id)),
        "home page": (as_member, reverse("home")),
        "public league page": (signed_out, url("public_league", league_id)),
        "public season page": (signed_out, url("public_season", season_id)),
        "public night page": (signed_out, url("public_night", night.pk)),
        "public corrections page": (signed_out, url("public_corrections", league_id)),
    }
    for name, (client, address) in pages.items():
        times[name] = timed_page(client, address, repeats)
    return point


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def run(size: Size, say: Callable[[str], None] = print, repeats: int = REPEATS) -> Outcome:
    """Build the league of `size` and time every figure at its two points (the median
    of `repeats` runs each)."""
    if size.tables < 2:
        raise ValueError(
            "A night needs two tables at least: table 1 is corrected, the last entered."
        )
    league = BenchLeague(size, say)
    started = time.perf_counter()
    building = 0.0  # seconds spent building, measuring left out
    early = late = None
    played = 0
    in_the_end = plural(size.seasons, "season")
    for season_number in range(size.seasons):
        league.start_season(season_number)
        for night_number in range(size.nights):
            night, tables = league.seat_night(night_number)
            played += 1
            point = played == size.first_point or played == size.seasons * size.nights
            for night_table in tables[:-1] if point else tables:
                league.enter(night_table)
            league.correct(tables[0])
            if point:
                building += time.perf_counter() - started
                label = plural(played, "night") if early is None else in_the_end
                say(f"  {label} built ({building:.0f} s so far): timing")
                measured = measure(league, night, tables, label, repeats)
                if early is None:
                    early = measured
                else:
                    late = measured
                started = time.perf_counter()
        if season_number < size.seasons - 1:
            league.close_season()
        so_far = building + time.perf_counter() - started
        say(f"  season {season_number + 1} of {size.seasons} built ({so_far:.0f} s so far)")
    building += time.perf_counter() - started
    return Outcome(build_seconds=building, early=early, late=late)


# --- the report --------------------------------------------------------------------------


def lines(outcome: Outcome, *, information: bool) -> list[str]:
    """One line per figure, then one per goal."""
    early, late = outcome.early, outcome.late
    out = [
        f"{'figure':<42} {early.label:>11} {late.label:>11} {'ratio':>7}  goal",
    ]
    misses: dict[str, list[str]] = {"page": [], "write": [], "ratio": []}
    for name in (*WRITES, *PAGES):
        before, after = early.times[name], late.times[name]
        ratio = after / before if before else float("inf")
        kind, goal = ("page", PAGE_GOAL_MS) if name in PAGES else ("write", WRITE_GOAL_MS)
        out.append(
            f"{name:<42} {before:>8.1f} ms {after:>8.1f} ms {ratio:>6.1f}x  "
            f"<= {goal:.0f} ms, <= {RATIO_GOAL}x"
        )
        if after > goal:
            misses[kind].append(f"{name} {after:.1f} ms")
        if ratio > RATIO_GOAL:
            misses["ratio"].append(f"{name} {ratio:.1f}x")
    prefix = "information (the goals are on SQLite)" if information else "goal"
    for kind, wording in (
        ("page", f"every page within {PAGE_GOAL_MS:.0f} ms at {late.label}"),
        ("write", f"every write within {WRITE_GOAL_MS:.0f} ms at {late.label}"),
        ("ratio", f"no figure over {RATIO_GOAL}x from {early.label} to {late.label}"),
    ):
        missed = misses[kind]
        verdict = f"MISSES ({'; '.join(missed)})" if missed else "holds"
        out.append(f"{prefix}: {wording}: {verdict}")
    return out


def record(path: Path, database: str, size: Size, outcome: Outcome) -> None:
    """Append the run's figures to `path` as one JSON line."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        ).stdout.strip()
    except OSError:
        commit = ""
    row = {
        "when": datetime.now().astimezone().isoformat(timespec="seconds"),
        "commit": commit,
        "database": database,
        "size": {"seasons": size.seasons, "nights": size.nights, "tables": size.tables},
        "build_seconds": round(outcome.build_seconds, 1),
        "points": {
            point.label: {
                "load": round(point.load, 2),
                "ms": {name: round(ms, 2) for name, ms in point.times.items()},
            }
            for point in (outcome.early, outcome.late)
        },
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as out:
        out.write(json.dumps(row) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--nights", type=int, default=30, help="Nights a season.")
    parser.add_argument("--tables", type=int, default=12, help="Tables of four a night.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", type=Path, help="Append the figures as JSON lines here.")
    args = parser.parse_args()
    if args.database == "both":
        # One database a process: Django is set up once.
        rest = [
            f"--{name}={getattr(args, name)}" for name in ("seasons", "nights", "tables", "seed")
        ]
        if args.record:
            rest.append(f"--record={args.record}")
        for database in ("sqlite", "postgres"):
            subprocess.run([sys.executable, __file__, f"--database={database}", *rest], check=True)
        return
    size = Size(args.seasons, args.nights, args.tables, args.seed)
    print(
        f"League history on {args.database}: {plural(size.seasons, 'season')} of "
        f"{plural(size.nights, 'night')}, "
        f"{size.tables} paper tables of four a night, {4 * size.tables} members",
        flush=True,
    )
    setup(args.database)

    def say(text: str) -> None:
        print(text, flush=True)

    outcome = run(size, say)
    print(
        f"built in {outcome.build_seconds:.0f} s (timing left out); load average "
        f"{outcome.early.load:.1f} and {outcome.late.load:.1f} as each point was timed"
    )
    for line in lines(outcome, information=args.database != "sqlite"):
        print(line)
    if args.record:
        record(args.record, args.database, size, outcome)


if __name__ == "__main__":
    main()

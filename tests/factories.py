"""Small factories for test records."""

from __future__ import annotations

from datetime import date
from itertools import count

from games import scorecards
from leagues.models import Club, League, LeagueNight, Membership, NightTable, Player, Season
from leagues.ratings.services import rate_from
from leagues.reporting.codes import give_code
from leagues.standings.services import score_night

PASSWORD = "a-long-test-passphrase-42"
_numbers = count(1)


def make_player(username: str | None = None, **fields) -> Player:
    username = username or f"player{next(_numbers)}"
    return Player.objects.create_user(username=username, password=PASSWORD, **fields)


def make_club(name: str | None = None, *, organiser: Player | None = None, members=()) -> Club:
    """A club, with an organiser and players as members when given."""
    number = next(_numbers)
    club = Club.objects.create(name=name or f"Club {number}", slug=f"club-{number}")
    if organiser is not None:
        Membership.objects.create(club=club, player=organiser, role=Membership.Role.ORGANISER)
        if not organiser.is_staff:
            organiser.is_staff = True
            organiser.save(update_fields=["is_staff"])
    for player in members:
        Membership.objects.create(club=club, player=player, role=Membership.Role.PLAYER)
    return club


def make_league(club: Club, *, variant: str = "play-nine", points: str = "6,4,2,0") -> League:
    return League.objects.create(
        club=club, name=f"League {next(_numbers)}", variant=variant, points_per_place=points
    )


def make_season(league: League, *, start=date(2026, 1, 1), end=date(2026, 12, 31)) -> Season:
    return Season.objects.create(
        league=league, name=f"Season {next(_numbers)}", start=start, end=end
    )


def make_night(season: Season, on: date = date(2026, 3, 1), **fields) -> LeagueNight:
    return LeagueNight.objects.create(season=season, date=on, **fields)


def open_table(night: LeagueNight, players) -> NightTable:
    """A paper table of the night with `players` seated in order, no results yet,
    with its card's code as seating gives it."""
    table = scorecards.open_paper_table(variant=night.season.league.variant, players=players)
    number = night.tables.count() + 1
    night_table = NightTable.objects.create(night=night, table=table, number=number)
    give_code(night_table=night_table)
    return night_table


def played_table(night: LeagueNight, players, holes) -> NightTable:
    """A finished paper table: `holes` is one list of strokes per hole (seat order)."""
    night_table = open_table(night, players)
    scorecards.record_paper_results(table=night_table.table, hole_scores=holes)
    return night_table


def settle(night: LeagueNight) -> None:
    """Score and rate `night`'s finished tables as the site's writes do, for tests that
    make its tables' records directly (the site's own writes score as they go)."""
    score_night(night)
    first = night.tables.filter(card_results__isnull=False).order_by("number").first()
    if first is not None:
        rate_from(night_table=first)


def even_holes(*totals: int, playoff=()) -> list[list[int | None]]:
    """Nine holes whose per-seat sums are `totals` (the rest of each total on hole 1)."""
    holes = [[1] * len(totals) for _ in range(9)]
    holes[0] = [total - 8 for total in totals]
    return holes + [list(row) for row in playoff]

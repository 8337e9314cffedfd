"""Data migrations of leagues, run on records made before them."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = pytest.mark.both_databases


BEFORE = [("games", "0002_live_play"), ("leagues", "0003_correction_removes_playoff_holes")]
AFTER = [("games", "0003_table_seats_assigned"), ("leagues", "0004_night_tables_seats_assigned")]


@pytest.mark.django_db(transaction=True)
def test_live_tables_of_nights_seated_before_the_flag_keep_their_seats_assigned():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    apps = executor.loader.project_state(BEFORE).apps
    Club = apps.get_model("leagues", "Club")
    Table = apps.get_model("games", "Table")
    NightTable = apps.get_model("leagues", "NightTable")
    club = Club.objects.create(name="Club", slug="club")
    league = apps.get_model("leagues", "League").objects.create(club=club, name="League")
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="Season", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    night = apps.get_model("leagues", "LeagueNight").objects.create(
        season=season, date=date(2026, 3, 1)
    )
    live = Table.objects.create(kind="live", invite_code="live")
    hand = Table.objects.create(kind="hand", invite_code="hand")
    Table.objects.create(kind="live", invite_code="lobby")  # a lobby table: no night
    NightTable.objects.create(night=night, table=live, number=1)
    NightTable.objects.create(night=night, table=hand, number=2)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    apps = executor.loader.project_state(AFTER).apps
    assigned = apps.get_model("games", "Table").objects.filter(seats_assigned=True)
    assert set(assigned.values_list("pk", flat=True)) == {live.pk}

    # Back to the newest state for the tests after this one.
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_paper_tables_seated_before_codes_came_with_the_seating_get_one():
    # Games as it stood then too: a later column of games' tables (NOT NULL, filled by
    # its default in Python) is missing from the records the old state makes.
    before = [("games", "0009_reviews_measured_anew"), ("leagues", "0018_events")]
    after = [("games", "0009_reviews_measured_anew"), ("leagues", "0019_paper_tables_have_codes")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Table = apps.get_model("games", "Table")
    NightTable = apps.get_model("leagues", "NightTable")
    TableReport = apps.get_model("leagues", "TableReport")
    club = apps.get_model("leagues", "Club").objects.create(name="Club", slug="club")
    league = apps.get_model("leagues", "League").objects.create(club=club, name="League")
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="Season", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    night = apps.get_model("leagues", "LeagueNight").objects.create(
        season=season, date=date(2026, 3, 1)
    )
    tables = {}
    for number, (kind, code) in enumerate(
        (("live", "live"), ("hand", "hand-1"), ("hand", "hand-2"), ("hand", "hand-3")), start=1
    ):
        table = Table.objects.create(kind=kind, invite_code=code)
        tables[code] = NightTable.objects.create(night=night, table=table, number=number)
    had = TableReport.objects.create(night_table=tables["hand-3"], code="ACDEFH")

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    codes = dict(
        apps.get_model("leagues", "TableReport").objects.values_list("night_table_id", "code")
    )
    assert set(codes) == {tables[c].pk for c in ("hand-1", "hand-2", "hand-3")}
    assert codes[tables["hand-3"].pk] == had.code  # a code already made stays
    assert len(set(codes.values())) == 3 and all(len(code) == 6 for code in codes.values())

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_results_played_before_card_figures_came_are_scored_once_the_newest_columns_are_in():
    """A database with results from before the cards' stored figures, migrated in one go:
    0021 cannot run the site's writes while later columns are missing, so the migrate
    command scores those cards once it is done."""
    before = [("games", "0009_reviews_measured_anew"), ("leagues", "0020_event_turn_timer")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Player = apps.get_model("leagues", "Player")
    Scorecard = apps.get_model("games", "Scorecard")
    ann, bea = (
        Player.objects.create(username=name, username_key=name, display_name=name)
        for name in ("ann", "bea")
    )
    club = apps.get_model("leagues", "Club").objects.create(name="Club", slug="club")
    league = apps.get_model("leagues", "League").objects.create(club=club, name="League")
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="Season", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    night = apps.get_model("leagues", "LeagueNight").objects.create(
        season=season, date=date(2026, 3, 1)
    )
    table = apps.get_model("games", "Table").objects.create(
        kind="hand", status="finished", invite_code="old", seat_count=2
    )
    apps.get_model("leagues", "NightTable").objects.create(night=night, table=table, number=1)
    for position, (player, strokes) in enumerate(((ann, 2), (bea, 4))):
        card = Scorecard.objects.create(
            table=table, position=position, player=player, name=player.display_name,
            total=9 * strokes, place=position + 1,
        )  # fmt: skip
        for number in range(1, 10):
            apps.get_model("games", "ScorecardHole").objects.create(
                scorecard=card, number=number, strokes=strokes
            )

    call_command("migrate", verbosity=0)
    from leagues.models import CardResult

    results = dict(CardResult.objects.values_list("counts_for__username", "place"))
    assert results == {"ann": 1, "bea": 2}


@pytest.mark.django_db(transaction=True)
def test_cards_stored_before_pairs_were_get_the_pairs_of_their_live_holes():
    """A live table's stored figures get the pairs its holes' final layouts show (a hole
    not over counts for nothing, a seat out of a hole neither); a paper table's, none."""
    before = [("games", "0010_turn_based_tables"), ("leagues", "0029_online_rounds")]
    after = [("games", "0010_turn_based_tables"), ("leagues", "0030_card_pairs_made")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Table = apps.get_model("games", "Table")
    Scorecard = apps.get_model("games", "Scorecard")
    Hole = apps.get_model("games", "Hole")
    CardResult = apps.get_model("leagues", "CardResult")
    club = apps.get_model("leagues", "Club").objects.create(name="Club", slug="club")
    league = apps.get_model("leagues", "League").objects.create(club=club, name="League")
    season = apps.get_model("leagues", "Season").objects.create(
        league=league, name="Season", start=date(2026, 1, 1), end=date(2026, 12, 31)
    )
    night = apps.get_model("leagues", "LeagueNight").objects.create(
        season=season, date=date(2026, 3, 1)
    )
    results = {}
    for number, (kind, code) in enumerate((("live", "live"), ("hand", "hand")), start=1):
        table = Table.objects.create(kind=kind, invite_code=code, status="finished", seat_count=3)
        night_table = apps.get_model("leagues", "NightTable").objects.create(
            night=night, table=table, number=number
        )
        for position in range(3):
            card = Scorecard.objects.create(table=table, position=position, name=f"P{position}")
            results[code, position] = CardResult.objects.create(
                scorecard=card, night_table=night_table, rated=True, holes=9, points=0
            )
    live = Table.objects.get(invite_code="live")
    pairs = [3, 3, 7, 7, 3, 3, 1, 2]  # two pairs in Play Nine
    none = [5, 6, 7, 8, 9, 10, 11, 12]
    for number, phase, seats, layouts in (
        (1, "over", [0, 1], [pairs, none]),
        (2, "over", [0, 1, 2], [none, pairs, pairs]),
        (3, "play", [0, 1, 2], [pairs, pairs, pairs]),
    ):
        Hole.objects.create(
            table=live,
            number=number,
            dealer=0,
            seat_positions=seats,
            state={"phase": phase, "variant": "play-nine", "layouts": layouts},
        )

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    made = {
        key: tuple(
            apps.get_model("leagues", "CardResult")
            .objects.filter(pk=result.pk)
            .values_list("pairs", "pairs_holes")
            .get()
        )
        for key, result in results.items()
    }
    assert made == {
        ("live", 0): (2, 2),
        ("live", 1): (2, 2),
        ("live", 2): (2, 1),
        ("hand", 0): (0, 0),
        ("hand", 1): (0, 0),
        ("hand", 2): (0, 0),
    }

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_players_figures_are_summed_from_the_cards_stored_before_them():
    """Each stored card gets its total and the spread of its regulation holes, and each
    player their figures in each league: matches, wins, strokes, pairs and spread."""
    before = [("games", "0010_turn_based_tables"), ("leagues", "0030_card_pairs_made")]
    after = [("games", "0010_turn_based_tables"), ("leagues", "0031_player_figures")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Player = apps.get_model("leagues", "Player")
    Scorecard = apps.get_model("games", "Scorecard")
    ann, bea = (
        Player.objects.create(username=name, username_key=name, display_name=name)
        for name in ("ann", "bea")
    )
    club = apps.get_model("leagues", "Club").objects.create(name="Club", slug="club")
    leagues = [
        apps.get_model("leagues", "League").objects.create(club=club, name=name)
        for name in ("Tuesday", "Friday")
    ]
    # Ann plays two nights of Tuesday's league and one of Friday's; Bea one of Tuesday's.
    played = [(leagues[0], [(ann, 2, 1), (bea, 3, 2)]), (leagues[0], [(ann, 4, 2)])]
    played.append((leagues[1], [(ann, 1, 1)]))
    for number, (league, cards) in enumerate(played):
        season = apps.get_model("leagues", "Season").objects.create(
            league=league, name=f"S{number}", start=date(2026, 1, 1), end=date(2026, 12, 31)
        )
        night = apps.get_model("leagues", "LeagueNight").objects.create(
            season=season, date=date(2026, 3, 1 + number)
        )
        table = apps.get_model("games", "Table").objects.create(
            kind="hand", status="finished", invite_code=f"t{number}", seat_count=2
        )
        night_table = apps.get_model("leagues", "NightTable").objects.create(
            night=night, table=table, number=1
        )
        for position, (player, strokes, place) in enumerate(cards):
            card = Scorecard.objects.create(
                table=table, position=position, player=player, name=player.display_name,
                total=8 * strokes + 5, place=place,
            )  # fmt: skip
            for hole in range(1, 11):  # hole 10: a playoff, in no spread
                apps.get_model("games", "ScorecardHole").objects.create(
                    scorecard=card, number=hole, strokes=5 if hole == 1 else strokes
                )
            apps.get_model("leagues", "CardResult").objects.create(
                scorecard=card, night_table=night_table, rated=True, holes=9, points=0,
                place=place, pairs=place, pairs_holes=2,
            )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    cards = apps.get_model("leagues", "CardResult").objects.order_by("pk")
    assert list(cards.values_list("strokes", "spread")) == [
        (21, {"2": 8, "5": 1}),
        (29, {"3": 8, "5": 1}),
        (37, {"4": 8, "5": 1}),
        (13, {"1": 8, "5": 1}),
    ]
    figures = apps.get_model("leagues", "PlayerFigures").objects.values_list(
        "league__name", "player__username", "played", "wins", "strokes", "pairs", "spread"
    )
    assert sorted(figures) == [
        ("Friday", "ann", 1, 1, 13, 1, {"1": 8, "5": 1}),
        ("Tuesday", "ann", 2, 1, 58, 3, {"2": 8, "4": 8, "5": 2}),
        ("Tuesday", "bea", 1, 0, 29, 2, {"3": 8, "5": 1}),
    ]

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    from leagues.models import League
    from leagues.standings.figures import rebuild

    assert [rebuild(league) for league in League.objects.all()] == [0, 0]


@pytest.mark.django_db(transaction=True)
def test_corrections_made_before_they_kept_their_league_get_their_scorecard_s():
    """Each correction gets the league of its card's table's night, in each of two leagues;
    and the step back drops the column again."""
    before = [("games", "0010_turn_based_tables"), ("leagues", "0031_player_figures")]
    after = [("games", "0010_turn_based_tables"), ("leagues", "0032_correction_league")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Scorecard = apps.get_model("games", "Scorecard")
    ScoreCorrection = apps.get_model("leagues", "ScoreCorrection")
    club = apps.get_model("leagues", "Club").objects.create(name="Club", slug="club")
    corrections = {}
    for name in ("Mondays", "Thursdays"):
        league = apps.get_model("leagues", "League").objects.create(club=club, name=name)
        season = apps.get_model("leagues", "Season").objects.create(
            league=league, name="Season", start=date(2026, 1, 1), end=date(2026, 12, 31)
        )
        night = apps.get_model("leagues", "LeagueNight").objects.create(
            season=season, date=date(2026, 3, 1)
        )
        table = apps.get_model("games", "Table").objects.create(
            kind="hand", status="finished", invite_code=name, seat_count=2
        )
        apps.get_model("leagues", "NightTable").objects.create(night=night, table=table, number=1)
        for position in range(2):
            card = Scorecard.objects.create(table=table, position=position, name=f"P{position}")
            correction = ScoreCorrection.objects.create(
                scorecard=card, hole_number=1, old_strokes=3, new_strokes=4, reason="Misread"
            )
            corrections[correction.pk] = league.pk

    executor = MigrationExecutor(connection)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    ScoreCorrection = apps.get_model("leagues", "ScoreCorrection")
    assert dict(ScoreCorrection.objects.values_list("pk", "league_id")) == corrections

    executor = MigrationExecutor(connection)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    assert apps.get_model("leagues", "ScoreCorrection").objects.count() == 4

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

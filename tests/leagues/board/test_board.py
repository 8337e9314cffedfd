"""The night's board: its link (made, renewed and revoked by organisers, opened by
anyone who has it), what it shows of the night, and the news that redraws it."""

from __future__ import annotations

import random
import re
from datetime import date

import pytest
from django.urls import reverse

from games import announce, lobby
from games.models import Hole, ScorecardHole, Table
from leagues import news, signals
from leagues.board import selectors, services
from leagues.models import League, LeagueNight, NightBoard, NightHandicap, NightTable, Player
from leagues.reporting import services as reporting
from leagues.results.services import correct_score, enter_night_results
from leagues.seating.services import seat_night
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
)
from tests.games.helpers import finish_hole

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def people_of(night_table: NightTable) -> dict[int, Player]:
    return {s.position: s.player for s in night_table.table.seats.select_related("player")}


def live_night(*, duplicate: bool = False, players: int = 4) -> tuple[LeagueNight, Player, list]:
    """Olive's night of two-seat live tables, none started yet."""
    olive = make_player("olive", display_name="Olive")
    people = [make_player(f"p{n}", display_name=f"P{n}") for n in range(players)]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=duplicate)
    night.players.set(people)
    tables = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, rng=random.Random(5)
    )
    return night, olive, sorted(tables, key=lambda nt: nt.number)


def strokes_shown(board: selectors.Board, number: int) -> list[int]:
    (table,) = [t for t in board.tables if t.number == number]
    return [s for card in table.cards for s in (*card.holes, *card.playoff) if s is not None]


# --- the link -------------------------------------------------------------------------


def test_an_organiser_makes_one_link_per_night_and_renewing_revokes_the_old():
    night, olive, _tables = live_night()
    board = services.create_board(night=night, by=olive)
    assert len(board.token) >= 43 and board.created_by == olive and not board.revoked
    # Asked again, the night keeps its link.
    assert services.create_board(night=night, by=olive) == board
    renewed = services.renew_board(night=night, by=olive)
    board.refresh_from_db()
    assert board.revoked and board.revoked_at is not None
    assert renewed.token != board.token and not renewed.revoked
    assert selectors.live_board(night) == renewed
    assert services.revoke_board(night=night, by=olive) == 1
    assert selectors.live_board(night) is None
    assert services.revoke_board(night=night, by=olive) == 0


def test_only_the_clubs_organisers_make_renew_or_revoke_the_link(client):
    night, olive, tables = live_night()
    member = tables[0].table.seats.first().player
    outsider = make_player("zed")
    actions = ("leagues:board_create", "leagues:board_renew", "leagues:board_revoke")
    for name in actions:
        url = reverse(name, args=[night.pk])
        client.logout()
        assert client.post(url).status_code == 302  # to the log-in page
        client.force_login(member)
        assert client.post(url).status_code == 403
        client.force_login(outsider)
        assert client.post(url).status_code == 404
        assert client.get(url).status_code in (404, 405)
    assert not NightBoard.objects.exists()
    # A member sees no link on the night's page; the organiser makes one there.
    client.force_login(member)
    assert "Board for the room" not in client.get(night.get_absolute_url()).content.decode()
    client.force_login(olive)
    response = client.post(reverse("leagues:board_create", args=[night.pk]), follow=True)
    board = NightBoard.objects.get()
    page = response.content.decode()
    assert "Board for the room" in page and f"/leagues/board/{board.token}/" in page
    client.force_login(member)
    assert board.token not in client.get(night.get_absolute_url()).content.decode()


def test_the_link_opens_the_board_without_signing_in_until_it_is_revoked(client):
    night, olive, _tables = live_night()
    board = services.create_board(night=night, by=olive)
    response = client.get(board.get_absolute_url())
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="board"' in page and f'ws-connect="/ws/board/{board.token}/"' in page
    assert "Table 1" in page and "Table 2" in page and "P0" in page
    assert response["X-Robots-Tag"].startswith("noindex")
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]

    client.force_login(olive)
    client.post(reverse("leagues:board_renew", args=[night.pk]))
    client.logout()
    gone = client.get(board.get_absolute_url())
    assert gone.status_code == 410
    assert "no longer works" in gone.content.decode()
    assert client.get(selectors.live_board(night).get_absolute_url()).status_code == 200
    unknown = client.get(reverse("leagues:board", args=["not-a-board-" + "x" * 30]))
    assert unknown.status_code == 404 and "No such board" in unknown.content.decode()


# --- what it shows -----------------------------------------------------------------------


def test_the_board_shows_each_finished_hole_where_each_table_is_and_the_standings():
    night, olive, (first, second) = live_night()
    board = selectors.night_board(night)
    assert [t.where for t in board.tables] == ["Not started", "Not started"]
    assert all(len(t.cards) == 2 for t in board.tables)

    lobby.start_match(table=first.table, by=olive)
    finish_hole(first.table_id, people_of(first))
    board = selectors.night_board(night)
    hole_1 = ScorecardHole.objects.filter(scorecard__table=first.table, number=1)
    assert sorted(strokes_shown(board, 1)) == sorted(h.strokes for h in hole_1)
    assert board.tables[0].where in ("Hole 2 next", "Hole 2")
    assert strokes_shown(board, 2) == []
    # The standings: everyone at the night, those who played a hole first.
    assert [line.thru for line in board.standings] == [1, 1, 0, 0]
    assert {line.table for line in board.standings[:2]} == {1}
    assert not board.show_matchpoints


def test_a_hole_in_play_shows_no_strokes_and_its_column_is_marked():
    night, olive, (first, _second) = live_night()
    lobby.start_match(table=first.table, by=olive)
    board = selectors.night_board(night)
    (table,) = [t for t in board.tables if t.number == 1]
    assert table.where == "Hole 1" and table.playing == 1
    assert strokes_shown(board, 1) == []


def test_a_paper_table_shows_its_strokes_once_entered_and_corrected():
    night, olive, _tables = live_night()
    paper = open_table(night, list(night.players.all()[:2]))
    assert [t.where for t in selectors.night_board(night).tables][-1] == "On paper"
    enter_night_results(night_table=paper, hole_scores=even_holes(20, 25), by=olive)
    board = selectors.night_board(night)
    (table,) = [t for t in board.tables if t.number == paper.number]
    assert table.where == "Finished" and table.finished
    assert sorted(card.total for card in table.cards) == [20, 25]
    assert [card.place for card in table.cards if card.total == 20] == [1]
    card = paper.table.scorecards.get(position=1)
    correct_score(scorecard=card, number=2, strokes=3, reason="Misread", by=olive)
    (table,) = [t for t in selectors.night_board(night).tables if t.number == paper.number]
    assert sorted(c.total for c in table.cards) == [20, 27]


def test_the_stamp_changes_with_what_the_board_shows_and_only_then():
    night, olive, (first, _second) = live_night()
    before = selectors.night_board(night).stamp
    assert selectors.night_board(night).stamp == before
    lobby.start_match(table=first.table, by=olive)
    started = selectors.night_board(night).stamp
    assert started != before
    finish_hole(first.table_id, people_of(first))
    assert selectors.night_board(night).stamp != started


def test_on_a_duplicate_night_no_table_shows_a_deal_another_table_still_plays():
    """Both tables deal the same cards: the first table's hole 1 shows nowhere until the
    second has played it too; then both show, with matchpoints."""
    night, olive, (first, second) = live_night(duplicate=True)
    assert first.table.deal_seed == second.table.deal_seed
    for night_table in (first, second):
        lobby.start_match(table=night_table.table, by=olive)
    finish_hole(first.table_id, people_of(first))
    board = selectors.night_board(night)
    assert strokes_shown(board, 1) == [] and strokes_shown(board, 2) == []
    assert board.tables[0].waiting
    assert all(line.thru == 0 and line.matchpoints == "" for line in board.standings)

    finish_hole(second.table_id, people_of(second))
    board = selectors.night_board(night)
    assert len(strokes_shown(board, 1)) == 2 and len(strokes_shown(board, 2)) == 2
    assert board.show_matchpoints
    assert all(line.thru == 1 and line.matchpoints.endswith("%") for line in board.standings)
    # Matchpoints come first when the league earns points by them.
    League.objects.filter(pk=night.season.league_id).update(
        night_points=League.NightPoints.MATCHPOINTS
    )
    night = LeagueNight.objects.select_related("season__league").get(pk=night.pk)
    board = selectors.night_board(night)
    assert board.order.startswith("By matchpoints")
    percentages = [int(line.matchpoints.rstrip("%")) for line in board.standings]
    assert percentages == sorted(percentages, reverse=True)


def test_net_strokes_show_where_the_league_has_handicaps():
    night, olive, (first, _second) = live_night()
    lobby.start_match(table=first.table, by=olive)
    finish_hole(first.table_id, people_of(first))
    assert not selectors.night_board(night).show_net
    player = first.table.seats.get(position=0).player
    NightHandicap.objects.update_or_create(
        night=night, player=player, defaults={"numerator": 3, "denominator": 2}
    )
    board = selectors.night_board(night)
    assert board.show_net
    (line,) = [line for line in board.standings if line.name == player.name]
    assert line.net == f"{line.gross - 1.5:.1f}"


def test_more_tables_than_a_screen_holds_take_pages():
    night, _olive, _tables = live_night(players=16)
    board = selectors.night_board(night)
    assert len(board.tables) == 8
    assert [len(page) for page in board.table_pages] == [6, 2]
    assert [len(page) for page in board.standing_pages] == [16]


# --- the news -------------------------------------------------------------------------


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, dict]]:
    """What the channel layer was handed, by group."""
    messages: list[tuple[str, dict]] = []
    monkeypatch.setattr(announce, "_send", lambda group, message: messages.append((group, message)))
    return messages


def board_news(sent, night) -> list[dict]:
    return [message for group, message in sent if group == services.night_group(night.pk)]


def test_results_entered_and_corrected_tell_the_nights_boards_after_the_commit(
    sent, django_capture_on_commit_callbacks
):
    night, olive, _tables = live_night()
    paper = open_table(night, list(night.players.all()[:2]))
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        enter_night_results(night_table=paper, hole_scores=even_holes(20, 25), by=olive)
    assert board_news(sent, night) == []  # nothing before the commit
    for callback in waiting:
        callback()
    assert board_news(sent, night) == [{"type": "night.changed"}]
    with django_capture_on_commit_callbacks(execute=True):
        correct_score(
            scorecard=paper.table.scorecards.first(), number=3, strokes=2, reason="Typo", by=olive
        )
    assert board_news(sent, night)[-1] == {"type": "night.changed"}


def test_a_nights_news_reaches_any_room_that_hears_it_without_the_writes_knowing_it():
    """Results entered and corrected, and a live table teeing off, are sent as the
    night's news: a room that starts showing a night connects, and no write changes."""
    night, olive, (first, _second) = live_night()
    paper = open_table(night, list(night.players.all()[:2]))
    heard: list[int] = []

    def listen(sender, night_id: int, **kwargs) -> None:
        heard.append(night_id)

    news.night_changed.connect(listen)
    try:
        enter_night_results(night_table=paper, hole_scores=even_holes(20, 25), by=olive)
        correct_score(
            scorecard=paper.table.scorecards.first(), number=3, strokes=2, reason="Typo", by=olive
        )
        lobby.start_match(table=first.table, by=olive)
        finish_hole(first.table_id, people_of(first))
    finally:
        news.night_changed.disconnect(listen)
    assert heard == [night.pk] * 3


def test_a_live_tables_finished_hole_tells_the_nights_boards(
    sent, django_capture_on_commit_callbacks
):
    night, olive, (first, _second) = live_night()
    lobby.start_match(table=first.table, by=olive)
    with django_capture_on_commit_callbacks(execute=True):
        finish_hole(first.table_id, people_of(first))
    assert board_news(sent, night) == [{"type": "night.changed"}]


def test_a_casual_tables_hole_costs_the_board_not_one_query(django_assert_num_queries):
    ana = make_player("ana")
    table = lobby.create_table(host=ana, variant="play-nine", seat_count=2, players=[ana])
    hole = Hole(table=table, number=1, dealer=0)
    with django_assert_num_queries(0):
        signals.board_shows_finished_hole(sender=Hole, hole=hole, seats={}, table=table)


def test_revoking_tells_the_open_boards(sent, django_capture_on_commit_callbacks):
    night, olive, _tables = live_night()
    services.create_board(night=night, by=olive)
    with django_capture_on_commit_callbacks(execute=True):
        services.revoke_board(night=night, by=olive)
    assert board_news(sent, night) == [{"type": "board.revoked"}]


def test_the_board_page_carries_no_card_and_no_inline_script_or_style(client):
    from tests.test_content_security_policy import INLINE

    night, olive, (first, _second) = live_night()
    lobby.start_match(table=first.table, by=olive)
    board = services.create_board(night=night, by=olive)
    page = client.get(board.get_absolute_url()).content.decode()
    assert not INLINE.findall(page)
    assert not re.search(r'class="card[ "]', page)


def test_the_admin_lists_a_clubs_board_links_for_its_organisers_and_revokes_them(client):
    night, olive, _tables = live_night()
    board = services.create_board(night=night, by=olive)
    rex = make_player("rex")
    rival = make_night(make_season(make_league(make_club(organiser=rex))), date(2026, 3, 2))
    services.create_board(night=rival, by=rex)
    client.force_login(olive)
    html = client.get("/admin/leagues/nightboard/").content.decode()
    assert str(night) in html and str(rival) not in html
    assert board.token not in html.split("<tbody>", 1)[-1].split("</tbody>")[0]
    response = client.post(
        "/admin/leagues/nightboard/",
        {"action": "revoke", "_selected_action": [board.pk]},
    )
    assert response.status_code == 302
    board.refresh_from_db()
    assert board.revoked
    assert NightBoard.objects.filter(night=rival, revoked=False).exists()


# --- paper tables reporting from their phones ------------------------------------------


def _reported_hole(report, number, strokes, by, checker) -> None:
    reporting.enter_hole(report=report, number=number, strokes=strokes, version=0, by=by)
    version = report.holes.get(number=number).version
    reporting.confirm_hole(report=report, number=number, version=version, by=checker)


def test_a_paper_table_shows_each_hole_its_players_confirm_from_their_phones(
    sent, django_capture_on_commit_callbacks
):
    night, olive, _tables = live_night()
    ann, bob = make_player("ann", display_name="Ann"), make_player("bob", display_name="Bob")
    paper = open_table(night, [ann, bob])
    report = paper.report
    with django_capture_on_commit_callbacks(execute=True):
        reporting.enter_hole(report=report, number=1, strokes=[4, 6], version=0, by=ann)
    assert strokes_shown(selectors.night_board(night), paper.number) == []  # not confirmed
    assert board_news(sent, night) == []
    version = report.holes.get(number=1).version
    with django_capture_on_commit_callbacks(execute=True):
        reporting.confirm_hole(report=report, number=1, version=version, by=bob)
    assert board_news(sent, night) == [{"type": "night.changed"}]
    board = selectors.night_board(night)
    (table,) = [t for t in board.tables if t.number == paper.number]
    assert [card.holes[0] for card in table.cards] == [4, 6]
    assert table.where == "On paper, Hole 2" and not table.finished
    assert {(line.name, line.thru, line.gross) for line in board.standings} >= {
        ("Ann", 1, 4),
        ("Bob", 1, 6),
    }


def test_on_a_duplicate_night_a_paper_table_and_a_live_one_wait_for_each_other():
    """A paper table dealt the same cards as a live one: neither table's first hole shows
    until both have played it, the paper table's as its players confirmed it."""
    night, olive, (first, second) = live_night(duplicate=True)
    ann, bob = make_player("ann", display_name="Ann"), make_player("bob", display_name="Bob")
    paper = open_table(night, [ann, bob])
    Table.objects.filter(pk=paper.table_id).update(deal_seed=first.table.deal_seed)
    report = paper.report
    for night_table in (first, second):
        lobby.start_match(table=night_table.table, by=olive)
        finish_hole(night_table.table_id, people_of(night_table))
    board = selectors.night_board(night)
    assert strokes_shown(board, first.number) == []  # the paper table has yet to play it
    _reported_hole(report, 1, [5, 3], ann, bob)
    board = selectors.night_board(night)
    assert len(strokes_shown(board, first.number)) == 2
    assert strokes_shown(board, paper.number) == [5, 3]
    # Its second hole waits for the live tables' second.
    _reported_hole(report, 2, [2, 7], ann, bob)
    assert strokes_shown(selectors.night_board(night), paper.number) == [5, 3]


def test_twin_paper_tables_reporting_from_phones_earn_matchpoints_on_the_board():
    """Two paper tables dealt the same cards, both still reporting: the holes both have
    confirmed are compared at once; a hole only one has played counts nowhere, nor does
    one confirmed past a hole the other has not (the board still hides it)."""
    olive = make_player("olive", display_name="Olive")
    ann, bob, cy, di = (make_player(n.lower(), display_name=n) for n in ("Ann", "Bob", "Cy", "Di"))
    club = make_club(organiser=olive, members=[ann, bob, cy, di])
    night = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=True)
    first, second = open_table(night, [ann, bob]), open_table(night, [cy, di])
    Table.objects.filter(pk=second.table_id).update(deal_seed=first.table.deal_seed)
    _reported_hole(first.report, 1, [3, 5], ann, bob)
    board = selectors.night_board(night)
    assert board.show_matchpoints
    assert all(line.matchpoints == "" for line in board.standings)  # nothing to compare
    for number, strokes in ((2, [4, 4]), (3, [1, 9]), (4, [2, 2])):
        _reported_hole(first.report, number, strokes, ann, bob)
    _reported_hole(second.report, 1, [4, 4], cy, di)
    _reported_hole(second.report, 2, [4, 5], cy, di)
    _reported_hole(second.report, 4, [9, 9], cy, di)  # its hole 3 is still to confirm
    board = selectors.night_board(night)
    # Hole 1: Ann 3 beats Cy 4, Di 4 beats Bob 5; hole 2: Ann and Cy tie, Bob 4 beats Di 5.
    assert {line.name: line.matchpoints for line in board.standings} == {
        "Ann": "75%",
        "Bob": "50%",
        "Cy": "25%",
        "Di": "50%",
    }
    assert {line.name: line.thru for line in board.standings} == {
        "Ann": 2,
        "Bob": 2,
        "Cy": 3,
        "Di": 3,
    }

"""Seating a night: even tables, random or snake-seeded by rating, duplicate deals, live tables."""

from __future__ import annotations

import random
from datetime import date

import pytest
from django.urls import reverse

from games import lobby
from games import services as game_services
from games.models import Table
from leagues.models import Rating
from leagues.seating.dealing import snake_order, table_sizes
from leagues.seating.services import SeatingError, seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.mark.parametrize(
    ("players", "seats", "sizes"),
    [(8, 4, [4, 4]), (10, 4, [4, 3, 3]), (9, 4, [3, 3, 3]), (5, 6, [5]), (0, 4, [])],
)
def test_table_sizes_are_as_even_as_can_be(players, seats, sizes):
    assert table_sizes(players, seats) == sizes


def test_snake_order_deals_best_first_there_and_back():
    assert snake_order(list("ABCDEFGH"), [4, 4]) == [list("ADEH"), list("BCFG")]
    assert snake_order(list("ABCDEFGHIJ"), [4, 3, 3]) == [
        list("AFGJ"),
        list("BEH"),
        list("CDI"),
    ]


@pytest.fixture
def night_of(db):
    def build(count: int, *, duplicate: bool = False, variant: str = "play-nine"):
        organiser = make_player()
        players = [make_player(f"p{i:02d}") for i in range(count)]
        league = make_league(make_club(organiser=organiser, members=players), variant=variant)
        night = make_night(make_season(league), date(2026, 3, 1), duplicate_deals=duplicate)
        night.players.set(players)
        return organiser, players, night

    return build


def seated(night):
    return [
        [seat.player for seat in nt.table.seats.order_by("position")]
        for nt in night.tables.order_by("number")
    ]


def test_random_seating_seats_everyone_once_at_paper_tables(night_of):
    organiser, players, night = night_of(10)
    tables = seat_night(night=night, by=organiser, seats_per_table=4, rng=random.Random(1))
    assert [nt.number for nt in tables] == [1, 2, 3]
    assert sorted(len(t) for t in seated(night)) == [3, 3, 4]
    assert sorted(p.pk for t in seated(night) for p in t) == sorted(p.pk for p in players)
    assert all(nt.table.kind == Table.Kind.PAPER for nt in tables)
    assert all(nt.table.scorecards.count() == len(nt.table.seats.all()) for nt in tables)


def test_balanced_seating_snakes_by_rating(night_of):
    organiser, players, night = night_of(8)
    league = night.season.league
    for rank, player in enumerate(players):
        Rating.objects.create(league=league, player=player, mu=40 - rank, sigma=2, matches=3)
    seat_night(night=night, by=organiser, method="balanced", seats_per_table=4)
    p = players
    assert seated(night) == [[p[0], p[3], p[4], p[7]], [p[1], p[2], p[5], p[6]]]


def test_duplicate_nights_share_a_deal_seed_per_table_size(night_of):
    organiser, _, night = night_of(10, duplicate=True)
    tables = seat_night(night=night, by=organiser, seats_per_table=4)
    seeds = {}
    for nt in tables:
        seeds.setdefault(nt.table.seat_count, set()).add(nt.table.deal_seed)
    assert {size: len(s) for size, s in seeds.items()} == {4: 1, 3: 1}
    assert seeds[4] != seeds[3]


def test_ordinary_nights_deal_every_table_its_own_seed(night_of):
    organiser, _, night = night_of(9)
    tables = seat_night(night=night, by=organiser, seats_per_table=3)
    assert len({nt.table.deal_seed for nt in tables}) == 3


def test_too_few_players_for_the_variant_is_refused(night_of):
    organiser, _, night = night_of(2, variant="golf-4")
    with pytest.raises(SeatingError, match="3 to 7"):
        seat_night(night=night, by=organiser, seats_per_table=2)
    with pytest.raises(SeatingError, match="cannot fill"):
        seat_night(night=night, by=organiser, seats_per_table=4)
    assert not night.tables.exists()


def test_seating_again_replaces_tables_without_results(night_of):
    organiser, _, night = night_of(8)
    first = seat_night(night=night, by=organiser, seats_per_table=4)
    seat_night(night=night, by=organiser, seats_per_table=2)
    assert night.tables.count() == 4
    assert not Table.objects.filter(pk__in=[nt.table.pk for nt in first]).exists()


def test_live_tables_are_private_live_tables_seated_with_the_night_players(night_of):
    """Live night tables come from live play's service, seated, private, deals shared."""
    organiser, players, night = night_of(6, duplicate=True)
    tables = seat_night(night=night, by=organiser, seats_per_table=3, kind=Table.Kind.LIVE)
    assert len(tables) == 2
    seated = set()
    for night_table in tables:
        table = night_table.table
        assert table.kind == Table.Kind.LIVE
        assert table.status == Table.Status.OPEN
        assert not table.is_public
        assert table.seat_count == 3
        seated |= {seat.player_id for seat in table.seats.all()}
    assert seated == {p.pk for p in players}
    assert len({nt.table.deal_seed for nt in tables}) == 1


def test_a_seat_at_a_live_night_table_is_neither_given_up_nor_taken_by_another(client, night_of):
    """A member who leaves and hands the invite link to an outsider would have the
    outsider play in the league: the organiser's seating stands."""
    organiser, players, night = night_of(2)
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE)
    table = night_table.table
    assert table.seats_assigned
    member, outsider = players[0], make_player("outsider")
    seats = [(s.position, s.player_id) for s in table.seats.order_by("position")]
    version = table.version
    message = "The organiser assigns the seats at this table."

    client.force_login(member)
    page = client.get(table.get_absolute_url()).content.decode()
    assert message in page and "Leave the table" not in page and "Invite players" not in page
    response = client.post(reverse("games:leave", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert message in response.content.decode()

    client.force_login(outsider)
    client.get(reverse("games:invite", args=[table.invite_code]))
    page = client.get(table.get_absolute_url()).content.decode()
    assert "Sit here" not in page and "You are watching" in page
    for position in ("", "0", "1"):
        response = client.post(
            reverse("games:join", args=[table.pk]), {"position": position}, HTTP_HX_REQUEST="true"
        )
        assert message in response.content.decode()
    with pytest.raises(game_services.GameError, match=message):
        lobby.join_table(table=table, player=outsider)
    with pytest.raises(game_services.GameError, match=message):
        lobby.leave_table(table=table, player=member)

    table.refresh_from_db()
    assert table.version == version
    assert [(s.position, s.player_id) for s in table.seats.order_by("position")] == seats
    # The organiser starts the match with the players seated.
    lobby.start_match(table=table, by=organiser)
    assert {c.player for c in table.scorecards.all()} == set(players)


def test_a_table_opened_in_the_lobby_still_takes_and_gives_up_seats(client):
    host, guest = make_player(), make_player()
    table = lobby.create_table(host=host, variant="golf-6", seat_count=2, players=[host])
    assert not table.seats_assigned
    client.force_login(guest)
    assert "Sit here" in client.get(table.get_absolute_url()).content.decode()
    client.post(reverse("games:join", args=[table.pk]))
    assert "Leave the table" in client.get(table.get_absolute_url()).content.decode()
    client.post(reverse("games:leave", args=[table.pk]))
    assert not table.seats.filter(player=guest).exists()


def test_the_seating_page_reports_what_went_wrong(client, night_of):
    organiser, _, night = night_of(1)
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:night_seat", args=[night.pk]),
        {"method": "random", "seats_per_table": 4, "kind": "hand"},
    )
    assert response.status_code == 400
    assert "1 player present cannot fill tables" in response.content.decode()


def test_the_seating_form_keeps_the_choices_made(client, night_of):
    organiser, _, night = night_of(4)
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:night_seat", args=[night.pk]),
        {"method": "balanced", "seats_per_table": 2, "kind": "live"},
    )
    assert response.status_code == 302
    form = client.get(response["Location"]).context["seating_form"]
    html = str(form)
    assert 'name="seats_per_table" value="2"' in html
    assert '<option value="balanced" selected>' in html
    assert '<option value="live" selected>' in html


def test_an_organiser_without_a_seat_opens_and_starts_a_live_night_table(client, night_of):
    """The organiser hosts the night's live tables without sitting at them: the page
    opens for them and their "Start the match" deals the first hole; a seated member
    still may not start it, and a member of no table may not even see it."""
    organiser, players, night = night_of(2)
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=2, kind=Table.Kind.LIVE)
    table = night_table.table
    assert table.host_id == organiser.pk
    assert not table.seats.filter(player=organiser).exists()

    client.force_login(players[0])
    response = client.post(reverse("games:start", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert "Only the host can start the match." in response.content.decode()
    client.force_login(make_player("stranger"))
    assert client.get(table.get_absolute_url()).status_code == 404

    client.force_login(organiser)
    response = client.get(table.get_absolute_url())
    assert response.status_code == 200
    assert "Start the match" in response.content.decode()
    response = client.post(reverse("games:start", args=[table.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert table.holes.count() == 1
    assert client.get(table.get_absolute_url()).status_code == 200


def test_the_nights_page_shows_who_sits_where_at_a_live_table_before_it_starts(client, night_of):
    """A live table has no scorecards until its match starts: the night's page lists
    its seats meanwhile, so the organiser sees who sits where (a bot's seat as a bot)."""
    organiser, players, night = night_of(3)
    (night_table,) = seat_night(night=night, by=organiser, seats_per_table=3, kind=Table.Kind.LIVE)
    table = night_table.table
    bot_seat = table.seats.order_by("position").last()
    bot_seat.player, bot_seat.bot_level = None, "expert"
    bot_seat.save()
    client.force_login(organiser)
    html = client.get(night.get_absolute_url()).content.decode()
    seats = html.split('class="seated-list"')[1].split("</ol>")[0]
    for seat in table.seats.order_by("position"):
        assert f"Seat {seat.position + 1}</span> " in seats
        assert seat.name in seats
    assert "expert bot" in seats
    assert "The scorecard opens when the match starts." in html

    client.post(reverse("games:start", args=[table.pk]), HTTP_HX_REQUEST="true")
    html = client.get(night.get_absolute_url()).content.decode()
    assert 'class="seated-list"' not in html and "Scorecard of table 1" in html

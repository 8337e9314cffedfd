"""A duplicate night shows no one a deal they have yet to play: not its cards (tables,
replays, reviews, frames), nor its strokes (scorecards, exports, corrections, player
pages), whatever their role."""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass
from datetime import date, timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.asgi import application
from games import lobby
from games import services as game_services
from games.consumers import CLOSE_NOT_FOUND
from games.models import ScorecardHole, Table
from leagues.models import LeagueNight, NightTable, Player
from leagues.results.services import correct_score
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.games.helpers import act_until_finished, finish_hole


@dataclass
class Night:
    night: LeagueNight
    organiser: Player
    own: NightTable  # the organiser's table, not started
    other: NightTable  # dealt the same cards, hole 1 played
    partner: Player  # the organiser's opponent at their own table


def seat_duplicate_night() -> Night:
    """Olive organises and plays: two live two-seat tables share their deals; the other
    table has played hole 1, hers has not started."""
    olive = make_player("olive", display_name="Olive")
    people = [make_player(name, display_name=name.title()) for name in ("ana", "ben", "cy")]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=True)
    night.players.set([olive, *people])
    tables = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, rng=random.Random(3)
    )
    (own,) = [nt for nt in tables if nt.table.seats.filter(player=olive).exists()]
    (other,) = [nt for nt in tables if nt != own]
    assert own.table.deal_seed == other.table.deal_seed
    lobby.start_match(table=other.table, by=olive)
    finish_hole(other.table.pk, {s.position: s.player for s in other.table.seats.all()})
    partner = own.table.seats.exclude(player=olive).get().player
    return Night(night, olive, own, other, partner)


@pytest.fixture
def duplicate_night(db) -> Night:
    return seat_duplicate_night()


def pages_of(table: Table) -> list[str]:
    return [
        reverse("games:table", args=[table.pk]),
        reverse("games:replay", args=[table.pk, 1]),
        reverse("games:review", args=[table.pk, 1, 0]),
    ]


def test_the_organiser_seated_at_the_night_sees_no_table_dealt_their_cards(client, duplicate_night):
    """The organiser hosts every table, yet while seated at one that has not played
    hole 1 they open neither the other table nor its replay nor its review; their own
    table is theirs, and the other opens once their table has finished."""
    client.force_login(duplicate_night.organiser)
    for url in pages_of(duplicate_night.other.table):
        assert client.get(url).status_code == 404, url
    assert client.get(duplicate_night.own.table.get_absolute_url()).status_code == 200
    Table.objects.filter(pk=duplicate_night.own.table_id).update(status=Table.Status.FINISHED)
    for url in pages_of(duplicate_night.other.table)[:2]:
        assert client.get(url).status_code == 200, url


def test_a_seated_player_sees_no_such_table_even_listed_or_as_a_superuser(client, duplicate_night):
    """Listing the other table for watchers, or making its viewer a superuser, opens
    nothing to someone still to play its deals; a member seated nowhere may watch."""
    Table.objects.filter(pk=duplicate_night.other.table_id).update(is_public=True)
    partner = duplicate_night.partner
    partner.is_superuser = partner.is_staff = True
    partner.save()
    client.force_login(partner)
    for url in pages_of(duplicate_night.other.table):
        assert client.get(url).status_code == 404, url
    client.force_login(make_player("dee"))
    assert client.get(duplicate_night.other.table.get_absolute_url()).status_code == 200


def test_a_paper_tables_player_sees_no_live_table_of_the_same_deals(client, db):
    """Paper tables play the same deals from their sheets: their players too wait until
    their results are in."""
    olive = make_player("olive")
    people = [make_player(f"p{n}") for n in range(4)]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1), duplicate_deals=True)
    night.players.set(people)
    live, paper = seat_night(
        night=night, by=olive, seats_per_table=2, kind=Table.Kind.LIVE, paper_tables=1
    )
    Table.objects.filter(pk=live.table_id).update(is_public=True)
    client.force_login(paper.table.seats.first().player)
    assert client.get(live.table.get_absolute_url()).status_code == 404
    Table.objects.filter(pk=paper.table_id).update(status=Table.Status.FINISHED)
    assert client.get(live.table.get_absolute_url()).status_code == 200


def test_the_night_page_starts_a_table_its_host_may_not_open(client, duplicate_night):
    """The organiser starts the tables they host from the night's page, where the
    table they may not open has no link to it."""
    client.force_login(duplicate_night.organiser)
    page = client.get(duplicate_night.night.get_absolute_url()).content.decode()
    start = reverse("leagues:table_start", args=[duplicate_night.own.pk])
    assert f'action="{start}"' in page
    assert duplicate_night.other.table.get_absolute_url() + '"' not in page
    response = client.post(start, follow=True)
    assert "has teed off" in response.content.decode()
    assert Table.objects.get(pk=duplicate_night.own.table_id).status == Table.Status.PLAYING
    # A member may not start one; nor does a started table start again.
    client.force_login(duplicate_night.partner)
    assert client.post(start).status_code == 403
    client.force_login(duplicate_night.organiser)
    assert "already started" in client.post(start, follow=True).content.decode()


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_table_dealt_the_same_cards_is_refused():
    night = await database_sync_to_async(seat_duplicate_night)()

    def cookie() -> bytes:
        client = Client()
        client.force_login(night.organiser)
        return f"sessionid={client.cookies['sessionid'].value}".encode()

    communicator = WebsocketCommunicator(
        application,
        f"/ws/tables/{night.other.table_id}/",
        headers=[
            (b"origin", b"http://localhost"),
            (b"cookie", await database_sync_to_async(cookie)()),
        ],
    )
    connected, _ = await communicator.connect()
    assert connected  # accepted, to be closed with a code the page does not retry on
    output = await communicator.receive_output(timeout=10)
    assert output == {"type": "websocket.close", "code": CLOSE_NOT_FOUND}


# --- Strokes ---------------------------------------------------------------------------


def other_strokes(night: Night) -> list[int]:
    return list(
        ScorecardHole.objects.filter(scorecard__table=night.other.table, number=1)
        .order_by("scorecard__position")
        .values_list("strokes", flat=True)
    )


def test_the_night_page_and_its_csv_leave_out_holes_still_to_play(client, duplicate_night):
    """Seated at a table still on hole 1, a member reads no hole 1 of the other table
    on the night's page or in its scorecards CSV; once their table has played hole 1,
    hole 1 shows, hole 2 not yet."""
    client.force_login(duplicate_night.partner)
    csv_url = reverse("leagues:night_scorecards_csv", args=[duplicate_night.night.pk])

    def other_rows() -> list[dict]:
        text = client.get(csv_url).content.decode()
        rows = csv.DictReader(io.StringIO(text))
        return [r for r in rows if r["table"] == str(duplicate_night.other.number)]

    assert len(other_strokes(duplicate_night)) == 2
    rows = other_rows()
    assert [r["hole_1"] for r in rows] == ["", ""]
    assert [r["total"] for r in rows] == ["", ""]
    page = client.get(duplicate_night.night.get_absolute_url()).content.decode()
    assert "deals what yours has yet to play" in page

    own = duplicate_night.own.table
    lobby.start_match(table=own, by=duplicate_night.organiser)
    finish_hole(own.pk, {s.position: s.player for s in own.seats.all()})
    rows = other_rows()
    assert [int(r["hole_1"]) for r in rows] == other_strokes(duplicate_night)
    assert [r["hole_2"] for r in rows] == ["", ""]


def test_corrections_and_player_pages_hide_deals_still_to_play(client, duplicate_night):
    """A correction to the other table's hole 1 and that table's match on its players'
    pages stay hidden from the organiser seated at a table still to play hole 1; so does
    the correction page itself."""
    night = duplicate_night
    other = night.other.table
    # The other table plays on to its end, by bots.
    for seat in other.seats.all():
        game_services.leave_match(table=other, player=seat.player)
    act_until_finished(other, timezone.now() + timedelta(days=1))
    card = other.scorecards.get(position=0)
    # The bots may have tied and gone to a playoff: the correction must neither tie the
    # nine holes anew nor leave a playoff standing that it made unneeded.
    nine = {
        c.position: sum(h.strokes for h in c.holes.all() if h.number <= 9)
        for c in other.scorecards.all()
    }
    first = card.holes.get(number=1).strokes
    others = {total for position, total in nine.items() if position}
    strokes = next(s for s in (-7, -8, -9) if nine[0] - first + s not in others)
    correct_score(
        scorecard=card,
        number=1,
        strokes=strokes,
        reason="Misread the card",
        by=night.organiser,
        remove_playoffs=True,
    )
    someone = card.player
    client.force_login(night.organiser)
    correction = reverse("leagues:table_correct", args=[night.other.pk])
    assert client.get(correction).status_code == 403
    corrections = reverse("leagues:corrections", args=[night.night.season.league_id])
    assert "Misread the card" not in client.get(corrections).content.decode()
    player = reverse("leagues:player", args=[night.night.season.league_id, someone.pk])
    page = client.get(player)
    assert page.status_code == 200
    assert "Misread" not in page.content.decode()
    assert reverse("leagues:night", args=[night.night.pk]) not in page.content.decode()
    # Once the organiser's own table is done, everything shows.
    Table.objects.filter(pk=night.own.table_id).update(status=Table.Status.FINISHED)
    assert client.get(correction).status_code == 200
    assert "Misread the card" in client.get(corrections).content.decode()
    assert reverse("leagues:night", args=[night.night.pk]) in client.get(player).content.decode()


def test_the_admin_lists_no_hole_or_card_of_a_deal_still_to_play(client, duplicate_night):
    """The organiser (staff, for the admin) finds no scorecard of the other table among
    the league's; a superuser seated at the night finds neither its holes nor cards."""
    night = duplicate_night
    other_card = night.other.table.scorecards.first()
    lobby.start_match(table=night.own.table, by=night.organiser)
    own_card = night.own.table.scorecards.first()
    client.force_login(night.organiser)
    cards = reverse("admin:leagues_leaguescorecard_changelist")
    page = client.get(cards).content.decode()
    assert reverse("admin:leagues_leaguescorecard_change", args=[own_card.pk]) in page
    assert reverse("admin:leagues_leaguescorecard_change", args=[other_card.pk]) not in page
    assert client.get(
        reverse("admin:leagues_leaguescorecard_change", args=[other_card.pk])
    ).status_code in (302, 404)
    partner = night.partner
    partner.is_superuser = partner.is_staff = True
    partner.save()
    client.force_login(partner)
    hole = night.other.table.holes.get(number=1)
    assert client.get(reverse("admin:games_hole_change", args=[hole.pk])).status_code in (302, 404)
    page = client.get(reverse("admin:games_scorecard_changelist")).content.decode()
    assert reverse("admin:games_scorecard_change", args=[own_card.pk]) in page
    assert reverse("admin:games_scorecard_change", args=[other_card.pk]) not in page


def test_the_standings_stand_as_before_a_night_still_to_play(client, duplicate_night):
    """The other table's match is over; to a member whose table has yet to play its
    deals the season's standings (page and CSV) stand as before the night."""
    night = duplicate_night
    other = night.other.table
    for seat in other.seats.all():
        game_services.leave_match(table=other, player=seat.player)
    act_until_finished(other, timezone.now() + timedelta(days=1))
    season = night.night.season
    csv_url = reverse("leagues:standings_csv", args=[season.pk])
    names = {seat.player.name for seat in other.seats.all()}

    def listed() -> set[str]:
        rows = csv.DictReader(io.StringIO(client.get(csv_url).content.decode()))
        return {row["player"] for row in rows}

    client.force_login(night.partner)
    assert listed() == set()
    page = client.get(season.get_absolute_url()).content.decode()
    assert "As they stood before 1 Mar 2026" in page
    Table.objects.filter(pk=night.own.table_id).update(status=Table.Status.FINISHED)
    client.force_login(night.partner)
    assert listed() == names

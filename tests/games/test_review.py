"""Hole reviews: a player's decisions beside the best, their own only until the match ends."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import autoplay, services
from games.models import HoleReview, Seat, Table
from tests.factories import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished():
    """A bots' golf-4 match played out, seat 0 then handed to a player."""
    host = make_player()
    table = services.create_table(
        host=host, variant="golf-4", seat_count=3, bots={0: "greedy", 1: "greedy", 2: "greedy"}
    )
    services.start_match(table=table, by=host)
    autoplay.play_out(table_id=table.pk)
    ana = make_player()
    Seat.objects.filter(table=table, position=0).update(player=ana)
    return Table.objects.get(pk=table.pk), ana


def test_a_player_opens_the_review_of_their_own_decisions(client, finished):
    """Each decision beside the best, strokes given away, the small ones collapsed."""
    table, ana = finished
    client.force_login(ana)
    response = client.get(reverse("games:review", args=[table.pk, 1, 0]))
    assert response.status_code == 200
    html = response.content.decode()
    review = HoleReview.objects.get(hole__table=table, hole__number=1, position=0)
    assert review.decisions and "Strokes given away" in html
    assert all(d["cost"] >= 0 for d in review.decisions)
    assert review.given_away == pytest.approx(sum(d["cost"] for d in review.decisions), abs=0.01)
    assert "<script" not in html.split("</header>", 1)[1]
    assert "Played:" in html


def test_another_player_s_review_is_refused_while_the_match_is_in_play(client, finished):
    table, ana = finished
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    client.force_login(make_player())
    assert client.get(reverse("games:review", args=[table.pk, 1, 0])).status_code == 404
    client.force_login(ana)
    assert client.get(reverse("games:review", args=[table.pk, 1, 1])).status_code == 404
    assert client.get(reverse("games:review", args=[table.pk, 1, 0])).status_code == 200


def test_once_the_match_is_over_anyone_watching_sees_every_review(client, finished):
    table, _ = finished
    client.force_login(make_player())
    assert client.get(reverse("games:review", args=[table.pk, 1, 1])).status_code == 200


def test_the_command_reviews_players_holes_once(finished):
    """Only seats with a player; the stored review is kept, not worked out again."""
    table, _ = finished
    holes = table.holes.filter(finished_at__isnull=False).count()
    call_command("review_holes", "--table", str(table.pk), "--samples", "1", stdout=io.StringIO())
    assert HoleReview.objects.filter(hole__table=table).count() == holes
    assert set(HoleReview.objects.values_list("position", flat=True)) == {0}
    call_command("review_holes", "--samples", "1", stdout=io.StringIO())
    assert HoleReview.objects.filter(hole__table=table).count() == holes

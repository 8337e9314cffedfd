"""Hole reviews: a player's decisions beside the best, their own only until the match ends."""

from __future__ import annotations

import io
import re
import time

import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games import lobby, reviews, services
from games.models import Hole, HoleReview, Move, Seat, Table
from tests import driving
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def finished():
    """A bots' golf-4 match played out, seat 0 then handed to a player, as though she
    had made its moves."""
    host = make_player()
    table = lobby.create_table(
        host=host, variant="golf-4", seat_count=3, bots={0: "greedy", 1: "greedy", 2: "greedy"}
    )
    lobby.start_match(table=table, by=host)
    driving.play_out(table_id=table.pk)
    ana = make_player()
    Seat.objects.filter(table=table, position=0).update(player=ana)
    Move.objects.filter(hole__table=table, seat=0).update(by_bot=False)
    return Table.objects.get(pk=table.pk), ana


def test_a_player_opens_the_review_of_their_own_decisions(client, finished):
    """Each decision beside the best, strokes given away, the small ones collapsed."""
    table, ana = finished
    client.force_login(ana)
    response = client.get(reverse("games:review", args=[table.pk, 1, 0]))
    assert response.status_code == 200
    html = response.content.decode()
    review = HoleReview.objects.get(hole__table=table, hole__number=1, position=0)
    assert review.decisions and "best play found" in html
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


def _decisions(html: str) -> list[tuple[str, str]]:
    """Each decision the review page shows: its anchor and what it cost."""
    return re.findall(
        r'<li id="([^"]+)" class="review-decision[^"]*">.*?<span class="decision-cost">([^<]*)',
        html,
        re.S,
    )


def test_once_the_match_is_over_anyone_watching_sees_every_review(client, finished):
    """A watcher opens the player's own review, the same decisions she sees, and opening
    it works nothing out again."""
    table, ana = finished
    client.force_login(ana)
    own = client.get(reverse("games:review", args=[table.pk, 1, 0])).content.decode()
    review = HoleReview.objects.get(hole__table=table, hole__number=1, position=0)
    client.force_login(make_player())
    response = client.get(reverse("games:review", args=[table.pk, 1, 0]))
    assert response.status_code == 200
    watched = response.content.decode()
    assert f"review: {ana.name} " in watched
    assert len(_decisions(watched)) == len(review.decisions) > 0
    assert _decisions(watched) == _decisions(own)
    assert HoleReview.objects.filter(hole__table=table).count() == 1


def test_a_bot_s_seat_has_no_review_to_offer(client, finished):
    """A seat a bot played from the deal made no one's decisions: the replay offers the
    people's reviews only, and the bot's is not found."""
    table, ana = finished
    client.force_login(make_player())
    replay = client.get(reverse("games:replay", args=[table.pk, 1])).content.decode()
    bot_name = Seat.objects.get(table=table, position=1).name
    assert f"Review {ana.name}" in replay
    assert f"Review {bot_name}" not in replay
    assert client.get(reverse("games:review", args=[table.pk, 1, 1])).status_code == 404


def test_the_command_reviews_players_holes_once(finished):
    """Only seats with a player; the stored review is kept, not worked out again."""
    table, _ = finished
    holes = table.holes.filter(finished_at__isnull=False).count()
    call_command("review_holes", "--table", str(table.pk), "--samples", "1", stdout=io.StringIO())
    assert HoleReview.objects.filter(hole__table=table).count() == holes
    assert set(HoleReview.objects.values_list("position", flat=True)) == {0}
    call_command("review_holes", "--samples", "1", stdout=io.StringIO())
    assert HoleReview.objects.filter(hole__table=table).count() == holes


def test_the_command_works_out_stored_reviews_again_when_asked(finished):
    """After a change to how reviews are measured: each stored review is made anew."""
    table, _ = finished
    call_command("review_holes", "--table", str(table.pk), "--samples", "1", stdout=io.StringIO())
    HoleReview.objects.filter(hole__table=table).update(given_away=43.8)
    out = io.StringIO()
    call_command("review_holes", "--table", str(table.pk), "--samples", "1", "--again", stdout=out)
    holes = table.holes.filter(finished_at__isnull=False).count()
    assert out.getvalue().startswith(f"{holes} reviews made")
    assert not HoleReview.objects.filter(given_away=43.8).exists()
    assert HoleReview.objects.filter(hole__table=table).count() == holes


def _play_hole_one(table: Table, player) -> Hole:
    """Hole 1 played to its end: the bots by the driver, `player` by quick moves."""
    while True:
        table = driving.play_out(table_id=table.pk)
        table, hole, state = current(table.pk)
        if hole.number > 1 or hole.finished_at is not None:
            return table.holes.get(number=1)
        seat = next_actor(state)
        result = services.apply_move(
            table_id=table.pk,
            player=player,
            action=quick_action(state, seat),
            version=table.version,
        )
        if result.hole_over:
            return table.holes.get(number=1)


def _player_and_bots(player) -> Table:
    table = lobby.create_table(
        host=player,
        variant="golf-4",
        seat_count=3,
        bots={1: "greedy", 2: "greedy"},
        players=[player],
    )
    return lobby.start_match(table=table, by=player)


def test_a_finished_hole_s_players_are_reviewed_once_it_ends(reviews_after_hole):
    """Without anyone opening a review: each seat a player holds, and no bot's."""
    ana = make_player()
    table = _player_and_bots(ana)
    hole = _play_hole_one(table, ana)
    stored = HoleReview.objects.get(hole=hole)
    assert stored.position == 0 and stored.decisions
    assert stored.given_away == pytest.approx(sum(d["cost"] for d in stored.decisions), abs=0.01)
    # The same review as its first look would have worked out.
    stored.delete()
    assert reviews.review_hole(hole=hole, position=0).decisions == stored.decisions


def _wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.1)


def test_the_review_page_polls_until_a_worker_stored_the_review(
    client, reviews_after_hole, task_workers
):
    """The hole's end queues its review in the database; the page does not work it out
    itself but polls, until a real worker process (started late, as after a restart)
    stored it."""
    ana = make_player()
    table = _player_and_bots(ana)
    hole = _play_hole_one(table, ana)
    queued = DBTaskResult.objects.get(task_path=reviews.review_seats.module_path)
    assert queued.status == TaskResultStatus.READY and queued.args_kwargs["args"] == [hole.pk, [0]]
    client.force_login(ana)
    url = reverse("games:review", args=[table.pk, 1, 0])
    html = client.get(url).content.decode()
    assert "being worked out" in html and f'hx-get="{url}"' in html
    assert "best play found" not in html
    assert DBTaskResult.objects.count() == 1  # a look queues nothing more
    task_workers.start()
    _wait_for(lambda: HoleReview.objects.filter(hole=hole, position=0).exists())
    html = client.get(url).content.decode()
    assert "best play found" in html and "hx-get" not in html.split("</header>", 1)[1]
    _wait_for(lambda: DBTaskResult.objects.get().status == TaskResultStatus.SUCCESSFUL)


def test_another_player_s_review_stays_hidden_while_it_is_worked_out(
    client, reviews_after_hole, task_workers
):
    ana, bea = make_player(), make_player()
    table = _player_and_bots(ana)
    _play_hole_one(table, ana)
    client.force_login(bea)
    assert client.get(reverse("games:review", args=[table.pk, 1, 0])).status_code == 404
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert HoleReview.objects.filter(hole__table=table, position=0).exists()
    assert client.get(reverse("games:review", args=[table.pk, 1, 0])).status_code == 404
    assert Table.objects.get(pk=table.pk).status == Table.Status.PLAYING


def test_a_review_not_queued_is_queued_by_its_first_look(client, finished, task_workers, settings):
    """A hole that ended with reviews off: its first look queues it, and polls."""
    table, ana = finished
    settings.FAIRWAY_REVIEW_AFTER_HOLE = True
    client.force_login(ana)
    url = reverse("games:review", args=[table.pk, 1, 0])
    assert "being worked out" in client.get(url).content.decode()
    assert "being worked out" in client.get(url).content.decode()
    assert DBTaskResult.objects.filter(status=TaskResultStatus.READY).count() == 1
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert "best play found" in client.get(url).content.decode()


def test_a_review_that_fails_for_good_is_said_so_and_polled_no_more(
    client, reviews_after_hole, task_workers, settings, monkeypatch
):
    """Its task is tried FAIRWAY_TASK_ATTEMPTS times, then kept failed: the page says the
    review could not be worked out, and queues it no more."""
    settings.FAIRWAY_TASK_RETRY_SECONDS = 0
    settings.FAIRWAY_TASK_ATTEMPTS = 2

    def broken(*args, **kwargs):
        raise RuntimeError("the playouts broke")

    monkeypatch.setattr(reviews, "review_seat", broken)
    ana = make_player()
    table = _player_and_bots(ana)
    _play_hole_one(table, ana)
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    failed = DBTaskResult.objects.get()
    assert failed.status == TaskResultStatus.FAILED and len(failed.worker_ids) == 2
    assert "the playouts broke" in failed.traceback
    assert not HoleReview.objects.exists()
    client.force_login(ana)
    response = client.get(reverse("games:review", args=[table.pk, 1, 0]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("games:replay", args=[table.pk, 1])
    assert "could not be worked out" in response.content.decode()
    polled = client.get(reverse("games:review", args=[table.pk, 1, 0]), HTTP_HX_REQUEST="true")
    assert polled.headers["HX-Redirect"] == reverse("games:replay", args=[table.pk, 1])
    assert DBTaskResult.objects.count() == 1


def test_the_moves_a_bot_made_for_a_player_are_not_reviewed_as_theirs(client):
    """Ana leaves as the match starts: the bot that plays her hole is not judged under
    her name, and her review says she made no decision."""
    ana = make_player(display_name="Ana")
    table = _player_and_bots(ana)
    services.leave_match(table=table, player=ana)
    table = driving.play_out(table_id=table.pk)
    hole = table.holes.get(number=1)
    assert hole.moves.filter(seat=0, by_bot=True).count() > 1
    assert reviews.review_hole(hole=hole, position=0, samples=1).decisions == []
    client.force_login(ana)
    html = client.get(reverse("games:review", args=[table.pk, 1, 0])).content.decode()
    assert "Ana made no decision in this hole" in html
    assert "best play found" not in html


def test_each_decision_links_to_its_replay_step_and_the_step_back_to_it(client, finished):
    """The review's "Move n" opens the replay at move n; that step links back to the
    decision. A step that was no decision of a reviewed seat (a bot's move) links to
    no review, nor does one the viewer may not see reviewed."""
    table, ana = finished
    client.force_login(ana)
    review_url = reverse("games:review", args=[table.pk, 1, 0])
    replay_url = reverse("games:replay", args=[table.pk, 1])
    html = client.get(review_url).content.decode()
    stored = HoleReview.objects.get(hole__table=table, hole__number=1, position=0)
    steps = [d["version"] + 1 for d in stored.decisions]
    for step in steps:
        assert f'id="move-{step}"' in html
        assert f'href="{replay_url}?move={step}"' in html
        replay = client.get(f"{replay_url}?move={step}").content.decode()
        assert f'href="{review_url}#move-{step}"' in replay
    bots_step = next(
        move.seq for move in table.holes.get(number=1).moves.order_by("seq") if move.seat != 0
    )
    assert "#move-" not in client.get(f"{replay_url}?move={bots_step}").content.decode()
    Table.objects.filter(pk=table.pk).update(status=Table.Status.PLAYING)
    client.force_login(make_player())
    watched = client.get(f"{replay_url}?move={steps[0]}")
    assert watched.status_code == 200 and "#move-" not in watched.content.decode()

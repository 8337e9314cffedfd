""" "Your turn" pushed to a player's devices: encrypted for each device (it decrypts with
its own key), signed with the site's VAPID key, once a turn, never a card; a device its
push service calls gone is forgotten, and a push that found no device for now is tried
again by the task queue."""

from __future__ import annotations

import logging

import pytest
from django.utils import timezone
from http_ece import ECEException

from games.models import Table, turn_passed
from leagues.accounts.models import TurnMail
from leagues.models import PushSubscription, TurnNotice
from leagues.notify import push
from leagues.notify import services as notify
from tests.factories import make_player
from tests.games.helpers import current
from tests.leagues.notify.conftest import SUBJECT
from tests.leagues.notify.devices import new_device, vapid_claims
from tests.leagues.notify.test_turn_mail import move, table_for

# Committed writes: the turn is told after the commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]


def players(turn_mail=TurnMail.NEVER):
    return [
        make_player(
            name, display_name=name.title(), email=f"{name}@example.com", turn_mail=turn_mail
        )
        for name in ("ana", "ben")
    ]


def notice_of(player, table):
    return TurnNotice.objects.get(player=player, table=table)


def test_a_turn_is_pushed_encrypted_for_the_device_signed_by_the_site_and_shows_no_card(
    push_keys, push_service
):
    ana, ben = players()
    phone = new_device(push_service.url + "/push/ana-phone")
    phone.subscribe(ana)
    table = table_for([ana, ben])

    # The tee off waits on both: Ana's phone is told, Ben (no device, no mail) is not.
    [pushed] = push_service.received
    assert pushed.path == "/push/ana-phone"
    # All the message says, decrypted with the phone's own key: the table, its address
    # and the other player. Nothing of a hand, a pile or a score.
    assert phone.read(pushed) == {
        "title": "Your turn at Fairway",
        "body": f"{table}: your move (with Ben).",
        "url": f"/tables/{table.pk}/",
        "tag": f"table-{table.pk}",
        "icon": "/static/img/icon-192.png",
    }
    # Signed with the site's key, for this push service, naming the site's contact.
    claims = vapid_claims(pushed, push_keys)
    assert claims["aud"] == push_service.url and claims["sub"] == SUBJECT
    assert int(pushed.headers["ttl"]) > 0

    # Marked pushed; the same turn told again, or its task run again: no second push.
    assert notice_of(ana, table).pushed_at is not None
    assert not TurnNotice.objects.filter(player=ben).exists()
    turn_passed.send(
        sender=Table, table=table, position=0, player_id=ana.pk, deadline=table.turn_deadline
    )
    assert notify.push_turn.call(notice_of(ana, table).pk) == 0
    assert len(push_service.received) == 1
    assert PushSubscription.objects.get(player=ana).last_used_at is not None


def test_every_device_of_the_player_is_told_and_only_theirs(push_keys, push_service):
    ana, ben = players(TurnMail.AT_ONCE)
    phone, laptop = (new_device(f"{push_service.url}/push/{name}") for name in ("phone", "laptop"))
    phone.subscribe(ana)
    laptop.subscribe(ana)
    bens = new_device(push_service.url + "/push/ben")
    bens.subscribe(ben)
    table = table_for([ana, ben])
    assert sorted(p.path for p in push_service.received) == [
        "/push/ben",
        "/push/laptop",
        "/push/phone",
    ]
    [to_phone], [to_ben] = push_service.to("/push/phone"), push_service.to("/push/ben")
    assert phone.read(to_phone)["body"] == f"{table}: your move (with Ben)."
    assert bens.read(to_ben)["body"] == f"{table}: your move (with Ana)."
    # Encrypted for one device, the message means nothing to another.
    with pytest.raises(ECEException, match="Decryption error"):
        laptop.read(to_phone)


def test_a_device_its_push_service_calls_gone_is_forgotten(push_keys, push_service):
    ana, ben = players()
    for name in ("gone", "unknown", "fine"):
        new_device(f"{push_service.url}/push/{name}").subscribe(ana)
    push_service.answers = {"/push/gone": 410, "/push/unknown": 404}
    table_for([ana, ben])
    assert len(push_service.received) == 3
    assert [s.endpoint for s in PushSubscription.objects.all()] == [push_service.url + "/push/fine"]


def test_a_push_that_reached_no_device_is_tried_again_by_the_queue(push_keys, push_service, caplog):
    ana, ben = players()
    phone = new_device(push_service.url + "/push/phone")
    phone.subscribe(ana)
    push_service.status = 503  # the push service is down
    table = table_for([ana, ben])
    # The immediate backend ran the task once, and it failed: nothing marked, device kept.
    notice = notice_of(ana, table)
    assert notice.pushed_at is None and PushSubscription.objects.filter(player=ana).exists()
    with pytest.raises(push.PushFailed):
        notify.push_turn.call(notice.pk)
    # Back up: the next try pushes it, once.
    push_service.status = 201
    assert notify.push_turn.call(notice.pk) == 1
    assert phone.read(push_service.received[-1])["url"] == f"/tables/{table.pk}/"
    assert notify.push_turn.call(notice.pk) == 0

    # With two devices, one down: the other has it, and the failure is logged, not
    # retried (a retry would show it twice on the one that had it).
    laptop = new_device(push_service.url + "/push/laptop")
    laptop.subscribe(ana)
    push_service.answers = {"/push/phone": 500}
    TurnNotice.objects.filter(pk=notice.pk).update(pushed_at=None)
    with caplog.at_level(logging.WARNING, logger="leagues.notify.services"):
        assert notify.push_turn.call(notice.pk) == 1
    assert "Could not push" in caplog.text
    assert notice_of(ana, table).pushed_at is not None


def test_a_turn_played_before_its_push_goes_is_not_pushed(push_keys, push_service):
    ana, ben = players(TurnMail.HOURLY)
    table = table_for([ana, ben])
    notices = {n.player_id: n for n in TurnNotice.objects.filter(table=table)}
    for player in (ana, ben):
        new_device(f"{push_service.url}/push/{player.username}").subscribe(player)
    mover = move(table, [ana, ben])
    assert current(table.pk)[2].phase == "tee_off"
    assert notify.push_turn.call(notices[mover.pk].pk) == 0
    assert push_service.to(f"/push/{mover.username}") == []


def test_without_keys_nothing_is_pushed_and_a_member_wanting_no_mail_gets_no_notice(
    settings, push_service
):
    assert not push.enabled()
    ana, ben = players()
    new_device(push_service.url + "/push/ana").subscribe(ana)
    table_for([ana, ben])
    assert push_service.received == []
    assert not TurnNotice.objects.exists()


def test_a_player_with_no_device_left_is_pushed_nothing(push_keys, push_service):
    # No device when the turn passed (or every one taken back before its task ran).
    ana, ben = players(TurnMail.HOURLY)
    table = table_for([ana, ben])
    notice = notice_of(ana, table)
    assert notify.push_turn.call(notice.pk) == 0 and push_service.received == []
    assert notice_of(ana, table).pushed_at is None
    assert timezone.now() < notice.deadline

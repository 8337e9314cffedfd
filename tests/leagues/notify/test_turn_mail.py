""" "Your turn" mail: one a table per turn, as each member chose (at once, hourly or daily
digest, never), none for live tables, none once the turn was played, never a card, and a
one-click unsubscribe that a tampered link or a GET cannot use."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import lobby, services
from games.models import Table, turn_passed
from games.selectors import your_games
from leagues.accounts.models import TurnMail
from leagues.models import Player, TurnNotice
from leagues.notify import services as notify
from leagues.notify.links import unsubscribe_link
from tests.factories import make_player
from tests.games.helpers import current, next_actor, quick_action

# Committed writes: the turn is told after the commit, as in production.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.both_databases]

DAY = 86400


def people(*choices):
    return [
        make_player(name, display_name=name.title(), email=f"{name}@example.com", turn_mail=choice)
        for name, choice in zip(("ana", "ben", "cy"), choices, strict=False)
    ]


def table_for(players, move_time=DAY):
    table = lobby.create_table(
        host=players[0],
        variant="play-nine",
        seat_count=len(players),
        players=players,
        move_time=move_time,
    )
    lobby.start_match(table=table, by=players[0])
    table.refresh_from_db()
    return table


def move(table, players):
    """The next move at `table`, by whoever is to make it. Returns the mover."""
    table_now, hole, state = current(table.pk)
    seat = next_actor(state)
    mover = players[hole.seat_positions[seat]]
    services.apply_move(
        table_id=table.pk,
        player=mover,
        action=quick_action(state, seat),
        version=table_now.version,
    )
    return mover


def to(address):
    return [m for m in mail.outbox if m.to == [address]]


def test_each_turn_is_mailed_once_with_a_link_to_the_table():
    ana, ben = people(TurnMail.AT_ONCE, TurnMail.AT_ONCE)
    table = table_for([ana, ben])
    # The tee off waits on both: each told once.
    assert len(to("ana@example.com")) == 1 and len(to("ben@example.com")) == 1
    message = to("ana@example.com")[0]
    assert f"/tables/{table.pk}/" in message.body and "Ben" in message.body
    # The same turn told again (a second process, a retried signal): no second mail.
    turn_passed.send(
        sender=Table, table=table, position=0, player_id=ana.pk, deadline=table.turn_deadline
    )
    assert len(to("ana@example.com")) == 1
    assert TurnNotice.objects.filter(player=ana, table=table).count() == 1
    # Ana tees off while Ben still has to: Ben's turn goes on, no new mail for him.
    # One tees off while the other still has to: the other's turn goes on, no new mail.
    mail.outbox.clear()
    move(table, [ana, ben])
    assert current(table.pk)[2].phase == "tee_off"
    assert mail.outbox == []


def test_a_member_who_chose_never_gets_nothing_and_live_tables_mail_nobody():
    ana, ben = people(TurnMail.NEVER, TurnMail.AT_ONCE)
    table_for([ana, ben])
    assert to("ana@example.com") == [] and len(to("ben@example.com")) == 1

    mail.outbox.clear()
    cy, dee = (
        make_player(n, display_name=n.title(), email=f"{n}@example.com") for n in ("cy", "dee")
    )
    live = table_for([cy, dee], move_time=0)
    assert not live.turn_based
    for _ in range(6):
        move(live, [cy, dee])
    assert mail.outbox == [] and not TurnNotice.objects.filter(table=live).exists()


def test_the_default_is_at_once():
    assert make_player("eve").turn_mail == TurnMail.AT_ONCE


def test_a_turn_played_before_its_mail_goes_is_not_mailed():
    ana, ben = people(TurnMail.HOURLY, TurnMail.HOURLY)
    table = table_for([ana, ben])
    notices = {n.player_id: n for n in TurnNotice.objects.filter(table=table)}
    assert set(notices) == {ana.pk, ben.pk} and mail.outbox == []  # digests wait
    mover = move(table, [ana, ben])
    # The "at once" task for the mover's turn, had it been queued: nothing sent.
    mover.turn_mail = TurnMail.AT_ONCE
    mover.save()
    assert notify.mail_turn.call(notices[mover.pk].pk) is False
    assert mail.outbox == []


def test_a_digest_batches_every_waiting_table_into_one_mail_and_skips_played_turns():
    ana, ben, cy = people(TurnMail.HOURLY, TurnMail.AT_ONCE, TurnMail.AT_ONCE)
    first, second, third = table_for([ana, ben]), table_for([ana, cy]), table_for([ana, ben])
    assert to("ana@example.com") == []
    # Ana moves at the third table: the turn she was told of is played.
    for _ in range(4):
        if move(third, [ana, ben]) == ana:
            break
    # Her turn there again (a new turn) or not: the digest says what waits now, once.
    again = any(g.table.pk == third.pk and g.your_turn for g in your_games(ana))
    mail.outbox.clear()
    assert notify.send_digests() == 1
    (digest,) = mail.outbox
    assert digest.to == ["ana@example.com"] and f"{2 + again} tables" in digest.subject
    assert f"/tables/{first.pk}/" in digest.body and f"/tables/{second.pk}/" in digest.body
    assert digest.body.count(f"/tables/{third.pk}/") == (1 if again else 0)
    # Nothing new: the next run sends nothing, and the hour is not up anyway.
    assert notify.send_digests() == 0
    assert notify.send_digests(now=timezone.now() + timedelta(hours=2)) == 0


def test_a_daily_digest_waits_a_day_after_the_last_one():
    (ana, ben) = people(TurnMail.DAILY, TurnMail.NEVER)
    table_for([ana, ben])
    assert notify.send_digests() == 1
    table_for([ana, ben])
    mail.outbox.clear()
    assert notify.send_digests(now=timezone.now() + timedelta(hours=2)) == 0
    assert notify.send_digests(now=timezone.now() + timedelta(hours=24)) == 1
    assert len(mail.outbox) == 1


def test_the_mail_says_table_opponents_and_deadline_and_no_card():
    ana, ben = people(TurnMail.AT_ONCE, TurnMail.NEVER)
    table = table_for([ana, ben])
    (message,) = to("ana@example.com")
    body = message.body
    link = re.search(r"http\S+/turns/unsubscribe/\S+", body).group(0)
    assert message.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Take out what the mail may carry (links, the table's name, the deadline): no
    # figure is left, so no card's value is in it.
    rest = body.replace(link, "").replace(f"http://127.0.0.1:8000/tables/{table.pk}/", "")
    rest = rest.replace(str(table), "")
    rest = re.sub(r"\w{3} \d{1,2} \w{3}, \d{2}:\d{2} \S+", "", rest)
    assert not re.search(r"\d", rest), rest
    assert "Ben" in body


def test_the_unsubscribe_link_refuses_tampering_a_get_changes_nothing_a_post_turns_it_off():
    ana, ben = people(TurnMail.DAILY, TurnMail.NEVER)
    path = unsubscribe_link(ana)
    client = Client(enforce_csrf_checks=True)  # the mail client's one-click POST has none
    tampered = path.replace(f"/{ana.pk}/", f"/{ben.pk}/")
    assert client.post(tampered, {"choice": "unsubscribe"}).status_code == 400
    assert client.get(path[:-3] + "xx/").status_code == 400
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.DAILY
    page = client.get(path)
    assert page.status_code == 200 and b"Stop these mails" in page.content
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.DAILY
    assert client.post(path, {"choice": "unsubscribe"}).status_code == 200
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.NEVER
    table_for([ana, ben])
    assert mail.outbox == [] and not TurnNotice.objects.exists()


def test_the_account_page_sets_the_choice_and_refuses_nonsense():
    ana = make_player("ana", display_name="Ana", email="ana@example.com")
    client = Client()
    client.force_login(ana)
    form = {"display_name": "Ana", "email": "ana@example.com", "email_results": "on"}
    page = client.post(reverse("account"), {**form, "turn_mail": "sometimes"})
    assert page.status_code == 400
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.AT_ONCE
    assert client.post(reverse("account"), {**form, "turn_mail": "hourly"}).status_code == 302
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.HOURLY
    assert b"Tell me it is my turn" in client.get(reverse("account")).content
    # A form without the field (an older page) leaves the choice as it was.
    assert client.post(reverse("account"), form).status_code == 302
    assert Player.objects.get(pk=ana.pk).turn_mail == TurnMail.HOURLY

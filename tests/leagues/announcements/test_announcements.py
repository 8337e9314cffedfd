"""Announcements: an organiser writes to the club's members (or one league's players),
the mail goes out through the task queue once, each with its one-click unsubscribe, and
members' choices, other clubs' organisers and nonsense are respected."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from leagues.announcements import services
from leagues.announcements.links import unsubscribe_link
from leagues.announcements.selectors import audience
from leagues.attendance import links as member_links
from leagues.models import Announcement, AnnouncementMail
from tests.factories import make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    olive = make_player("olive", display_name="Olive", email="olive@example.com")
    ann, bea, cat = (
        make_player(n, display_name=n.title(), email=f"{n}@example.com")
        for n in ("ann", "bea", "cat")
    )
    nomail = make_player("dan", display_name="Dan")
    club = make_club("Green Club", organiser=olive, members=[ann, bea, cat, nomail])
    return club, olive, [ann, bea, cat]


def _send(club, olive, **fields):
    return services.announce(
        club=club, by=olive, subject="Cup night", body="Bring a pen.", **fields
    )


def test_an_announcement_reaches_each_member_with_an_address_once(
    club, django_capture_on_commit_callbacks
):
    club, olive, (ann, bea, cat) = club
    with django_capture_on_commit_callbacks(execute=True):
        sent = _send(club, olive)
    assert sent.recipients == 4  # Olive, Ann, Bea, Cat: Dan has no address
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ann@example.com",
        "bea@example.com",
        "cat@example.com",
        "olive@example.com",
    ]
    to_ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    assert to_ann.subject == "Green Club: Cup night" and "Bring a pen." in to_ann.body
    link = to_ann.extra_headers["List-Unsubscribe"]
    assert link.strip("<>") in to_ann.body
    assert to_ann.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The task run again (a retry) sends nobody a second mail.
    services.mail_announcement.call(sent.pk)
    assert len(mail.outbox) == 4 and AnnouncementMail.objects.count() == 4


def test_the_mail_goes_out_as_a_task_queued_after_the_commit(club, task_workers):
    club, olive, _ = club
    sent = _send(club, olive)
    queued = DBTaskResult.objects.get()
    assert queued.task_path == services.mail_announcement.module_path
    assert queued.args_kwargs["args"] == [sent.pk] and not mail.outbox
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert DBTaskResult.objects.get().status == "SUCCESSFUL" and len(mail.outbox) == 4


def test_a_members_unsubscribe_link_turns_the_club_off_with_one_click(club, client):
    club, olive, (ann, bea, cat) = club
    path = unsubscribe_link(ann, club)
    page = client.get(path)  # a scanner opening the link changes nothing
    assert page.status_code == 200 and "Stop the club" in page.content.decode()
    assert ann in audience(club)
    # The mail client's RFC 8058 one-click POST: no CSRF token, no log-in.
    client.handler.enforce_csrf_checks = True
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and ann not in audience(club)
    assert client.post(path, {"choice": "subscribe"}).status_code == 200
    assert ann in audience(club)


def test_an_unsubscribed_member_gets_no_announcement(club, django_capture_on_commit_callbacks):
    club, olive, (ann, bea, cat) = club
    services.set_choice(player=bea, club=club, wants=False)
    with django_capture_on_commit_callbacks(execute=True):
        assert _send(club, olive).recipients == 3
    assert "bea@example.com" not in [m.to[0] for m in mail.outbox]


def test_a_tampered_or_renewed_unsubscribe_link_changes_nothing(club, client):
    club, olive, (ann, bea, cat) = club
    path = unsubscribe_link(ann, club)
    tampered = path[:-3] + ("x/" if path[-2] != "x" else "y/")
    assert client.post(tampered).status_code == 400
    as_bea = path.replace(f"/unsubscribe/{ann.pk}/", f"/unsubscribe/{bea.pk}/")
    unsubscribe_link(bea, club)  # Bea has a secret too
    assert client.post(as_bea).status_code == 400
    member_links.renew(ann)
    assert client.post(path).status_code == 400
    assert {ann, bea} <= set(audience(club))


def test_a_league_announcement_reaches_its_nights_players(club, django_capture_on_commit_callbacks):
    club, olive, (ann, bea, cat) = club
    league = make_league(club)
    make_night(make_season(league)).players.set([ann, bea])
    with django_capture_on_commit_callbacks(execute=True):
        assert _send(club, olive, league=league).recipients == 2
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.com", "bea@example.com"]


def test_only_the_clubs_organisers_announce(club, client):
    club, olive, (ann, _, _) = club
    with pytest.raises(PermissionDenied):
        _send(club, ann)
    url = reverse("leagues:announcements", args=[club.slug])
    client.force_login(ann)
    assert client.get(url).status_code == 403
    assert client.post(url, {"subject": "Hi", "body": "x"}).status_code == 403
    other = make_player("otto", email="otto@example.com")
    other_club = make_club("Other Club", organiser=other)
    client.force_login(other)
    assert client.post(url, {"subject": "Hi", "body": "x"}).status_code == 404
    # Nor with another club's league.
    with pytest.raises(ValidationError, match="not a league of"):
        services.announce(
            club=other_club, by=other, subject="Hi", body="x", league=make_league(club)
        )
    assert not Announcement.objects.exists() and not mail.outbox


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"subject": "   ", "body": "Text"}, "This field is required"),
        ({"subject": "Hi", "body": "  \n "}, "This field is required"),
        ({"subject": "x" * 121, "body": "Text"}, "at most 120 characters"),
        ({"subject": "Hi", "body": "x" * 10_001}, "at most 10000 characters"),
        ({"subject": "Hi", "body": "Text", "league": "999999"}, "Select a valid choice"),
    ],
)
def test_the_form_refuses_nonsense_and_sends_nothing(club, client, fields, error):
    club, olive, _ = club
    client.force_login(olive)
    response = client.post(reverse("leagues:announcements", args=[club.slug]), fields)
    assert response.status_code == 400 and error in response.content.decode()
    assert not Announcement.objects.exists() and not mail.outbox


def test_the_organiser_sees_what_was_sent_and_to_how_many(
    club, client, django_capture_on_commit_callbacks
):
    club, olive, _ = club
    client.force_login(olive)
    url = reverse("leagues:announcements", args=[club.slug])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"subject": "Cup night", "body": "Bring a pen."})
    assert response.status_code == 302
    page = client.get(url).content.decode()
    # The message is shown on the page after the redirect.
    assert "is on its way to 4 members" in page
    assert "Cup night" in page and "4 of 4" in page

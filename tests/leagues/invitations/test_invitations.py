"""A club's ways in: its join link (renewed, withdrawn, expiring, used up) and its
invitations by mail (sent by a task, sent again, withdrawn, accepted once), each write
checked against the writer's role in that club."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils import timezone

from leagues.invitations import services
from leagues.invitations.secret_links import hash_secret
from leagues.models import Club, Invitation, JoinLink
from leagues.roles import role_in
from tests.factories import make_club, make_player
from tests.leagues.mail_backends import REFUSED

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def club():
    return make_club("Fairway", organiser=make_player("olive"), members=[make_player("mia")])


def organiser(club):
    return club.memberships.get(role="organiser").player


def join_url(secret: str) -> str:
    return reverse("leagues:join", args=[secret])


def test_the_organiser_makes_a_link_and_a_newcomer_joins_by_it(client, club):
    client.force_login(organiser(club))
    client.post(reverse("leagues:join_link_renew", args=[club.slug]), {})
    page = client.get(reverse("leagues:invitations", args=[club.slug])).content.decode()
    url = re.search(r'id="join-url" type="text" readonly value="([^"]+)"', page).group(1)
    # Shown once: the page drawn again shows it no more (only its hash is kept).
    again = client.get(reverse("leagues:invitations", args=[club.slug])).content.decode()
    assert url not in again
    secret = url.rstrip("/").rsplit("/", 1)[1]
    link = JoinLink.objects.get(club=club)
    assert link.secret_hash == hash_secret(secret) and secret not in link.secret_hash

    newcomer = make_player("nina")
    client.force_login(newcomer)
    assert client.get(join_url(secret)).status_code == 200
    response = client.post(join_url(secret))
    assert response.url == club.get_absolute_url()
    assert role_in(newcomer, club) == "player"
    link.refresh_from_db()
    assert link.uses == 1


def test_an_anonymous_visitor_is_offered_sign_up_and_log_in_that_come_back(client, club):
    secret = services.renew_join_link(club=club, by=organiser(club))
    page = client.get(join_url(secret)).content.decode()
    assert f"/accounts/signup/?next=/leagues/join/{secret}/" in page
    assert f"/accounts/login/?next=/leagues/join/{secret}/" in page
    client.post(join_url(secret))  # not signed in: joins no one
    assert club.memberships.count() == 2


def test_a_renewed_link_cuts_off_the_old_one(client, club):
    old = services.renew_join_link(club=club, by=organiser(club))
    new = services.renew_join_link(club=club, by=organiser(club))
    newcomer = make_player("nina")
    with pytest.raises(ValidationError, match="not \\(or no longer\\) valid"):
        services.join_by_link(secret=old, player=newcomer)
    client.force_login(newcomer)
    assert client.post(join_url(old)).status_code == 404
    assert services.join_by_link(secret=new, player=newcomer) == club


def test_a_withdrawn_link_lets_no_one_in(client, club):
    secret = services.renew_join_link(club=club, by=organiser(club))
    client.force_login(organiser(club))
    client.post(reverse("leagues:join_link_withdraw", args=[club.slug]))
    assert not JoinLink.objects.exists()
    with pytest.raises(ValidationError):
        services.join_by_link(secret=secret, player=make_player("nina"))


def test_an_expired_link_lets_no_one_in(club):
    secret = services.renew_join_link(
        club=club, by=organiser(club), expires_at=timezone.now() + timedelta(days=1)
    )
    JoinLink.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ValidationError, match="expired"):
        services.join_by_link(secret=secret, player=make_player("nina"))


def test_a_used_up_link_lets_no_one_more_in_and_members_use_none_of_it(client, club):
    secret = services.renew_join_link(club=club, by=organiser(club), max_uses=1)
    services.join_by_link(secret=secret, player=organiser(club))  # a member: no use
    services.join_by_link(secret=secret, player=make_player("nina"))
    late = make_player("otto")
    with pytest.raises(ValidationError, match="used as often"):
        services.join_by_link(secret=secret, player=late)
    client.force_login(late)
    page = client.post(join_url(secret))
    assert page.status_code == 400 and "used as often" in page.content.decode()
    assert role_in(late, club) is None


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"days": "0"}, "greater than or equal to 1"),
        ({"days": "many"}, "whole number"),
        ({"max_uses": "-3"}, "greater than or equal to 1"),
        ({"days": "400"}, "less than or equal to 365"),
    ],
)
def test_a_link_form_refuses_nonsense(client, club, fields, error):
    client.force_login(organiser(club))
    page = client.post(reverse("leagues:join_link_renew", args=[club.slug]), fields)
    assert page.status_code == 400 and error in page.content.decode()
    assert not JoinLink.objects.exists()


def test_a_plain_member_and_another_clubs_organiser_may_not_touch_the_ways_in(client, club):
    mia = club.memberships.get(role="player").player
    rival = make_player("rival")
    make_club("Rough", organiser=rival)
    for who, status in ((mia, 403), (rival, 404)):
        client.force_login(who)
        for name in ("invitations",):
            assert client.get(reverse(f"leagues:{name}", args=[club.slug])).status_code == status
        for name in ("join_link_renew", "join_link_withdraw", "invite", "roster_confirm"):
            url = reverse(f"leagues:{name}", args=[club.slug])
            assert client.post(url, {"addresses": "x@example.org"}).status_code == status
        with pytest.raises(PermissionDenied):
            services.renew_join_link(club=club, by=who)
    assert not JoinLink.objects.exists() and not Invitation.objects.exists()


def secret_of(message) -> str:
    return re.search(r"/leagues/invited/([^/\s]+)/", message.body).group(1)


def test_invitations_go_out_by_mail_once_committed_and_each_works_once(
    client, club, django_capture_on_commit_callbacks
):
    client.force_login(organiser(club))
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("leagues:invite", args=[club.slug]),
            {"addresses": "ann@example.org, Bea@Example.org\nann@example.org"},
        )
    assert sorted(m.to[0] for m in mail.outbox) == ["Bea@Example.org", "ann@example.org"]
    invitation = Invitation.objects.get(email="ann@example.org")
    assert invitation.sent_at and invitation.expires_at > timezone.now() + timedelta(days=29)
    secret = secret_of(next(m for m in mail.outbox if m.to == ["ann@example.org"]))
    assert secret not in invitation.secret_hash

    ann = make_player("ann", email="ann@example.org")
    client.force_login(ann)
    assert client.post(reverse("leagues:invitation", args=[secret])).status_code == 302
    assert role_in(ann, club) == "player"
    other = make_player("other")
    client.force_login(other)
    page = client.post(reverse("leagues:invitation", args=[secret]))
    assert page.status_code == 400 and "used already" in page.content.decode()
    assert role_in(other, club) is None


def test_members_and_pending_invitations_are_not_invited_twice(
    club, django_capture_on_commit_callbacks
):
    mia = club.memberships.get(role="player").player
    mia.email = "mia@example.org"
    mia.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(club=club, by=organiser(club), people=[("", "new@example.org")])
        made = services.invite(
            club=club,
            by=organiser(club),
            people=[("", "MIA@example.org"), ("", "NEW@example.org"), ("", "third@example.org")],
        )
    assert [i.email for i in made] == ["third@example.org"]
    assert len(mail.outbox) == 2


@pytest.mark.parametrize(
    "addresses",
    ["", "not-an-address", "a@b.c, bad@@example.org", "o'neil@exa mple.org", "x@-bad-.org"],
)
def test_the_invitation_form_refuses_odd_addresses_and_sends_nothing(client, club, addresses):
    client.force_login(organiser(club))
    page = client.post(reverse("leagues:invite", args=[club.slug]), {"addresses": addresses})
    assert page.status_code == 400
    assert not Invitation.objects.exists() and not mail.outbox


def test_too_many_addresses_at_once_are_refused(client, club):
    client.force_login(organiser(club))
    addresses = ", ".join(f"p{n}@example.org" for n in range(services.MAX_ADDRESSES + 1))
    page = client.post(reverse("leagues:invite", args=[club.slug]), {"addresses": addresses})
    assert page.status_code == 400 and "import a roster" in page.content.decode()


def test_sent_again_the_old_link_stops_and_the_new_one_works(
    client, club, django_capture_on_commit_callbacks
):
    client.force_login(organiser(club))
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(club=club, by=organiser(club), people=[("Ann", "ann@example.org")])
    old = secret_of(mail.outbox[0])
    invitation = Invitation.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("leagues:invitation_send_again", args=[invitation.pk]))
    new = secret_of(mail.outbox[1])
    assert old != new
    ann = make_player("ann")
    client.force_login(ann)
    assert client.post(reverse("leagues:invitation", args=[old])).status_code == 404
    assert client.post(reverse("leagues:invitation", args=[new])).status_code == 302


def test_a_withdrawn_invitation_lets_no_one_in_and_leaves_the_list(
    client, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(club=club, by=organiser(club), people=[("", "ann@example.org")])
    secret = secret_of(mail.outbox[0])
    invitation = Invitation.objects.get()
    client.force_login(organiser(club))
    listed = '<td class="card-url">ann@example.org</td>'
    page = client.get(reverse("leagues:invitations", args=[club.slug])).content.decode()
    assert listed in page
    client.post(reverse("leagues:invitation_withdraw", args=[invitation.pk]))
    page = client.get(reverse("leagues:invitations", args=[club.slug])).content.decode()
    assert listed not in page and "ann@example.org is withdrawn" in page
    with pytest.raises(ValidationError, match="withdrawn"):
        services.accept_invitation(secret=secret, player=make_player("ann"))
    # Nor may it be sent again.
    with pytest.raises(ValidationError):
        services.send_again(invitation=Invitation.objects.get(), by=organiser(club))


def test_an_expired_invitation_lets_no_one_in(club, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(club=club, by=organiser(club), people=[("", "ann@example.org")])
    Invitation.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(ValidationError, match="expired"):
        services.accept_invitation(secret=secret_of(mail.outbox[0]), player=make_player("ann"))


def test_another_clubs_organiser_may_not_withdraw_or_resend_an_invitation(
    client, club, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(club=club, by=organiser(club), people=[("", "ann@example.org")])
    invitation = Invitation.objects.get()
    rival = make_player("rival")
    make_club("Rough", organiser=rival)
    client.force_login(rival)
    assert (
        client.post(reverse("leagues:invitation_withdraw", args=[invitation.pk])).status_code == 404
    )
    assert (
        client.post(reverse("leagues:invitation_send_again", args=[invitation.pk])).status_code
        == 404
    )
    invitation.refresh_from_db()
    assert invitation.is_pending and len(mail.outbox) == 1


def test_a_suspended_club_admits_no_one_and_mails_no_invitation(
    client, club, django_capture_on_commit_callbacks
):
    secret = services.renew_join_link(club=club, by=organiser(club))
    Club.objects.filter(pk=club.pk).update(status=Club.Status.SUSPENDED)
    newcomer = make_player("nina")
    client.force_login(newcomer)
    page = client.post(join_url(secret))
    assert page.status_code == 400 and "suspended" in page.content.decode()
    assert role_in(newcomer, club) is None
    with pytest.raises(PermissionDenied):
        services.join_by_link(secret=secret, player=newcomer)
    club.refresh_from_db()
    with pytest.raises(PermissionDenied):
        services.invite(club=club, by=organiser(club), people=[("", "ann@example.org")])


def test_a_secret_nobody_made_opens_nothing(client):
    assert client.get(join_url("x" * 43)).status_code == 404
    assert client.get(reverse("leagues:invitation", args=["x" * 43])).status_code == 404


def test_a_refused_mail_leaves_the_invitation_unsent_to_be_tried_again(
    club, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_BACKEND = "tests.leagues.mail_backends.RefusingBackend"
    with django_capture_on_commit_callbacks(execute=True):
        services.invite(
            club=club, by=organiser(club), people=[("", REFUSED), ("", "ann@example.org")]
        )
    refused = Invitation.objects.get(email=REFUSED)
    # The task failed (the queue tries it again); its secret and sending rolled back.
    assert refused.sent_at is None and refused.secret_hash == ""
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    result = services.mail_invitation.enqueue(refused.pk)
    assert result.status == "FAILED"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    assert services.mail_invitation.enqueue(refused.pk).return_value is True
    refused.refresh_from_db()
    assert refused.sent_at is not None and len(mail.outbox) == 2


def test_the_admin_lists_a_clubs_invitations_to_its_organisers_alone(client, club):
    Invitation.objects.create(club=club, email="ann@example.org", secret_hash="0" * 64)
    rival = make_player("rival")
    make_club("Rough", organiser=rival)
    url = reverse("admin:leagues_invitation_changelist")
    client.force_login(organiser(club))
    page = client.get(url).content.decode()
    assert "ann@example.org" in page and "0" * 64 not in page
    client.force_login(rival)
    assert "ann@example.org" not in client.get(url).content.decode()

"""Sign-up, log-in, log-out and password flows through Django's test client."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from leagues.accounts import services
from leagues.models import Player
from tests.factories import PASSWORD, make_player

# Run on PostgreSQL with Redis too: what this proves differs there (README.md, Testing).
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def signup(client, username="ana", password="fresh-greens-2024", **extra):
    data = {"username": username, "password1": password, "password2": password, **extra}
    return client.post(reverse("signup"), data)


def test_home_page_says_what_the_site_is_and_links_to_sign_up(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert b"Play Nine" in response.content
    assert reverse("signup").encode() in response.content


def test_signup_creates_a_player_and_logs_them_in(client):
    response = signup(client, display_name="Ana B.")
    assert response.status_code == 302
    player = Player.objects.get(username="ana")
    assert player.display_name == "Ana B."
    assert player.name == "Ana B."
    assert client.get(reverse("home")).context["user"] == player


def test_signup_refuses_a_taken_username_whatever_its_case(client):
    make_player("ana")
    response = signup(client, username="ANA")
    assert response.status_code == 200
    assert "That username is taken" in response.content.decode()
    assert Player.objects.count() == 1


def test_signup_refuses_an_email_another_account_has_whatever_its_case(client):
    make_player("bea", email="bea@example.com")
    response = signup(client, email="BEA@Example.com")
    assert response.status_code == 200
    assert "Another account uses that email address" in " ".join(
        response.context["form"].errors["email"]
    )
    assert not Player.objects.filter(username="ana").exists()
    # Without an address, as before, or with one of their own, they sign up.
    assert signup(client, email="").status_code == 302
    client.logout()
    assert signup(client, username="cy", email="cy@example.com").status_code == 302


def test_signup_refuses_mismatched_and_weak_passwords(client):
    response = client.post(
        reverse("signup"), {"username": "bo", "password1": "abc", "password2": "abd"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["password2"]
    assert not Player.objects.filter(username="bo").exists()
    response = signup(client, username="bo", password="12345678")
    assert response.context["form"].errors["password2"]
    assert not Player.objects.filter(username="bo").exists()


def test_signup_follows_a_safe_next_and_ignores_a_foreign_one(client):
    response = signup(client, username="cy", next="/accounts/password_change/")
    assert response["Location"] == "/accounts/password_change/"
    client.logout()
    response = signup(client, username="di", next="https://evil.example/")
    assert response["Location"] == reverse("home")


def test_login_with_the_right_password_and_refused_with_a_wrong_one(client):
    make_player("ana")
    response = client.post(reverse("login"), {"username": "ana", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()
    assert "_auth_user_id" not in client.session
    response = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


def test_logout_is_a_post_and_ends_the_session(client):
    player = make_player()
    client.force_login(player)
    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))
    assert "You are logged out" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_pages_that_need_an_account_redirect_to_login_and_back(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={reverse('password_change')}"


def test_password_change_needs_the_old_password(client):
    player = make_player()
    client.force_login(player)
    url = reverse("password_change")
    new = "a-brand-new-passphrase-7"
    response = client.post(
        url, {"old_password": "nope", "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 200
    assert response.context["form"].errors["old_password"]
    response = client.post(
        url, {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new)


def test_password_reset_sends_a_link_that_sets_a_new_password(client):
    make_player("ana", email="ana@example.com")
    client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    path = link[link.index("/accounts/reset/") :].strip()
    response = client.get(path, follow=True)
    new = "reset-passphrase-99"
    response = client.post(
        response.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}
    )
    assert response.status_code == 302
    assert Player.objects.get(username="ana").check_password(new)


def test_the_reset_mail_is_queued_without_its_token_and_sent_by_a_worker(client, task_workers):
    """The request waits for no mail server, and the queue (readable in the admin)
    never holds a link that would reset the password."""
    make_player("ana", email="ana@example.com")
    response = client.post(reverse("password_reset"), {"email": "ana@example.com"})
    assert response.status_code == 302 and mail.outbox == []
    queued = DBTaskResult.objects.get()
    assert "mail_password_reset" in queued.task_path
    assert "token" not in str(queued.args_kwargs)
    client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert DBTaskResult.objects.count() == 1  # no account: nothing queued, the same page
    call_command("db_worker", "--batch", "--no-startup-delay", "--no-reload", verbosity=0)
    assert [m.to for m in mail.outbox] == [["ana@example.com"]]
    link = next(line for line in mail.outbox[0].body.splitlines() if "/reset/" in line)
    path = link[link.index("/accounts/reset/") :].strip()
    response = client.get(path, follow=True)
    assert "new_password1" in response.content.decode()


def test_admin_is_for_staff_only(client):
    client.force_login(make_player())
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
    client.force_login(make_player(is_staff=True, is_superuser=True))
    assert client.get("/admin/leagues/player/").status_code == 200


def test_a_new_player_is_greeted_once_and_a_returning_one_welcomed_back(client):
    response = signup(client, display_name="Ana B.")
    html = client.get(response["Location"]).content.decode()
    assert html.count("Welcome to Fairway, Ana B.!") == 1
    assert "Welcome back" not in html
    html = client.get(reverse("home")).content.decode()
    assert html.count("Welcome back, Ana B.") == 1
    assert "Welcome to Fairway" not in html


def test_the_menus_name_leads_to_the_account_page_with_a_way_to_the_password(client):
    player = make_player("ana", display_name="Ana B.", email="ana@example.com")
    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert f'<a href="{reverse("account")}">Ana B.</a>' in html
    response = client.get(reverse("account"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Ana B."' in html
    assert 'value="ana@example.com"' in html
    assert f'href="{reverse("password_change")}"' in html


def test_a_player_changes_their_display_name_and_email(client):
    player = make_player("ana", display_name="Ana B.")
    client.force_login(player)
    response = client.post(
        reverse("account"), {"display_name": "  Ana the Great ", "email": "ana@Example.COM"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("account")
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Ana the Great", "ana@example.com")
    html = client.get(response["Location"]).content.decode()
    assert "Your account is saved." in html
    assert ">Ana the Great</a>" in html


def test_a_bad_account_change_is_named_and_changes_nothing(client):
    player = make_player("ana", display_name="Ana B.", email="ana@example.com")
    client.force_login(player)
    for data, field, message in [
        ({"display_name": "x" * 41, "email": ""}, "display_name", "at most 40 characters"),
        ({"display_name": "Ana\tB.", "email": ""}, "display_name", "control characters"),
        ({"display_name": "Ana", "email": "not-an-address"}, "email", "valid email"),
    ]:
        response = client.post(reverse("account"), data)
        assert response.status_code == 400
        assert message in " ".join(response.context["form"].errors[field])
        # The menu still shows the saved name, not the refused one.
        assert ">Ana B.</a>" in response.content.decode()
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Ana B.", "ana@example.com")


def test_the_account_page_refuses_an_email_another_account_has_and_changes_nothing(client):
    make_player("bea", email="bea@example.com")
    make_player("cy", email="")
    player = make_player("ana", display_name="Ana B.", email="ana@example.com")
    client.force_login(player)
    for taken in ("bea@example.com", "Bea@EXAMPLE.com", " BEA@example.COM "):
        response = client.post(reverse("account"), {"display_name": "Ana C.", "email": taken})
        assert response.status_code == 400
        errors = response.context["form"].errors["email"]
        assert errors == ["Another account uses that email address. Give an address of your own."]
        assert ">Ana B.</a>" in response.content.decode()
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Ana B.", "ana@example.com")
    # Their own address in another case, and no address (which others share), are fine.
    for own in ("ANA@example.com", ""):
        response = client.post(reverse("account"), {"display_name": "Ana B.", "email": own})
        assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == ""


def test_updating_an_account_refuses_an_email_another_account_has():
    make_player("bea", email="bea@example.com")
    player = make_player("ana", display_name="Ana B.", email="ana@example.com")
    with pytest.raises(ValidationError) as refused:
        services.update_account(player=player, display_name="Ana C.", email="BEA@example.com")
    assert "Another account uses that email address" in refused.value.message_dict["email"][0]
    assert (player.display_name, player.email) == ("Ana B.", "ana@example.com")
    player.refresh_from_db()
    assert (player.display_name, player.email) == ("Ana B.", "ana@example.com")


def test_the_account_page_needs_a_login(client):
    response = client.get(reverse("account"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert client.post(reverse("account"), {"display_name": "Z"}).status_code == 302

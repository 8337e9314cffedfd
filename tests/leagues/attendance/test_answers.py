"""Who is coming: members answer a night ahead from its page or their mail's one-click
links, the organiser sees the count and the tables it fills, the check-in list starts
from the answers, and every bad request changes nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.core import mail, signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from leagues.attendance import links, services
from leagues.attendance.selectors import answers_close_hours, expected_tables, night_answers
from leagues.calendar.notices import send_due_notices
from leagues.checkin.selectors import arrivals
from leagues.models import Answer, Club, League, LeagueNight, Player
from tests.factories import make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.django_db

COMING, MAYBE, NOT_COMING = Answer.Choice.COMING, Answer.Choice.MAYBE, Answer.Choice.NOT_COMING


@dataclass
class Ahead:
    organiser: Player
    members: list[Player]
    club: Club
    league: League
    night: LeagueNight


@pytest.fixture
def ahead() -> Ahead:
    """A night a week ahead; organiser Olive, members Ann..Hal (with addresses)."""
    olive = make_player("olive", display_name="Olive")
    members = [
        make_player(name.lower(), display_name=name, email=f"{name.lower()}@example.com")
        for name in ("Ann", "Bea", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
    ]
    club = make_club("Green Club", organiser=olive, members=members)
    league = make_league(club)
    today = timezone.localdate()
    season = make_season(league, start=today - timedelta(days=30), end=today + timedelta(days=60))
    night = make_night(season, today + timedelta(days=7))
    return Ahead(olive, members, club, league, night)


def test_answers_count_and_fill_the_tables_the_seating_would_deal(ahead):
    ann, bea, cat, dan, eve, fay, gus, hal = ahead.members
    for player in (ann, bea, cat, dan, eve):
        services.answer(night=ahead.night, player=player, choice=COMING)
    services.answer(night=ahead.night, player=fay, choice=MAYBE)
    services.answer(night=ahead.night, player=gus, choice=NOT_COMING)
    # A member changes their mind: the answer is replaced, not added.
    services.answer(night=ahead.night, player=eve, choice=MAYBE)
    services.answer(night=ahead.night, player=eve, choice=COMING)
    answers = night_answers(ahead.night)
    assert (answers.coming, answers.maybe, answers.not_coming) == (5, 1, 1)
    assert answers.tables == [3, 2]  # five players at tables of at most four, even
    assert answers.tables_with_maybe == [3, 3]
    assert answers.of(hal) == "" and answers.of(gus) == NOT_COMING
    assert Answer.objects.filter(night=ahead.night).count() == 7


def test_expected_tables_follow_the_games_table_size(ahead):
    assert expected_tables(0, ahead.league) == []
    assert expected_tables(9, ahead.league) == [3, 3, 3]
    golf = make_league(ahead.club, variant="golf-6")
    assert expected_tables(9, golf) == expected_tables(9, ahead.league)


def test_the_nights_page_reads_answers_in_one_query_whatever_the_history(ahead, client):
    ann = ahead.members[0]
    client.force_login(ahead.organiser)
    path = ahead.night.get_absolute_url()

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(path).status_code == 200
        return len(seen)

    before = queries()
    # Other nights' answers, many of them: the page reads no more.
    for days in range(1, 6):
        other = make_night(ahead.night.season, ahead.night.date + timedelta(days=days))
        for member in ahead.members:
            services.answer(night=other, player=member, choice=COMING)
    services.answer(night=ahead.night, player=ann, choice=COMING)
    assert queries() == before


def test_a_member_answers_from_the_nights_page_and_the_organiser_sees_the_count(ahead, client):
    ann = ahead.members[0]
    client.force_login(ann)
    url = reverse("leagues:night_answer", args=[ahead.night.pk])
    response = client.post(url, {"answer": COMING})
    assert response.status_code == 302 and response.url.endswith("#coming")
    assert night_answers(ahead.night).of(ann) == COMING
    page = client.get(ahead.night.get_absolute_url()).content.decode()
    assert 'aria-pressed="true">Coming<' in page
    assert "Expected tables" not in page  # the count is the organiser's
    client.force_login(ahead.organiser)
    page = client.get(ahead.night.get_absolute_url()).content.decode()
    assert "1 coming" in page and "Expected tables: 1 (1 players)" in page


def test_nonsense_and_outsiders_change_nothing(ahead, client):
    ann = ahead.members[0]
    client.force_login(ann)
    url = reverse("leagues:night_answer", args=[ahead.night.pk])
    client.post(url, {"answer": "perhaps"})
    with pytest.raises(ValidationError, match="coming, maybe or not coming"):
        services.answer(night=ahead.night, player=ann, choice="")
    stranger = make_player("sam")
    make_club("Other Club", organiser=stranger)
    client.force_login(stranger)
    assert client.post(url, {"answer": COMING}).status_code == 404
    with pytest.raises(ValidationError, match="not a member"):
        services.answer(night=ahead.night, player=stranger, choice=COMING)
    assert not Answer.objects.exists()


def test_answers_after_the_leagues_deadline_are_refused_with_a_clear_message(ahead, client):
    ann = ahead.members[0]
    ahead.night.start_time = timezone.localtime().time().replace(second=0, microsecond=0)
    ahead.night.date = timezone.localdate() + timedelta(days=2)
    ahead.night.save()
    services.set_answers_close(league=ahead.league, hours=72, by=ahead.organiser)
    with pytest.raises(ValidationError, match="Answers for this night closed on"):
        services.answer(night=ahead.night, player=ann, choice=COMING)
    client.force_login(ann)
    response = client.post(
        reverse("leagues:night_answer", args=[ahead.night.pk]), {"answer": COMING}, follow=True
    )
    assert "Answers for this night closed on" in response.content.decode()
    services.set_answers_close(league=ahead.league, hours=24, by=ahead.organiser)
    services.answer(night=ahead.night, player=ann, choice=COMING)
    assert Answer.objects.get().choice == COMING


def test_only_an_organiser_sets_the_deadline_and_nonsense_is_refused(ahead, client):
    url = reverse("leagues:answers_close", args=[ahead.night.pk])
    with pytest.raises(ValidationError, match="two weeks"):
        services.set_answers_close(league=ahead.league, hours=24 * 15, by=ahead.organiser)
    with pytest.raises(PermissionDenied):
        services.set_answers_close(league=ahead.league, hours=2, by=ahead.members[0])
    client.force_login(ahead.members[0])
    assert client.post(url, {"close_hours": "2"}).status_code == 403
    stranger = make_player("sam")
    make_club("Other Club", organiser=stranger)
    client.force_login(stranger)
    assert client.post(url, {"close_hours": "2"}).status_code == 404
    client.force_login(ahead.organiser)
    for nonsense, said in (("-3", "whole number"), ("lots", "whole number"), ("400", "two weeks")):
        page = client.post(url, {"close_hours": nonsense}, follow=True).content.decode()
        assert said in page
    assert answers_close_hours(ahead.league) is None
    client.post(url, {"close_hours": "48"})
    assert answers_close_hours(ahead.league) == 48
    client.post(url, {"close_hours": ""})
    assert answers_close_hours(ahead.league) is None


def _link(player: Player, night: LeagueNight, choice: str = COMING) -> str:
    return links.answer_link(player, night.pk, choice)


def test_a_mail_link_shows_a_button_on_get_and_records_only_on_post(ahead, client):
    ann = ahead.members[0]
    path = _link(ann, ahead.night)
    page = client.get(path)  # no log-in: a mail scanner, or the member
    assert page.status_code == 200 and "Confirm your answer" in page.content.decode()
    assert not Answer.objects.exists()
    done = client.post(path.split("?")[0], {"answer": COMING})
    assert done.status_code == 200 and "Saved: Coming" in done.content.decode()
    assert night_answers(ahead.night).of(ann) == COMING


def test_a_tampered_link_or_one_for_someone_else_records_nothing(ahead, client):
    ann, bea = ahead.members[:2]
    path = _link(ann, ahead.night).split("?")[0]
    token = path.rstrip("/").rsplit("/", 1)[1]
    tampered = path.replace(token, token[:-2] + ("AA" if token[-2:] != "AA" else "BB"))
    assert client.post(tampered, {"answer": COMING}).status_code == 400
    links.make_token(bea, ahead.night.pk)  # Bea has a key too
    as_bea = reverse("leagues:answer_link", args=[bea.pk, token])
    response = client.post(as_bea, {"answer": COMING})
    assert response.status_code == 400 and "does not work" in response.content.decode()
    # Another night's id signed with a different salt does not pass either.
    forged = signing.TimestampSigner(salt="leagues.answers").sign_object({"n": ahead.night.pk})
    assert client.post(reverse("leagues:answer_link", args=[ann.pk, forged])).status_code == 400
    assert not Answer.objects.exists()


def test_an_expired_link_records_nothing(ahead, client, monkeypatch):
    ann = ahead.members[0]
    path = _link(ann, ahead.night).split("?")[0]
    later = timezone.now() + links.LINK_AGE + timedelta(minutes=1)
    monkeypatch.setattr(signing.time, "time", lambda: later.timestamp())
    response = client.post(path, {"answer": COMING})
    assert response.status_code == 400 and "days old" in response.content.decode()
    assert not Answer.objects.exists()


def test_renewing_makes_every_earlier_link_stop_working(ahead, client):
    ann = ahead.members[0]
    old = _link(ann, ahead.night).split("?")[0]
    client.force_login(ann)
    response = client.post(reverse("leagues:answer_links_renew"), {"night": ahead.night.pk})
    assert response.status_code == 302
    client.logout()
    assert client.post(old, {"answer": COMING}).status_code == 400
    assert client.post(_link(ann, ahead.night).split("?")[0], {"answer": MAYBE}).status_code == 200
    assert Answer.objects.get().choice == MAYBE


def test_a_link_after_the_deadline_says_so_and_records_nothing(ahead, client):
    ann = ahead.members[0]
    path = _link(ann, ahead.night).split("?")[0]
    services.set_answers_close(league=ahead.league, hours=24 * 8, by=ahead.organiser)
    response = client.post(path, {"answer": COMING})
    assert response.status_code == 400 and "closed on" in response.content.decode()
    assert not Answer.objects.exists()


def test_the_reminder_mail_carries_each_members_own_links(ahead, client):
    ahead.night.date = timezone.localdate() + timedelta(days=1)
    ahead.night.save()
    send_due_notices(today=timezone.localdate())
    to_ann = next(m for m in mail.outbox if m.to == ["ann@example.com"])
    found = re.findall(r"Coming: https?://[^/]+(/\S+)", to_ann.body)
    assert len(found) == 1
    others = [m.body for m in mail.outbox if m.to != ["ann@example.com"]]
    assert all(found[0] not in body for body in others)
    assert client.post(found[0].split("?")[0], {"answer": COMING}).status_code == 200
    assert night_answers(ahead.night).of(ahead.members[0]) == COMING


def test_check_in_lists_those_coming_first_and_checks_no_one_in(ahead):
    ann, bea, cat = ahead.members[:3]
    ahead.night.date = timezone.localdate()
    ahead.night.save()
    services.answer(night=ahead.night, player=cat, choice=COMING)
    services.answer(night=ahead.night, player=bea, choice=MAYBE)
    services.answer(night=ahead.night, player=ann, choice=NOT_COMING)
    here = arrivals(ahead.night)
    order = [member.username for member in here.expected]
    assert order[:2] == ["cat", "bea"] and order[-1] == "ann"
    assert here.count == 0 and not ahead.night.players.exists()

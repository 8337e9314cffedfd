"""Check-in on arrival: a member checks in to tonight's night from its page or the door's
QR code, the organiser seats the night from who checked in, and bad requests change
nothing."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from leagues.attendance import services as attendance
from leagues.checkin import services
from leagues.checkin.selectors import arrivals, closed_reason
from leagues.models import Absence, CheckIn, Season, Substitute
from leagues.qr import qr_svg
from leagues.seating.services import seat_night
from tests.factories import (
    even_holes,
    make_club,
    make_league,
    make_night,
    make_player,
    make_season,
    open_table,
    played_table,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tonight():
    """Tonight's night of a club: organiser Olive, members Ann, Bea, Cat, Dan."""
    olive = make_player("olive", display_name="Olive")
    ann, bea, cat, dan = (
        make_player(name.lower(), display_name=name) for name in ("Ann", "Bea", "Cat", "Dan")
    )
    club = make_club("Green Club", organiser=olive, members=[ann, bea, cat, dan])
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=60), end=today + timedelta(days=60)
    )
    night = make_night(season, today)
    return night, olive, [ann, bea, cat, dan]


# --- Services ----------------------------------------------------------------------


def test_a_member_who_checks_in_is_present(tonight):
    night, _, (ann, *_) = tonight
    arrival = services.check_in(night=night, player=ann)
    assert not arrival.again and arrival.was_away == ""
    assert list(night.players.all()) == [ann]
    assert CheckIn.objects.get(night=night).player == ann


def test_checking_in_twice_is_harmless(tonight):
    night, _, (ann, *_) = tonight
    first = services.check_in(night=night, player=ann)
    again = services.check_in(night=night, player=ann)
    assert again.again and again.check_in.pk == first.check_in.pk
    assert night.check_ins.count() == 1 and night.players.count() == 1


def test_checking_in_again_leaves_the_organiser_s_choice_as_it_is(tonight):
    night, olive, (ann, bea, *_) = tonight
    services.check_in(night=night, player=ann)
    attendance.set_night_players(night=night, players=[bea], by=olive, seen_check_ins={ann.pk})
    services.check_in(night=night, player=ann)
    assert list(night.players.all()) == [bea]


def test_a_member_marked_away_who_checks_in_is_no_longer_away(tonight):
    night, olive, (ann, *_) = tonight
    attendance.mark_absent(night=night, player=ann, notice=True, by=olive)
    arrival = services.check_in(night=night, player=ann)
    assert arrival.was_away == "Absent, with notice"
    assert not night.absences.exists()
    assert list(night.players.all()) == [ann]


def test_a_member_with_a_substitute_is_told_and_nothing_changes(tonight):
    night, olive, (ann, bea, *_) = tonight
    attendance.set_substitute(night=night, member=ann, player=bea, by=olive)
    with pytest.raises(ValidationError, match="Bea plays for you tonight"):
        services.check_in(night=night, player=ann)
    assert not night.check_ins.exists()
    assert list(night.players.all()) == [bea]
    assert Substitute.objects.filter(night=night, member=ann).exists()


def test_only_members_of_the_club_check_in(tonight):
    night, *_ = tonight
    stranger = make_player("sam")
    make_club("Other Club", members=[stranger])
    with pytest.raises(ValidationError, match="Only members of Green Club can check in"):
        services.check_in(night=night, player=stranger)
    assert not night.check_ins.exists() and not night.players.exists()


@pytest.mark.parametrize(
    ("days", "reason"),
    [(-1, "This night is over."), (1, "Check-in opens on the day of the night")],
    ids=["yesterday", "tomorrow"],
)
def test_check_in_is_for_the_night_s_day_only(tonight, days, reason):
    night, _, (ann, *_) = tonight
    night.date = timezone.localdate() + timedelta(days=days)
    night.save()
    with pytest.raises(ValidationError, match=reason):
        services.check_in(night=night, player=ann)
    assert not night.check_ins.exists()


def test_a_check_in_after_seating_is_refused(tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    for player in (ann, bea):
        services.check_in(night=night, player=player)
    seat_night(night=night, by=olive, seats_per_table=2)
    with pytest.raises(ValidationError, match="The tables are seated: ask an organiser"):
        services.check_in(night=night, player=cat)
    with pytest.raises(ValidationError, match="The tables are seated"):
        services.undo_check_in(night=night, player=ann)
    assert set(night.players.all()) == {ann, bea}
    assert night.check_ins.count() == 2


def test_a_finished_night_or_a_closed_season_takes_no_check_in(tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    played_table(night, [ann, bea], even_holes(30, 40))
    assert closed_reason(night) == "This night is over."
    with pytest.raises(ValidationError, match="This night is over"):
        services.check_in(night=night, player=cat)
    night.tables.all().delete()
    Season.objects.filter(pk=night.season_id).update(closed_at=timezone.now())
    night.refresh_from_db()
    with pytest.raises(ValidationError, match="This night is over"):
        services.check_in(night=night, player=cat)
    assert not night.check_ins.exists()


def test_undo_takes_the_member_off_those_present(tonight):
    night, _, (ann, bea, *_) = tonight
    services.check_in(night=night, player=ann)
    services.check_in(night=night, player=bea)
    assert services.undo_check_in(night=night, player=ann) is True
    assert list(night.players.all()) == [bea]
    assert services.undo_check_in(night=night, player=ann) is False
    assert list(night.check_ins.values_list("player", flat=True)) == [bea.pk]


def test_seating_draws_from_who_checked_in(tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    for player in (ann, bea, cat):
        services.check_in(night=night, player=player)
    tables = seat_night(night=night, by=olive, seats_per_table=3, rng=random.Random(1))
    seated = set(tables[0].table.seats.values_list("player", flat=True))
    assert seated == {ann.pk, bea.pk, cat.pk}


def test_arrivals_name_who_is_here_and_who_is_expected(tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    attendance.mark_absent(night=night, player=dan, notice=True, by=olive)
    services.check_in(night=night, player=bea)
    services.check_in(night=night, player=ann)
    seen = arrivals(night)
    assert [arrival.player for arrival in seen.here] == [bea, ann]
    assert seen.count == 2
    # Dan is away; Cat and the organiser (a member too) are still expected.
    assert {player.username for player in seen.expected} == {"cat", "olive"}
    # Cat came without her phone: the organiser ticks her present.
    attendance.set_night_players(night=night, players=[ann, bea, cat], by=olive)
    assert [player.username for player in arrivals(night).expected] == ["olive"]


def test_saving_players_present_keeps_a_check_in_the_organiser_had_not_seen(tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    services.check_in(night=night, player=ann)
    # The organiser's form was drawn with Ann checked in; Bea checks in before it is saved.
    services.check_in(night=night, player=bea)
    attendance.set_night_players(night=night, players=[cat], by=olive, seen_check_ins={ann.pk})
    assert set(night.players.all()) == {bea, cat}


def test_a_players_form_whose_seen_check_ins_are_no_ids_changes_nothing(client, tonight):
    """ "²" passes str.isdigit() but not int(): the form says the page was out of date."""
    night, olive, (ann, bea, cat, dan) = tonight
    services.check_in(night=night, player=ann)
    client.force_login(olive)
    url = reverse("leagues:night_players", args=[night.pk])
    for seen in ("²", f"{ann.pk},²", "１", "x"):
        response = client.post(url, {"players": [cat.pk], "seen": seen})
        assert response.status_code == 400, seen
        assert "The page was out of date" in response.content.decode()
        assert set(night.players.all()) == {ann}
    response = client.post(url, {"players": [cat.pk], "seen": f"{ann.pk}"})
    assert response.status_code == 302 and set(night.players.all()) == {cat}


def test_the_door_sign_s_qr_code_is_inline_svg_with_a_name():
    svg = qr_svg("https://club.example/leagues/nights/1/check-in/", title="Check <in>")
    assert svg.startswith('<svg role="img" viewBox=')
    assert "<title>Check &lt;in&gt;</title>" in svg
    assert "style" not in svg and "<script" not in svg and "<?xml" not in svg


# --- Pages -------------------------------------------------------------------------


def test_a_member_checks_in_from_the_night_s_page(client, tonight):
    night, _, (ann, *_) = tonight
    client.force_login(ann)
    page = client.get(night.get_absolute_url())
    assert page.status_code == 200
    assert b"I'm here" in page.content and b"0 checked in" in page.content
    response = client.post(reverse("leagues:check_in", args=[night.pk]), {"back": "night"})
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert list(night.players.all()) == [ann]
    page = client.get(night.get_absolute_url())
    assert b"You're checked in." in page.content and b"1 checked in" in page.content
    assert b"Undo" in page.content


def test_the_door_s_qr_code_sends_a_signed_out_member_to_log_in_and_back(client, tonight):
    night, _, (ann, *_) = tonight
    address = reverse("leagues:check_in", args=[night.pk])
    response = client.get(address)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={address}"
    client.force_login(ann)
    page = client.get(address)
    assert page.status_code == 200 and b"I'm here" in page.content
    response = client.post(address)
    assert response.status_code == 302 and response["Location"] == address
    assert night.check_ins.filter(player=ann).exists()


def test_the_organiser_s_door_sign_carries_the_check_in_address_as_a_qr_code(client, tonight):
    night, olive, (ann, *_) = tonight
    client.force_login(olive)
    page = client.get(reverse("leagues:door_sign", args=[night.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert '<svg role="img"' in text
    assert f"http://testserver/leagues/nights/{night.pk}/check-in/" in text
    client.force_login(ann)
    assert client.get(reverse("leagues:door_sign", args=[night.pk])).status_code == 403


def test_the_organiser_sees_who_checked_in_ticked_and_who_is_expected(client, tonight):
    night, olive, (ann, bea, cat, dan) = tonight
    services.check_in(night=night, player=ann)
    client.force_login(olive)
    page = client.get(night.get_absolute_url())
    text = page.content.decode()
    assert "1 checked in" in text and "Expected, not here yet" in text
    assert f'name="seen" value="{ann.pk}"' in text
    ann_box = f'<input type="checkbox" name="players" value="{ann.pk}"'
    assert ann_box in text and "checked" in text.split(ann_box)[1].split(">")[0]
    assert "checked in</span>" in text
    fragment = client.get(reverse("leagues:night_arrivals", args=[night.pk]))
    assert fragment.status_code == 200 and "Ann" in fragment.content.decode()
    # Asked for while the page's socket is down: the page's script polls it.
    assert 'hx-trigger="poll" hx-swap="outerHTML" data-poll-offline=' in fragment.content.decode()


def test_the_players_boxes_are_drawn_as_django_draws_them(client, tonight):
    """The night page draws each member's box itself (for speed): the same markup as the
    checkbox widget's own, ticked for those present."""
    from leagues.attendance.forms import NightPlayersForm
    from leagues.clubs.selectors import club_members

    night, olive, (ann, bea, *_) = tonight
    night.players.set([ann])
    client.force_login(olive)
    text = client.get(night.get_absolute_url()).content.decode()
    form = NightPlayersForm(
        members=club_members(night.season.league.club), initial={"players": [ann]}
    )
    boxes = [str(choice.tag()) for choice in form["players"]]
    assert len(boxes) == 5 and all(box in text for box in boxes)
    assert sum(" checked>" in box for box in boxes) == 1


def test_a_member_s_arrivals_fragment_has_the_count_and_no_names(client, tonight):
    night, _, (ann, bea, *_) = tonight
    services.check_in(night=night, player=ann)
    client.force_login(bea)
    fragment = client.get(reverse("leagues:night_arrivals", args=[night.pk])).content.decode()
    assert "1 checked in" in fragment and "Ann" not in fragment


def test_undo_from_the_night_s_page(client, tonight):
    night, _, (ann, *_) = tonight
    services.check_in(night=night, player=ann)
    client.force_login(ann)
    response = client.post(reverse("leagues:check_in_undo", args=[night.pk]), {"back": "night"})
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert not night.check_ins.exists() and not night.players.exists()


def test_a_refused_check_in_says_why_and_changes_nothing(client, tonight):
    night, olive, (ann, bea, *_) = tonight
    open_table(night, [olive, bea])
    client.force_login(ann)
    response = client.post(reverse("leagues:check_in", args=[night.pk]))
    assert response.status_code == 400
    assert b"The tables are seated: ask an organiser to add you." in response.content
    assert not night.check_ins.exists()


def test_a_player_outside_the_club_is_refused_without_learning_of_it(client, tonight):
    night, *_ = tonight
    stranger = make_player("sam")
    client.force_login(stranger)
    for method in (client.get, client.post):
        response = method(reverse("leagues:check_in", args=[night.pk]))
        assert response.status_code == 403
        assert b"Only the club&#x27;s members can check in" in response.content
        assert b"Green Club" not in response.content
    response = client.post(reverse("leagues:check_in_undo", args=[night.pk]))
    assert response.status_code == 403
    assert client.get(reverse("leagues:door_sign", args=[night.pk])).status_code == 404
    assert client.get(reverse("leagues:night_arrivals", args=[night.pk])).status_code == 404
    assert not night.check_ins.exists() and not night.players.exists()


def test_a_night_of_another_club_is_no_member_s_to_check_in_to(client, tonight):
    night, _, (ann, *_) = tonight
    other = make_night(make_season(make_league(make_club("Blue Club"))), night.date)
    client.force_login(ann)
    assert client.post(reverse("leagues:check_in", args=[other.pk])).status_code == 403
    assert not CheckIn.objects.exists()


def test_check_in_and_undo_refuse_the_wrong_method(client, tonight):
    night, _, (ann, *_) = tonight
    client.force_login(ann)
    assert client.get(reverse("leagues:check_in_undo", args=[night.pk])).status_code == 405
    assert client.put(reverse("leagues:check_in", args=[night.pk])).status_code == 405
    assert client.post(reverse("leagues:door_sign", args=[night.pk])).status_code == 405
    assert not night.check_ins.exists()


def test_a_check_in_without_the_csrf_token_is_refused(tonight):
    from django.test import Client

    night, _, (ann, *_) = tonight
    client = Client(enforce_csrf_checks=True)
    client.force_login(ann)
    response = client.post(reverse("leagues:check_in", args=[night.pk]))
    assert response.status_code == 403
    assert not night.check_ins.exists()


def test_a_night_not_tonight_shows_no_button(client, tonight):
    night, _, (ann, *_) = tonight
    night.date = timezone.localdate() + timedelta(days=7)
    night.save()
    client.force_login(ann)
    page = client.get(night.get_absolute_url()).content.decode()
    assert "I'm here" not in page and "Check-in opens on the day of the night" in page


def test_an_absent_member_is_told_their_absence_is_taken_back(client, tonight):
    night, olive, (ann, *_) = tonight
    attendance.mark_absent(night=night, player=ann, notice=False, by=olive)
    client.force_login(ann)
    page = client.get(reverse("leagues:check_in", args=[night.pk]))
    assert b"You are marked away tonight (Absent, without notice)." in page.content
    assert b"I'm here" in page.content
    response = client.post(reverse("leagues:check_in", args=[night.pk]), follow=True)
    assert b"You were marked away (Absent, without notice); that is taken back." in (
        response.content
    )
    assert not Absence.objects.filter(night=night).exists()


def test_a_seated_night_s_tables_keep_their_check_ins_in_the_admin(client, tonight):
    night, olive, (ann, bea, *_) = tonight
    for player in (ann, bea):
        services.check_in(night=night, player=player)
    seat_night(night=night, by=olive, seats_per_table=2, kind=Table.Kind.PAPER)
    assert set(CheckIn.objects.filter(night=night).values_list("player", flat=True)) == {
        ann.pk,
        bea.pk,
    }
    client.force_login(olive)
    page = client.get(reverse("admin:leagues_leaguenight_change", args=[night.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    # The night's inline lists each check-in, read only: a name, never a field to change.
    inline = html[html.index('id="check_ins-group"') :]
    inline = inline[: inline.index("</fieldset>")]
    for player in (ann, bea):
        assert f">{player.name}</a></p>" in inline
    assert inline.count('class="form-row has_original"') == 2
    assert 'name="check_ins-0-player"' not in inline
    assert '<td class="delete"></td>' in inline and "DELETE" not in inline


def test_the_admin_lists_check_ins_of_the_organiser_s_own_clubs_read_only(client, tonight):
    night, olive, (ann, *_) = tonight
    services.check_in(night=night, player=ann)
    rival = make_player("rita", is_staff=True)
    other_night = make_night(make_season(make_league(make_club(organiser=rival))))
    zed = make_player("zed")
    other_night.season.league.club.memberships.create(player=zed)
    CheckIn.objects.create(night=other_night, player=zed)
    client.force_login(olive)
    page = client.get(reverse("admin:leagues_checkin_changelist"))
    assert page.status_code == 200
    assert b"Ann" in page.content and b"zed" not in page.content
    assert b"Add check-in" not in page.content
    one = CheckIn.objects.get(player=ann)
    assert client.post(reverse("admin:leagues_checkin_delete", args=[one.pk])).status_code == 403
    assert CheckIn.objects.count() == 2

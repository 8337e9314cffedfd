"""Check-ins at the same moment on PostgreSQL, in real threads: two members (or one
member twice) at once, and check-ins racing the organiser's seating. Each holds the
season's row, so they go one after the other and answer as after each other."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from leagues.attendance.services import set_night_players
from leagues.checkin.services import check_in, undo_check_in
from leagues.models import CheckIn
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.races import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


@pytest.fixture
def tonight():
    olive = make_player("olive")
    people = [make_player(f"m{n}", display_name=f"M{n}") for n in range(8)]
    club = make_club(organiser=olive, members=people)
    today = timezone.localdate()
    season = make_season(
        make_league(club), start=today - timedelta(days=30), end=today + timedelta(days=30)
    )
    return make_night(season, today), olive, people


def test_everyone_checking_in_at_once_is_checked_in_once(tonight):
    night, _, people = tonight
    calls = [lambda p=p: check_in(night=night, player=p) for p in people]
    calls += [lambda: check_in(night=night, player=people[0])]
    results = at_once(*calls)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert night.check_ins.count() == 8
    assert set(night.players.values_list("pk", flat=True)) == {p.pk for p in people}
    assert sum(1 for r in results if r.again) == 1


def test_a_check_in_and_its_undo_at_once_leave_check_in_and_presence_agreeing(tonight):
    night, _, people = tonight
    check_in(night=night, player=people[0])
    results = at_once(
        lambda: undo_check_in(night=night, player=people[0]),
        lambda: check_in(night=night, player=people[0]),
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    present = night.players.filter(pk=people[0].pk).exists()
    assert present == CheckIn.objects.filter(night=night, player=people[0]).exists()


def test_check_ins_racing_the_seating_are_seated_or_refused_never_lost(tonight):
    night, olive, people = tonight
    for player in people[:4]:
        check_in(night=night, player=player)
    late = people[4:]
    calls = [lambda: seat_night(night=night, by=olive, seats_per_table=4)]
    calls += [lambda p=p: check_in(night=night, player=p) for p in late]
    results = at_once(*calls)
    assert not isinstance(results[0], BaseException), results[0]
    seated = set(
        night.tables.values_list("table__seats__player", flat=True).exclude(
            table__seats__player=None
        )
    )
    byes = set(night.absences.values_list("player", flat=True))
    for player, result in zip(late, results[1:], strict=True):
        if isinstance(result, ValidationError):
            # Came after the seating: told so, and not checked in.
            assert "The tables are seated" in str(result)
            assert not night.check_ins.filter(player=player).exists()
            assert player.pk not in seated
        else:
            # Came first: checked in, and seated with the rest.
            assert not isinstance(result, BaseException), result
            assert player.pk in seated | byes
    # Everyone present has a seat; everyone checked in is present.
    present = set(night.players.values_list("pk", flat=True))
    assert present == seated | byes
    assert set(night.check_ins.values_list("player", flat=True)) <= present


def test_a_check_in_racing_the_organiser_s_players_form_is_kept_present(tonight):
    night, olive, people = tonight
    # The organiser's form was drawn before anyone checked in; they tick two members.
    results = at_once(
        lambda: set_night_players(night=night, players=people[:2], by=olive, seen_check_ins=set()),
        lambda: check_in(night=night, player=people[5]),
    )
    assert not [r for r in results if isinstance(r, BaseException)], results
    present = set(night.players.values_list("pk", flat=True))
    assert present == {people[0].pk, people[1].pk, people[5].pk}

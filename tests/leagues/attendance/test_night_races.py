"""A night's seating, absences and substitutes made twice at the same moment: the
second waits for the first and answers as after it, never with a broken constraint."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from games.models import Table
from leagues.attendance.services import mark_absent, set_substitute
from leagues.models import Substitute
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.races import at_once

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def night():
    olive = make_player("olive")
    people = [make_player(f"m{n}", display_name=f"M{n}") for n in range(8)]
    club = make_club(organiser=olive, members=people)
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    return night, olive, people


def test_two_seatings_at_once_leave_one_seating(night):
    night, olive, people = night
    night.players.set(people)

    def seat():
        return seat_night(night=night, by=olive, seats_per_table=4, kind=Table.Kind.LIVE)

    results = at_once(seat, seat, seat)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert sorted(night.tables.values_list("number", flat=True)) == [1, 2]
    seated = list(Table.objects.filter(night_table__night=night).values_list("seats__player"))
    assert len(seated) == 8 and len(set(seated)) == 8


def test_a_substitute_named_twice_at_once_is_named_once(night):
    night, olive, people = night
    member = people[0]

    def name_guest():
        return set_substitute(night=night, member=member, guest_name="Gus", by=olive)

    results = at_once(name_guest, name_guest)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], ValidationError), results
    assert "has a substitute tonight already" in str(errors[0])
    assert Substitute.objects.filter(night=night, member=member).count() == 1


def test_a_member_marked_away_twice_at_once_is_away_once(night):
    night, olive, people = night

    def away():
        return mark_absent(night=night, player=people[1], notice=True, by=olive)

    results = at_once(away, away)
    assert not [r for r in results if isinstance(r, BaseException)], results
    assert night.absences.filter(player=people[1]).count() == 1

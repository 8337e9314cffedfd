"""Two organisers inviting the same address at the same moment, on PostgreSQL, in real
threads: one invitation is made and mailed, and neither organiser meets an error."""

from __future__ import annotations

import pytest
from django.db import connection

from leagues.invitations import services
from leagues.models import Invitation, Membership
from tests.factories import make_club, make_player
from tests.races import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _on_postgresql():
    if connection.vendor != "postgresql":
        pytest.fail("set DATABASE_URL (PostgreSQL): this runs in `make test-postgres`")


def test_two_organisers_inviting_one_address_at_once_make_one_invitation():
    olive, otto = make_player("olive"), make_player("otto")
    club = make_club(organiser=olive)
    Membership.objects.create(club=club, player=otto, role=Membership.Role.ORGANISER)
    people = [("Ivy", "ivy@example.org"), ("Jo", "jo@example.org")]
    for _ in range(5):
        Invitation.objects.all().delete()
        results = at_once(
            lambda: services.invite(club=club, by=olive, people=people),
            lambda: services.invite(club=club, by=otto, people=people[::-1]),
        )
        assert not [r for r in results if isinstance(r, BaseException)], results
        assert sorted(len(made) for made in results) == [0, 2]
        assert sorted(Invitation.objects.values_list("email", flat=True)) == [
            "ivy@example.org",
            "jo@example.org",
        ]

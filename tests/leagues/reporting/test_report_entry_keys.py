"""A phone sends what it kept while offline again once the connection returns, not
knowing whether the first send arrived: each entry's key records it once, answers a
second send as the first, and refuses a key sent again with anything else."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from leagues.models import ReportedHole, ReportEntry, ScoreCorrection
from leagues.reporting import services

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def report(club_night):
    return club_night.night_table.report


def hole_url(report, number, action=""):
    name = f"leagues:report_{action}" if action else "leagues:report_hole"
    return reverse(name, args=[report.code, number])


def post_hole(client, report, number, strokes, *, key, version=0, reason=""):
    data = {"version": version, "key": key, "reason": reason}
    data |= {f"s{p}": s for p, s in enumerate(strokes)}
    return client.post(hole_url(report, number), data)


def snapshot(report):
    return list(
        ReportedHole.objects.filter(report=report)
        .order_by("number")
        .values_list("number", "strokes", "state", "version", "entered_by", "checked_by")
    )


def test_an_entry_sent_twice_is_recorded_once_and_answered_the_same(client, club_night, report):
    client.force_login(club_night.member)
    key = str(uuid.uuid4())
    first = post_hole(client, report, 1, [3, 4, 5], key=key)
    after_first = snapshot(report)
    again = post_hole(client, report, 1, [3, 4, 5], key=key)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert (
        snapshot(report)
        == after_first
        == [(1, [3, 4, 5], "entered", 1, club_night.member.pk, None)]
    )
    assert ReportEntry.objects.filter(key=key).count() == 1
    page = client.get(first["Location"]).content.decode()
    assert "Hole 1 entered: another player of the table confirms it." in page


def test_a_confirmation_sent_again_after_the_hole_moved_on_changes_nothing(
    client, club_night, report
):
    """The replay carries the version the phone saw, now stale: the key answers it as
    the first send was answered, not as a clash."""
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5], key=str(uuid.uuid4()))
    client.force_login(cn.others[0])
    key = str(uuid.uuid4())
    confirm = {"version": 1, "key": key}
    assert client.post(hole_url(report, 1, "confirm"), confirm).status_code == 302
    after_first = snapshot(report)
    again = client.post(hole_url(report, 1, "confirm"), confirm)
    assert again.status_code == 302 and again["Location"] == reverse(
        "leagues:report", args=[report.code]
    )
    assert snapshot(report) == after_first and after_first[0][2] == "confirmed"
    assert not ScoreCorrection.objects.exists()


def test_a_dispute_sent_twice_is_recorded_once(client, club_night, report):
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5], key=str(uuid.uuid4()))
    client.force_login(cn.others[0])
    sent = {"version": 1, "key": str(uuid.uuid4()), "reason": "I took 7"}
    assert client.post(hole_url(report, 1, "dispute"), sent).status_code == 302
    assert client.post(hole_url(report, 1, "dispute"), sent).status_code == 302
    hole = report.holes.get(number=1)
    assert hole.state == ReportedHole.State.DISPUTED and hole.version == 2


def test_a_key_sent_again_with_other_figures_is_refused_and_changes_nothing(
    client, club_night, report
):
    client.force_login(club_night.member)
    key = str(uuid.uuid4())
    post_hole(client, report, 1, [3, 4, 5], key=key)
    before = snapshot(report)
    other = post_hole(client, report, 1, [3, 4, 6], key=key, version=1)
    assert other.status_code == 400
    assert "key was sent before with other figures" in other.content.decode()
    elsewhere = post_hole(client, report, 2, [3, 4, 5], key=key)
    assert elsewhere.status_code == 400
    assert snapshot(report) == before
    assert ReportEntry.objects.count() == 1


def test_a_key_is_one_players_own(club_night, report):
    """Another player sending the same key (a copied page) is refused, not answered as
    the first player's entry."""
    cn = club_night
    key = uuid.uuid4()
    services.enter_hole(
        report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.member, key=key
    )
    with pytest.raises(services.ValidationError, match="sent before with other figures"):
        services.enter_hole(
            report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.others[0], key=key
        )
    assert report.holes.get(number=1).entered_by == cn.member


def test_a_refused_entry_keeps_no_key_so_it_may_be_sent_again(client, club_night, report):
    """A send refused (a clash with the other phone) records nothing: the same entry
    sent again is judged afresh."""
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5], key=str(uuid.uuid4()))
    client.force_login(cn.others[0])
    key = str(uuid.uuid4())
    assert post_hole(client, report, 1, [3, 9, 5], key=key).status_code == 409
    assert not ReportEntry.objects.filter(key=key).exists()
    assert post_hole(client, report, 1, [3, 9, 5], key=key, version=1).status_code == 302
    assert report.holes.get(number=1).strokes == [3, 9, 5]


def test_a_malformed_key_is_refused_and_changes_nothing(client, club_night, report):
    client.force_login(club_night.member)
    response = post_hole(client, report, 1, [3, 4, 5], key="not-a-key")
    assert response.status_code == 400
    assert "Enter a valid UUID." in response.content.decode()
    assert not report.holes.exists() and not ReportEntry.objects.exists()

"""A roster imported: the CSV as spreadsheets write it, read into rows to invite and rows
refused with their reason; a dry run that writes nothing; the confirmation that invites.
"""

from __future__ import annotations

import csv
import io
import re
import time

import pytest
from django.core import mail, signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django_tasks_db.models import DBTaskResult
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.invitations.roster import MAX_ROWS, RosterRefused, read_roster
from leagues.invitations.services import mail_invitation
from leagues.models import Invitation
from tests.factories import make_club, make_player

# --- The parser --------------------------------------------------------------------------


def test_an_excel_export_with_semicolons_a_bom_quotes_and_a_header():
    data = (
        '\ufeff"First name";"Last name";"E-mail address"\r\n'
        '"Ann";"O\'Neil";"ann@example.org"\r\n'
        '"Bea; the second";"Smith";"bea@example.org"\r\n'
    ).encode()
    rows = read_roster(data)
    assert [(r.line, r.name, r.email, r.problem) for r in rows] == [
        (2, "Ann O'Neil", "ann@example.org", ""),
        (3, "Bea; the second Smith", "bea@example.org", ""),
    ]


def test_commas_without_a_header_in_either_order():
    rows = read_roster(b"Ann,ann@example.org\nbea@example.org,Bea\n\n")
    assert [(r.name, r.email) for r in rows] == [
        ("Ann", "ann@example.org"),
        ("Bea", "bea@example.org"),
    ]


def test_a_header_of_name_and_email_in_any_case_and_order():
    rows = read_roster(b"EMAIL,Name\nann@example.org,Ann\n")
    assert [(r.name, r.email) for r in rows] == [("Ann", "ann@example.org")]


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("Ann,not-an-address", "not an email address"),
        ('Ann,"ann@exa mple.org"', "not an email address"),
        ("Ann,ann@example.org\x7f", "not an email address"),
        ("Ann,", "No email address"),
        ("=HYPERLINK(1),ann@example.org", "formula"),
        ("+Ann,ann@example.org", "formula"),
        ("-Ann,ann@example.org", "formula"),
        ("@Ann,ann@example.org", "formula"),
        ("Ann,=ann@example.org", "formula"),
        ("A" * 81 + ",ann@example.org", "longer than 80"),
    ],
)
def test_a_row_is_refused_with_its_reason(line, reason):
    (row,) = read_roster(line.encode())
    assert reason in row.problem


def test_the_same_address_twice_is_refused_the_second_time():
    rows = read_roster(b"Ann,ann@example.org\nAnnie,ANN@example.org\n")
    assert rows[0].problem == "" and "same address as line 1" in rows[1].problem


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"x" * 1_000_001, "MB: a roster may be 1000 kB"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not a CSV file"),
        ("Ann,ann@example.org\n".encode("utf-16"), "not a CSV file"),
        ("Zoë,zoe@example.org\n".encode("latin-1"), "not UTF-8"),
        (b"\n\n", "no names"),
        (b"Name,Email\n", "no names"),
        ("".join(f"P{n},p{n}@example.org\n" for n in range(MAX_ROWS + 1)).encode(), "more than"),
    ],
)
def test_a_file_is_refused_whole_with_a_clear_message(data, reason):
    with pytest.raises(RosterRefused, match=reason):
        read_roster(data)


names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=30
).filter(lambda s: s.strip() and not s.strip().startswith(("=", "+", "-", "@")))
emails = st.from_regex(
    r"[a-z][a-z0-9_]{0,8}(\.[a-z0-9]{1,5})?@[a-z]{1,10}\.(org|com|net)", fullmatch=True
)


@settings(max_examples=60, deadline=None)
@given(
    people=st.lists(st.tuples(names, emails), min_size=1, max_size=20, unique_by=lambda p: p[1]),
    delimiter=st.sampled_from([",", ";"]),
    bom=st.booleans(),
    header=st.booleans(),
    quoting=st.sampled_from([csv.QUOTE_MINIMAL, csv.QUOTE_ALL]),
)
def test_any_roster_a_spreadsheet_writes_reads_back_as_written(
    people, delimiter, bom, header, quoting
):
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, quoting=quoting)
    if header:
        writer.writerow(["Name", "Email"])
    writer.writerows(people)
    data = ("\ufeff" if bom else "") + out.getvalue()
    rows = read_roster(data.encode())
    assert [(r.name, r.email) for r in rows] == [(n.strip(), e) for n, e in people]
    assert all(r.problem == "" or "longer" in r.problem or "control" in r.problem for r in rows)


# --- The pages ---------------------------------------------------------------------------


def upload(text: bytes, name: str = "roster.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text, content_type="text/csv")


@pytest.fixture
def club(db):
    olive = make_player("olive")
    mia = make_player("mia", email="mia@example.org")
    return make_club("Fairway", organiser=olive, members=[mia])


@pytest.mark.django_db
@pytest.mark.both_databases
def test_the_dry_run_writes_nothing_and_the_confirmation_invites(
    client, club, django_capture_on_commit_callbacks
):
    client.force_login(club.memberships.get(role="organiser").player)
    data = b"Name;Email\nAnn;ann@example.org\nMia;MIA@example.org\nBad;nope\n=cmd;x@example.org\n"
    page = client.post(reverse("leagues:roster", args=[club.slug]), {"roster": upload(data)})
    text = page.content.decode()
    assert page.status_code == 200
    assert "1 will be invited, 1 is a member already, 0 invited already, 2 rows refused" in text
    assert "Line 3: MIA@example.org is a member already." in text
    assert "&#x27;nope&#x27; is not an email address" in text and "formula" in text
    assert not Invitation.objects.exists() and not mail.outbox
    token = re.search(r'name="token" value="([^"]+)"', text).group(1)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("leagues:roster_confirm", args=[club.slug]), {"token": token})
    assert [i.email for i in Invitation.objects.all()] == ["ann@example.org"]
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    # Confirmed twice (a double click): nobody is invited twice.
    client.post(reverse("leagues:roster_confirm", args=[club.slug]), {"token": token})
    assert Invitation.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.both_databases
def test_a_token_tampered_with_or_of_another_club_invites_no_one(client, club):
    olive = club.memberships.get(role="organiser").player
    other = make_club("Rough", organiser=olive)
    client.force_login(olive)
    page = client.post(
        reverse("leagues:roster", args=[other.slug]), {"roster": upload(b"Ann,ann@example.org")}
    )
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    for url_club, sent in ((club, token), (other, token[:-2] + "xx"), (other, "")):
        response = client.post(
            reverse("leagues:roster_confirm", args=[url_club.slug]), {"token": sent}, follow=True
        )
        assert "out of date" in response.content.decode()
    forged = signing.dumps([[1, "Eve", "eve@example.org"]], salt="another salt", compress=True)
    client.post(reverse("leagues:roster_confirm", args=[other.slug]), {"token": forged})
    assert not Invitation.objects.exists()


@pytest.mark.django_db
@pytest.mark.both_databases
@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\x00\x01\x02binary" * 10, "not a CSV file"),
        (b"x" * 50_000_000, "50.0 MB"),
        ("".join(f"P{n},p{n}@example.org\n" for n in range(10_000)).encode(), "more than 2,000"),
    ],
    ids=["binary", "50 MB", "10,000 rows"],
)
def test_the_page_refuses_a_file_whole_with_a_clear_message(client, club, data, reason):
    client.force_login(club.memberships.get(role="organiser").player)
    page = client.post(reverse("leagues:roster", args=[club.slug]), {"roster": upload(data)})
    assert page.status_code == 400 and reason in page.content.decode()
    assert not Invitation.objects.exists()


@pytest.mark.django_db
@pytest.mark.both_databases
def test_a_plain_member_may_not_import_a_roster(client, club):
    client.force_login(club.memberships.get(role="player").player)
    page = client.post(
        reverse("leagues:roster", args=[club.slug]), {"roster": upload(b"Ann,ann@example.org")}
    )
    assert page.status_code == 403


@pytest.mark.django_db
@pytest.mark.both_databases
def test_a_roster_of_a_thousand_rows_is_checked_and_invited_in_seconds(
    client, club, settings, django_capture_on_commit_callbacks
):
    """What the organiser waits for: the dry run, and the confirmation that writes the
    invitations and queues their mail (the workers send it)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    client.force_login(club.memberships.get(role="organiser").player)
    data = "Name;E-mail\n" + "".join(f"Player {n};p{n}@example.org\n" for n in range(1000))
    started = time.perf_counter()
    page = client.post(
        reverse("leagues:roster", args=[club.slug]), {"roster": upload(data.encode())}
    )
    checked = time.perf_counter() - started
    token = re.search(r'name="token" value="([^"]+)"', page.content.decode()).group(1)
    started = time.perf_counter()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("leagues:roster_confirm", args=[club.slug]), {"token": token})
    confirmed = time.perf_counter() - started
    print(f"1,000 rows: dry run {checked:.2f} s, confirmed (1,000 mails queued) {confirmed:.2f} s")
    assert Invitation.objects.count() == 1000
    queued = DBTaskResult.objects.filter(task_path=mail_invitation.module_path)
    assert queued.count() == 1000 and not mail.outbox
    assert checked < 5 and confirmed < 10

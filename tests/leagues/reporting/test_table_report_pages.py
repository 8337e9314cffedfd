"""The pages of a table's report: the table cards, the code page, and the phone page where
the players enter, confirm and dispute holes and the organiser settles them."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Table
from leagues.models import LeagueNight, ReportedHole, TableReport
from leagues.reporting import guesses, selectors, services
from leagues.seating.services import seat_night
from tests.factories import even_holes, make_club, make_night, make_player, open_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(club_night):
    return club_night.night_table.report


def page(report):
    return reverse("leagues:report", args=[report.code])


def hole_url(report, number, action=""):
    name = f"leagues:report_{action}" if action else "leagues:report_hole"
    return reverse(name, args=[report.code, number])


def post_hole(client, report, number, strokes, version=0, **extra):
    data = {"version": version, **{f"s{p}": s for p, s in enumerate(strokes)}, **extra}
    return client.post(hole_url(report, number), data)


def test_the_night_page_links_the_organiser_to_the_table_cards(client, club_night):
    cn = club_night
    client.force_login(cn.organiser)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert reverse("leagues:table_cards", args=[cn.night.pk]) in html
    assert reverse("leagues:table_card", args=[cn.night_table.pk]) in html


def test_the_table_cards_print_each_paper_tables_code_and_qr_code(client, club_night):
    cn = club_night
    second = open_table(cn.night, [make_player("ray"), make_player("sue")])
    client.force_login(cn.organiser)
    response = client.get(reverse("leagues:table_cards", args=[cn.night.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    reports = {r.night_table_id: r for r in TableReport.objects.all()}
    assert set(reports) == {cn.night_table.pk, second.pk}
    for report in reports.values():
        assert selectors.shown_code(report.code) in html
        assert f"http://testserver{page(report)}" in html
    assert html.count("<svg") == 2 and "<script" not in html.split("</main>")[0].split("<main")[1]
    # No card for a member who is not an organiser.
    client.force_login(cn.member)
    assert client.get(reverse("leagues:table_cards", args=[cn.night.pk])).status_code == 403


def test_opening_the_cards_and_the_report_page_writes_nothing(client, club_night):
    """The code exists from the seating on: the pages only read it."""
    cn = club_night
    (seated,) = seat_night(night=cn.night, by=cn.organiser, seats_per_table=3)
    report = TableReport.objects.get(night_table=seated)
    pages = [
        (cn.organiser, reverse("leagues:table_cards", args=[cn.night.pk])),
        (cn.organiser, reverse("leagues:table_card", args=[seated.pk])),
        (cn.member, page(report)),
        (cn.organiser, page(report)),
    ]
    for user, url in pages:
        client.force_login(user)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        assert selectors.shown_code(report.code) in response.content.decode()
        writes = [
            q["sql"]
            for q in queries
            if re.match(r"\s*(INSERT|UPDATE|DELETE)\b", q["sql"], re.IGNORECASE)
        ]
        assert writes == [], f"GET {url} wrote: {writes}"
    assert list(TableReport.objects.values_list("pk", "code")) == [(report.pk, report.code)]


def test_a_duplicate_nights_table_card_carries_its_deal_sheet(client, club_night):
    cn = club_night
    night = make_night(cn.season, date(2026, 3, 8), duplicate_deals=True)
    night_table = open_table(night, [cn.member, *cn.others])
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:table_card", args=[night_table.pk])).content.decode()
    assert "First discard" in html and "Table 1, hole 9" in html


def test_the_code_page_leads_to_the_table(client, club_night, report):
    client.force_login(club_night.member)
    url = reverse("leagues:report_code")
    assert client.get(url).status_code == 200
    typed = selectors.shown_code(report.code).lower()
    response = client.get(url, {"code": f" {typed} "})
    assert response.status_code == 302 and response["Location"] == page(report)
    wrong = client.get(url, {"code": "XXXXXX"})
    assert wrong.status_code == 400 and "No table has that code" in wrong.content.decode()


def test_a_signed_out_player_logs_in_and_comes_back(client, report):
    response = client.get(page(report))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={page(report)}"


def test_the_page_is_made_for_a_phone(client, club_night, report):
    client.force_login(club_night.member)
    html = client.get(page(report)).content.decode()
    assert "Enter hole 1" in html
    assert len(re.findall(r'<input type="text" name="s\d" [^>]*inputmode="numeric"', html)) == 3


def test_a_seated_player_enters_and_another_confirms(client, club_night, report):
    cn = club_night
    client.force_login(cn.member)
    response = post_hole(client, report, 1, [3, 4, 5])
    assert response.status_code == 302
    hole = report.holes.get(number=1)
    assert hole.state == ReportedHole.State.ENTERED and hole.entered_by == cn.member
    html = client.get(page(report)).content.decode()
    assert "Enter hole 2" in html and "Confirm hole 1" not in html
    # The totals with the hole to enter, before it is typed: the holes so far.
    assert '<output for="id_s2" data-total>5</output>' in html
    client.force_login(cn.others[0])
    html = client.get(page(report)).content.decode()
    assert "Confirm hole 1" in html
    response = client.post(hole_url(report, 1, "confirm"), {"version": hole.version})
    assert response.status_code == 302
    assert report.holes.get(number=1).state == ReportedHole.State.CONFIRMED


def test_bad_input_is_named_and_changes_nothing(client, club_night, report):
    client.force_login(club_night.member)
    response = post_hole(client, report, 1, [3, "1O", 300])
    assert response.status_code == 400
    html = response.content.decode()
    assert "Hole 1: strokes for Noah must be a whole number." in html
    assert "Hole 1: 300 is not a Play Nine score" in html
    assert not report.holes.exists()


def test_a_dispute_with_its_reason_shows_on_the_night_page(client, club_night, report):
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5])
    client.force_login(cn.others[1])
    form = client.get(page(report), {"dispute": 1}).content.decode()
    assert "Dispute hole 1" in form
    empty = client.post(hole_url(report, 1, "dispute"), {"version": 1, "reason": ""})
    assert empty.status_code == 400
    client.post(hole_url(report, 1, "dispute"), {"version": 1, "reason": "I took 7"})
    assert report.holes.get(number=1).state == ReportedHole.State.DISPUTED
    client.force_login(cn.organiser)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "Paper tables reporting" in html and "I took 7" in html
    response = client.post(
        hole_url(report, 1, "settle"), {"version": 2, "s0": 3, "s1": 4, "s2": 7, "reason": ""}
    )
    assert response.status_code == 302
    hole = report.holes.get(number=1)
    assert hole.state == ReportedHole.State.CONFIRMED and hole.strokes == [3, 4, 7]


def test_a_stale_write_is_shown_the_other_figure_and_may_overwrite(client, club_night, report):
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5])
    client.force_login(cn.others[0])
    response = post_hole(client, report, 1, [3, 9, 5], version=0)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Hole 1 changed while you typed" in html and "Mia entered it as" in html
    assert "Keep theirs" in html and "Overwrite with mine" in html
    assert 'name="version" value="1"' in html
    assert report.holes.get(number=1).strokes == [3, 4, 5]
    assert post_hole(client, report, 1, [3, 9, 5], version=1).status_code == 302
    assert report.holes.get(number=1).strokes == [3, 9, 5]


def test_no_one_but_the_table_and_the_organisers_sees_the_page(client, club_night, report):
    cn = club_night
    outsider = make_player("sam")
    client.force_login(outsider)
    assert client.get(page(report)).status_code == 404
    assert post_hole(client, report, 1, [3, 4, 5]).status_code == 404
    # A member of the club seated elsewhere is told why.
    elsewhere = make_player("tia")
    cn.club.memberships.create(player=elsewhere)
    client.force_login(elsewhere)
    response = client.get(page(report))
    assert response.status_code == 403
    assert post_hole(client, report, 1, [3, 4, 5]).status_code == 403
    assert client.post(hole_url(report, 1, "settle"), {"version": 0}).status_code == 403
    assert not report.holes.exists()
    client.force_login(cn.organiser)
    assert client.get(page(report)).status_code == 200
    client.force_login(cn.member)
    assert client.post(hole_url(report, 1, "settle"), {"version": 0}).status_code == 403


def test_the_whole_table_confirmed_finishes_it(client, club_night, report):
    cn = club_night
    for number, strokes in enumerate(even_holes(30, 35, 40), start=1):
        client.force_login(cn.member)
        post_hole(client, report, number, strokes)
        client.force_login(cn.others[0])
        client.post(hole_url(report, number, "confirm"), {"version": 1})
    assert Table.objects.get(pk=cn.night_table.table_id).status == Table.Status.FINISHED
    html = client.get(page(report)).content.decode()
    assert "results are in" in html


def test_htmx_gets_the_page_with_its_errors_as_a_success(client, club_night, report):
    client.force_login(club_night.member)
    response = client.post(
        hole_url(report, 1), {"version": 0, "s0": "", "s1": 4, "s2": 5}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Hole 1: enter strokes for Mia." in response.content.decode()


def test_the_results_form_starts_from_the_confirmed_holes(client, club_night, report):
    cn = club_night
    services.enter_hole(report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.member)
    services.confirm_hole(report=report, number=1, version=1, by=cn.others[0])
    services.enter_hole(report=report, number=2, strokes=[1, 2, 3], version=0, by=cn.member)
    client.force_login(cn.organiser)
    html = client.get(reverse("leagues:table_results", args=[cn.night_table.pk])).content.decode()
    assert 'name="h1_s2" id="id_h1_s2" value="5"' in html
    assert 'name="h2_s0" id="id_h2_s0" value=""' in html  # not confirmed: left to type
    assert "1 hole confirmed by its players is filled in below" in html
    assert "waiting for confirmation: hole 2" in html


def test_the_admin_lists_reports_with_their_holes(client, club_night, report):
    cn = club_night
    services.enter_hole(report=report, number=1, strokes=[3, 4, 5], version=0, by=cn.member)
    client.force_login(cn.organiser)
    listing = client.get(reverse("admin:leagues_tablereport_changelist"))
    assert listing.status_code == 200 and report.code in listing.content.decode()
    detail = client.get(reverse("admin:leagues_tablereport_change", args=[report.pk]))
    assert detail.status_code == 200 and "Waiting for confirmation" in detail.content.decode()
    # An organiser of another club does not see it.
    other = make_player("otto")
    make_club("Other Club", organiser=other)
    client.force_login(other)
    listing = client.get(reverse("admin:leagues_tablereport_changelist"))
    assert report.code not in listing.content.decode()


def test_a_confirmation_of_an_old_figure_or_of_ones_own_changes_nothing(client, club_night, report):
    cn = club_night
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 5])
    own = client.post(hole_url(report, 1, "confirm"), {"version": 1}, follow=True)
    assert "Another player of the table confirms the strokes you entered." in own.content.decode()
    client.force_login(cn.others[0])
    post_hole(client, report, 1, [3, 6, 5], version=1)
    client.force_login(cn.others[1])
    stale = client.post(hole_url(report, 1, "confirm"), {"version": 1})
    assert stale.status_code == 409 and "Noah entered it as" in stale.content.decode()
    assert client.post(hole_url(report, 1, "confirm"), {"version": "x"}).status_code == 302
    assert report.holes.get(number=1).state == ReportedHole.State.ENTERED


def test_a_hole_asked_for_in_the_address_that_is_no_hole_is_refused(client, club_night, report):
    """ "²" passes str.isdigit() but not int(): the page says the hole is not there (400),
    as it does for a hole past the report's end, and shows the table as it stands."""
    client.force_login(club_night.member)
    post_hole(client, report, 1, [3, 4, 5])
    for name in ("hole", "dispute"):
        for bad in ("²", "１", "-1", "0", "x", "99", ""):
            response = client.get(page(report), {name: bad})
            assert response.status_code == 400, (name, bad)
            html = response.content.decode()
            assert "That hole is not on this table&#x27;s report" in html
            assert "Enter hole 2" in html and "Dispute hole" not in html
    assert "Enter hole 1" not in client.get(page(report), {"hole": "2"}).content.decode()
    assert "Change hole 1" in client.get(page(report), {"hole": "1"}).content.decode()
    client.force_login(club_night.others[0])
    assert "Dispute hole 1" in client.get(page(report), {"dispute": "1"}).content.decode()


def test_every_refused_form_leaves_an_address_that_shows_the_page(client, club_night, report):
    """A refused form is shown at the address it was posted to: reading that address
    (a reload after the error, or going back to it) shows the page with the same form,
    never a 405."""
    cn = club_night
    client.force_login(cn.member)

    def shown_again(url: str, *expected: str) -> None:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "<h1>Table 1</h1>" in html
        for text in expected:
            assert text in html, (url, text)

    # Wrong strokes.
    assert post_hole(client, report, 1, [3, "x", 5]).status_code == 400
    shown_again(hole_url(report, 1), "Enter hole 1")
    post_hole(client, report, 1, [3, 4, 5])
    # Another phone's figure landed first.
    client.force_login(cn.others[0])
    assert post_hole(client, report, 1, [3, 6, 5], version=0).status_code == 409
    shown_again(hole_url(report, 1), "Change hole 1", 'name="version" value="1"')
    # A dispute without its reason.
    empty = client.post(hole_url(report, 1, "dispute"), {"version": 1, "reason": ""})
    assert empty.status_code == 400
    shown_again(hole_url(report, 1, "dispute"), "Dispute hole 1", "What is wrong")
    # A confirmation of a figure changed meanwhile.
    client.force_login(cn.member)
    post_hole(client, report, 1, [3, 4, 6], version=1)
    client.force_login(cn.others[0])
    assert client.post(hole_url(report, 1, "confirm"), {"version": 1}).status_code == 409
    shown_again(hole_url(report, 1, "confirm"), "Confirm hole 1")
    client.post(hole_url(report, 1, "confirm"), {"version": 2})
    # A change to a confirmed hole without a reason.
    response = post_hole(client, report, 1, [3, 4, 7], version=3)
    assert response.status_code == 400 and "Why the confirmed strokes change" in (
        response.content.decode()
    )
    shown_again(hole_url(report, 1), "Change hole 1")
    # The organiser's settling, refused.
    client.force_login(cn.organiser)
    response = client.post(hole_url(report, 2, "settle"), {"version": 0, "s0": "x"})
    assert response.status_code == 400
    shown_again(hole_url(report, 2, "settle"), "Enter hole 2")
    assert report.holes.get(number=1).strokes == [3, 4, 6]
    assert not report.holes.filter(number=2).exists()
    # Still no way in for anyone outside the table, nor to a hole the report lacks.
    assert client.get(hole_url(report, 11)).status_code == 404
    client.force_login(make_player("sam"))
    assert client.get(hole_url(report, 1, "dispute")).status_code == 404


def test_codes_that_match_no_table_are_limited_per_account_and_address(client, club_night, report):
    """Each wrong code counts; past the account's limit the box answers only the wait
    (429), even to a right code, while another account still types codes; past the
    address's limit no account from that address does."""
    url = reverse("leagues:report_code")
    right = selectors.shown_code(report.code)
    client.force_login(club_night.member)
    for _ in range(guesses.PER_ACCOUNT):
        assert client.get(url, {"code": "XXXXXX"}).status_code == 400
    for code in ("XXXXXX", right):
        refused = client.get(url, {"code": code})
        assert refused.status_code == 429
        assert "Too many codes that match no table: try again in up to 15 minutes" in (
            refused.content.decode()
        )
    # A right code costs nothing; another account at the same address goes on.
    client.force_login(club_night.others[0])
    assert client.get(url, {"code": right}).status_code == 302
    # Another address, many accounts: the address runs out however many accounts share it.
    other = {"REMOTE_ADDR": "203.0.113.9"}
    players = iter(make_player(f"guesser{n}") for n in range(guesses.PER_ADDRESS))
    for index in range(guesses.PER_ADDRESS):
        if index % (guesses.PER_ACCOUNT - 1) == 0:
            client.force_login(next(players))
        assert client.get(url, {"code": "XXXXXX"}, **other).status_code == 400
    client.force_login(next(players))
    assert client.get(url, {"code": right}, **other).status_code == 429
    assert client.get(url, {"code": right}).status_code == 302


def test_the_night_page_shows_the_holes_a_paper_table_confirmed_marked_not_final(
    client, club_night, report
):
    cn = club_night
    holes = even_holes(30, 35, 40)
    for number, strokes in enumerate(holes[:8], start=1):
        services.enter_hole(report=report, number=number, strokes=strokes, version=0, by=cn.member)
        services.confirm_hole(report=report, number=number, version=1, by=cn.others[0])
    # Hole 9 entered, not confirmed: it is no one's figure yet.
    services.enter_hole(report=report, number=9, strokes=[7, 8, 9], version=0, by=cn.member)
    client.force_login(cn.organiser)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    card = html.split('id="table-1"')[1].split("</article>")[0]
    rows = re.findall(r'<tr[^>]*>\s*<th scope="row">.*?</tr>', card, re.S)
    assert len(rows) == 3
    for row, strokes in zip(rows, zip(*holes[:8], strict=True), strict=True):
        cells = re.findall(r'<td class="num[^"]*">([^<]*)</td>', row)
        assert cells[:9] == [str(s) for s in strokes] + [""]
        assert cells[9:] == ["", ""]  # no total, no place: not final
    assert "confirmed from their phones: not final" in card
    # On a night of duplicate deals, a player at a twin table still to play those holes
    # sees none of them.
    LeagueNight.objects.filter(pk=cn.night.pk).update(duplicate_deals=True)
    ray = make_player("ray")
    cn.club.memberships.create(player=ray)
    twin = open_table(cn.night, [ray, make_player("sue")])
    Table.objects.filter(pk=twin.table_id).update(deal_seed=cn.night_table.table.deal_seed)
    client.force_login(ray)
    html = client.get(cn.night.get_absolute_url()).content.decode()
    card = html.split('id="table-1"')[1].split("</article>")[0]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', card) == [""] * 33
    client.force_login(cn.organiser)
    # Once the results are in, the scorecard is the table's own, unmarked.
    services.confirm_hole(report=report, number=9, version=1, by=cn.others[0])
    assert Table.objects.get(pk=cn.night_table.table_id).status == Table.Status.FINISHED
    html = client.get(cn.night.get_absolute_url()).content.decode()
    assert "confirmed from their phones: not final" not in html

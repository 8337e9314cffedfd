"""One rule for every name and free text that other people see: no character they
cannot see (control, invisible or direction-changing), wherever it is typed."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from games import chat
from games.plays import GameError
from games.text import is_shown
from leagues.attendance.services import set_substitute
from leagues.models import League, Player, Substitute
from tests.factories import make_club, make_league, make_night, make_player, make_season
from tests.games.helpers import ana_and_ben

pytestmark = pytest.mark.django_db

#: The start of the refusal (its apostrophe is escaped in a page).
SEEN = "Use only characters that can be seen"

HIDDEN = {
    "a right-to-left override": "Ana\u202eB",
    "a right-to-left isolate": "Ana\u2067B",
    "a left-to-right mark": "Ana\u200eB",
    "a zero-width space": "Ana\u200bB",
    "a byte-order mark": "\ufeffAna",
    "a soft hyphen": "An\u00ada",
    "a tab": "Ana\tB",
    "a line feed": "Ana\nB",
    "ESC": "Ana\x1b[31m",
    "a line separator": "Ana\u2028B",
    "a Hangul filler": "\u3164",
    "a joiner at the end": "Ana\u200d",
    "a private-use character": "Ana\ue000",
}
SHOWN = ["Ana", "Zoë Ó'Brien", "李小龙", "👨\u200d👩\u200d👧", "می\u200cخواهم", "Åsa-Märta"]


@pytest.mark.parametrize("text", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_character_no_one_sees_is_refused(text):
    assert not is_shown(text)


@pytest.mark.parametrize("text", SHOWN)
def test_names_in_any_script_and_emoji_are_taken(text):
    assert is_shown(text)


def test_a_reason_may_break_its_lines_and_no_more():
    assert is_shown("Misread the card.\r\nChecked with both.", lines=True)
    assert not is_shown("Misread\u202e the card.", lines=True)


#: Chat folds tabs, line breaks and runs of spaces to one space; the rest is refused.
FOLDED = {"a tab", "a line feed", "a line separator"}


@pytest.mark.parametrize(
    "text",
    [HIDDEN[k] for k in HIDDEN if k not in FOLDED],
    ids=[k for k in HIDDEN if k not in FOLDED],
)
def test_a_chat_line_with_one_is_refused(text):
    table, ana, _ben = ana_and_ben()
    with pytest.raises(GameError, match="cannot be shown"):
        chat.say(table_id=table.pk, player=ana, text=f"hello {text}")
    assert not table.chat_messages.exists()


@pytest.mark.parametrize("name", ["Ana\u202eB", "Ana\u200bB", "\ufeffAna", "Ana\tB", "A\x1bB"])
def test_sign_up_refuses_such_a_display_name(client, name):
    response = client.post(
        reverse("signup"),
        {
            "username": "ana",
            "display_name": name,
            "password1": "a long enough password 42",
            "password2": "a long enough password 42",
        },
    )
    assert response.status_code == 200
    assert SEEN in response.content.decode()
    assert not Player.objects.exists()


def test_the_account_page_refuses_the_same(client):
    ana = make_player("ana", display_name="Ana")
    client.force_login(ana)
    response = client.post(reverse("account"), {"display_name": "Ana\u200b", "email": ""})
    assert SEEN in response.content.decode()
    ana.refresh_from_db()
    assert ana.display_name == "Ana"


@pytest.fixture
def night():
    olive = make_player("olive")
    ann = make_player("ann", display_name="Ann")
    club = make_club(organiser=olive, members=[ann])
    return make_night(make_season(make_league(club)), date(2026, 3, 1)), olive, ann


def test_a_guests_name_is_refused_by_the_page_and_the_service(client, night):
    night, olive, ann = night
    with pytest.raises(ValidationError, match="can be seen"):
        set_substitute(night=night, member=ann, guest_name="Gus\u202e", by=olive)
    client.force_login(olive)
    response = client.post(
        reverse("leagues:night_substitute", args=[night.pk]),
        {"substitute-member": ann.pk, "substitute-guest_name": "\u200bGus"},
    )
    assert SEEN in response.content.decode()
    assert not Substitute.objects.exists()


def test_league_names_and_a_nights_venue_are_refused(client, night):
    night, olive, _ann = night
    club = night.season.league.club
    client.force_login(olive)
    response = client.post(
        reverse("leagues:league_create", args=[club.slug]),
        {"name": "Thurs\u202edays", "variant": "play-nine", "points_per_place": "6,4,2,0"},
    )
    assert SEEN in response.content.decode()
    assert not League.objects.filter(name__startswith="Thurs").exists()
    response = client.post(
        reverse("leagues:night_schedule", args=[night.pk]),
        {"date": "2026-03-01", "start_time": "19:30", "venue": "Club\u200b room"},
    )
    night.refresh_from_db()
    assert night.venue == ""

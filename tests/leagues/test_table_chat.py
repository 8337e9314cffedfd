"""A league night's table chat: its club's organisers hide lines as its host does."""

from __future__ import annotations

from datetime import date

import pytest

from games import chat, frames
from games.models import ChatMessage, Table
from games.plays import GameError
from leagues.models import Membership
from leagues.seating.services import seat_night
from tests.factories import make_club, make_league, make_night, make_player, make_season

pytestmark = pytest.mark.django_db

REFUSED = "Only the host or an organiser can hide a chat message."


def test_an_organiser_of_the_club_hides_a_line_at_its_night_s_table():
    host = make_player("olive")
    ana, ben = make_player("ana"), make_player("ben")
    club = make_club(organiser=host, members=[ana, ben])
    night = make_night(make_season(make_league(club)), date(2026, 3, 1))
    night.players.set([ana, ben])
    (night_table,) = seat_night(night=night, by=host, seats_per_table=2, kind=Table.Kind.LIVE)
    table = night_table.table
    line = chat.say(table_id=table.pk, player=ben, text="something rude")
    # An organiser of another club (staff, for the admin) is no one here.
    stranger = make_player("sam")
    make_club(organiser=stranger)
    stranger.refresh_from_db()
    for someone in (ana, stranger):
        with pytest.raises(GameError, match=REFUSED):
            chat.hide_chat_message(table_id=table.pk, message_id=line.pk, by=someone)
    assert 'class="chat-hide"' not in frames.chat_frame(table.pk, ana)
    assert not ChatMessage.objects.get(pk=line.pk).hidden

    # Ana, seated at the table, becomes one of the club's organisers: her role in the
    # club is what counts, not the admin that comes with it.
    Membership.objects.filter(club=club, player=ana).update(role=Membership.Role.ORGANISER)
    assert not ana.is_staff
    assert 'class="chat-hide"' in frames.chat_frame(table.pk, ana)
    chat.hide_chat_message(table_id=table.pk, message_id=line.pk, by=ana)
    hidden = ChatMessage.objects.get(pk=line.pk)
    assert (hidden.hidden, hidden.hidden_by_id) == (True, ana.pk)

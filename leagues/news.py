"""A league's news: the one door by which a write says what changed, for whichever
room shows it, as games speaks to leagues through `games.models.match_finished` and
`hole_finished`.

A write sends the news where it happens; the rooms that show it connect their
receivers in `leagues.signals` (the night's board, the night's page, an event's page).
The writes then know no screen: a room that starts showing a night or an event hears the
same news, and no write changes.
"""

from __future__ import annotations

from django.dispatch import Signal

#: A night's holes changed: a live table's hole finished or a table teed off, a paper
#: table's strokes were entered, confirmed or corrected. Sent inside the write, with
#: `night_id`; a receiver that pushes to a screen does so after the commit.
night_changed = Signal()


def send_night_changed(night_id: int, *, sender: object = None) -> None:
    """Tell every room that shows the night that its holes changed."""
    night_changed.send(sender=sender, night_id=night_id)


#: Who is here on a night changed: a check-in or its undoing, the players present
#: saved, an absence, a substitute, or the night seated (which closes check-in). Sent
#: inside the write, with `night_id`; a receiver that pushes to a page does so after
#: the commit.
arrivals_changed = Signal()


def send_arrivals_changed(night_id: int, *, sender: object = None) -> None:
    """Tell every room that shows the night's arrivals that they changed."""
    arrivals_changed.send(sender=sender, night_id=night_id)


#: An event changed: an entry or its withdrawal, a check-in, a round seated or closed, a
#: table's result (entered on paper, or a live table's match over), the champion named.
#: Sent inside the write, with `event_id`; a receiver that pushes to a page does so after
#: the commit.
event_changed = Signal()


def send_event_changed(event_id: int, *, sender: object = None) -> None:
    """Tell every room that shows the event that it changed."""
    event_changed.send(sender=sender, event_id=event_id)

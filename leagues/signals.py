"""Where leagues hears news: live play's (`games.models`' signals) and its own
(`leagues.news`).

When a live league table finishes, its match is rated; when one of its holes finishes,
that is the night's news; a night's news is shown on its boards, who is here on its
pages, an event's news on the event's pages; a turn-based table's turn passing is mailed
to its player as they chose and pushed to their devices (a device signing out is
forgotten); a night's table is run
by its club's organisers too; a duplicate night's replays link to the night's deal
comparison."""

from __future__ import annotations

from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import post_save, pre_save
from django.dispatch import receiver
from django.urls import reverse

from games.engine.match import HOLES
from games.models import (
    Hole,
    Table,
    deadlines_swept,
    hole_finished,
    match_finished,
    replay_links,
    results_recorded,
    runs_table,
    turn_passed,
)

from .board.services import announce_night_changed
from .checkin.services import announce_arrivals
from .events.deadlines import close_rounds_due
from .events.services import announce_event_changed, table_finished
from .models import Club, EventTable, League, LeagueNight, NightTable
from .news import arrivals_changed, event_changed, night_changed, send_night_changed
from .notify.services import forget_signed_out_device
from .notify.services import turn_passed as record_turn
from .ratings.services import queue_rebuild, rate_match
from .roles import is_organiser, role_in
from .seating.online import run_due_rounds
from .standings.services import score_open_seasons, score_table


@receiver(match_finished, dispatch_uid="leagues_rate_finished_live_table")
def rate_finished_live_table(sender, table: Table, **kwargs) -> None:
    """A live night table's match is over: its cards are scored as the league scores
    them in the move's own transaction (`standings.services.score_table`), and once
    committed its match is rated on top of the league's ratings
    (`ratings.services.rate_match`): the move that ends it waits for no more than that.
    A casual table costs nothing (its seats are not assigned: no query).

    A paper table is scored and rated as its results are recorded
    (`score_recorded_results`).
    """
    if table.kind != Table.Kind.LIVE or not table.seats_assigned:
        return
    night_table = (
        NightTable.objects.filter(table=table)
        .select_related("night__season__league", "table")
        .first()
    )
    # A match finishes once: scored and rated then.
    if night_table is None or night_table.card_results.exists():
        return
    score_table(night_table)
    transaction.on_commit(lambda: rate_match(night_table=night_table))


@receiver(results_recorded, dispatch_uid="leagues_score_recorded_results")
def score_recorded_results(sender, table: Table, **kwargs) -> None:
    """A paper table's results were entered, reported or corrected: in the same
    transaction its cards are scored as the league scores them and its match rated on
    top of the league's ratings; where rated matches follow it (a late entry, a
    correction), it and they are rated again in a task after the commit
    (`ratings.services.rate_match`)."""
    night_table = (
        NightTable.objects.filter(table=table)
        .select_related("night__season__league", "table")
        .first()
    )
    if night_table is None:
        return
    score_table(night_table)
    rate_match(night_table=night_table)


#: A league's settings that change how a card scores (and so the stored figures), and
#: those that change which matches and results are rated.
SCORING_SETTINGS = (
    "points_per_place",
    "night_points",
    "points_from",
    "substitute_counts",
    "stand_in_counts",
)
RATING_SETTINGS = ("variant", "house_rules", "substitute_counts", "stand_in_counts")


@receiver(pre_save, sender=League, dispatch_uid="leagues_league_settings_before")
def league_settings_before(sender, instance: League, **kwargs) -> None:
    """Note the settings a league had, so that a change of them can be followed."""
    if instance.pk is None:
        return
    fields = sorted({*SCORING_SETTINGS, *RATING_SETTINGS})
    instance._settings_before = League.objects.filter(pk=instance.pk).values(*fields).first()


@receiver(post_save, sender=League, dispatch_uid="leagues_league_settings_changed")
def league_settings_changed(sender, instance: League, created: bool, **kwargs) -> None:
    """A league's scoring rules changed: its open seasons are scored again (a closed
    season keeps what it closed with); its rating rules changed: it is rated again, in a
    task once the change commits (the whole league's matches: the request waits for none
    of it)."""
    before = getattr(instance, "_settings_before", None)
    instance._settings_before = None
    if created or before is None:
        return
    changed = {name for name, value in before.items() if getattr(instance, name) != value}
    if changed & set(SCORING_SETTINGS):
        score_open_seasons(instance)
    if changed & set(RATING_SETTINGS):
        queue_rebuild(instance)


@receiver(match_finished, dispatch_uid="leagues_event_table_finished")
def event_table_finished(sender, table: Table, **kwargs) -> None:
    """A live event table's match is over: once the move is committed, the event's next
    round is seated if it was its round's last table. A casual table costs nothing (its
    seats are not assigned: no query); a night's, one small read."""
    if table.kind != Table.Kind.LIVE or not table.seats_assigned:
        return
    if EventTable.objects.filter(table_id=table.pk).exists():
        table_id = table.pk
        transaction.on_commit(lambda: table_finished(table_id=table_id))


@receiver(deadlines_swept, dispatch_uid="leagues_event_rounds_due")
def event_rounds_due(sender, now, **kwargs) -> None:
    """The deadlines sweep ran: a turn-based event's rounds past their deadline are
    played out and closed, and the next rounds seated (`events.deadlines`)."""
    close_rounds_due(now=now)


@receiver(deadlines_swept, dispatch_uid="leagues_online_rounds_due")
def online_rounds_due(sender, now, **kwargs) -> None:
    """The deadlines sweep ran: online rounds whose opening or due time has passed and
    whose queued task has not yet run are opened or played out (`seating.online`)."""
    run_due_rounds(now=now)


@receiver(hole_finished, sender=Hole, dispatch_uid="leagues_board_shows_finished_hole")
def board_shows_finished_hole(sender, hole: Hole, table: Table | None = None, **kwargs) -> None:
    """A hole of a live night table finished: news of its night (its boards show it).

    A casual table costs nothing (its seats are not assigned: no query); a night's, one
    small read and one message after the commit.
    """
    if table is None or not table.seats_assigned:
        return
    night_id = NightTable.objects.filter(table_id=table.pk).values_list("night_id", flat=True)
    night_id = night_id.first()
    if night_id is not None:
        send_night_changed(night_id, sender=Hole)


@receiver(night_changed, dispatch_uid="leagues_board_shows_night_changed")
def board_shows_night_changed(sender, night_id: int, **kwargs) -> None:
    """A night's holes changed: its open boards read it again, after the commit."""
    announce_night_changed(night_id)


@receiver(arrivals_changed, dispatch_uid="leagues_pages_show_arrivals")
def pages_show_arrivals(sender, night_id: int, **kwargs) -> None:
    """Who is here changed: the night's open pages show it, after the commit."""
    announce_arrivals(night_id)


@receiver(event_changed, dispatch_uid="leagues_pages_show_event_changed")
def pages_show_event_changed(sender, event_id: int, **kwargs) -> None:
    """An event changed: its open pages read it again, after the commit."""
    announce_event_changed(event_id)


@receiver(runs_table, dispatch_uid="leagues_organisers_run_night_tables")
def organisers_run_night_tables(sender, table: Table, user, **kwargs) -> bool:
    """Whether `user` organises the club whose league night `table` is at: they may
    hide its chat lines as its host (the organiser who seated the night) may."""
    if not table.seats_assigned:  # a casual table is no league's
        return False
    club = Club.objects.filter(leagues__seasons__nights__tables__table=table).first()
    # An event's table is run by the event's club's organisers.
    club = club or Club.objects.filter(events__event_rounds__tables__table=table).first()
    return club is not None and is_organiser(user, club)


@receiver(replay_links, dispatch_uid="leagues_replay_links_to_deal_comparison")
def deal_comparison_link(sender, table: Table, number: int, user, **kwargs) -> list:
    """A hole of a duplicate night's table, compared with the same deal at the night's
    other tables: the members' comparison for a member, the public one for anyone else
    on a public league (the comparison has the nine holes, no playoff)."""
    # A league's tables have their seats assigned: other tables are not looked up.
    if not table.seats_assigned or number > HOLES:
        return []
    night = (
        LeagueNight.objects.filter(tables__table=table, duplicate_deals=True)
        .select_related("season__league__club")
        .first()
    )
    if night is None:
        return []
    league = night.season.league
    if role_in(user, league.club) is not None:
        url = reverse("leagues:night_deals", args=[night.pk])
    elif league.is_public:
        url = reverse("leagues:public_night_deals", args=[night.pk])
    else:
        return []
    return [(f"Hole {number} at every table", f"{url}#hole-{number}")]


@receiver(turn_passed, dispatch_uid="leagues_mail_turn_passed")
def mail_turn_passed(sender, table: Table, position: int, player_id: int, deadline, **kwargs):
    """A turn-based table waits on a person (told after the commit, once per turn): a
    "your turn" notice for them, mailed at once or in their digest
    (`notify.services`). Live tables send no `turn_passed`, so they mail nothing."""
    record_turn(table_id=table.pk, position=position, player_id=player_id, deadline=deadline)


@receiver(user_logged_out, dispatch_uid="leagues_forget_signed_out_device")
def forget_device_on_log_out(sender, request, user, **kwargs):
    """The browser signing out had notices on for its player: no more (its service worker
    drops its own subscription as the same request passes)."""
    if request is not None and user is not None:
        forget_signed_out_device(player=user, session=request.session)

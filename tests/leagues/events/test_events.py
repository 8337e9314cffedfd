"""Events run end to end through their services: entry and check-in, each format over
its rounds to a champion, byes, pairs kept apart, a round closed by an organiser, live
tables seated as the last match of a round ends, and the reminder mail."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from games import announce
from games import services as game_services
from games.models import ScorecardHole, Table
from leagues import news
from leagues.calendar.notices import send_due_notices
from leagues.events import selectors, services
from leagues.events.pairing import meetings
from leagues.models import Event, EventEntry, EventNotice, EventRound, Rating
from leagues.teams import services as teams
from tests import driving
from tests.factories import even_holes, make_league, make_player
from tests.games.helpers import act_until_finished, current, next_actor, quick_action
from tests.leagues.events_helpers import (
    club_with,
    default_skill,
    entered,
    new_event,
    play_paper_round,
    play_to_the_end,
)

# Run on PostgreSQL too: the standings add strokes up in the database, and rounds lock rows.
pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def seatings(event: Event, *, number: int | None = None) -> list[list[int]]:
    tables = selectors.event_tables(event)
    return [
        selectors.seated(t)
        for t in tables
        if t.playoff_of_id is None and (number is None or t.round.number == number)
    ]


def test_a_swiss_of_nine_over_three_rounds_at_tables_of_three_names_a_champion():
    club, olive, people = club_with(9)
    event = new_event(club, olive, seats_per_table=3, rounds=3)
    entered(event, people)
    first = services.start_event(event=event, by=olive)
    assert first.number == 1 and first.byes == []
    for number in (1, 2, 3):
        assert [len(t) for t in seatings(event, number=number)] == [3, 3, 3]
        assert play_paper_round(event, olive) == 3
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    # Nobody met anyone twice: each round sat new faces together.
    assert max(meetings(seatings(event)).values()) == 1
    standings = selectors.event_standings(event)
    assert len(standings) == 9
    # P0 plays best at every table: three wins, 2 points each.
    assert standings[0].player == people[0] and standings[0].points == 6
    assert [p.pk for p in selectors.champions(event)] == [people[0].pk]
    # Each line carries its tie-breaks: strokes and the opponents' points.
    assert standings[0].strokes == 3 * 20 and standings[0].opponents > 0
    assert EventRound.objects.filter(event=event).count() == 3


def test_points_by_place_share_a_tied_place():
    assert selectors.place_points({1: 1, 2: 2, 3: 2, 4: 4}, 4) == {1: 3, 2: 1.5, 3: 1.5, 4: 0}


def test_an_odd_number_gets_byes_that_go_round_and_earn_a_win():
    club, olive, people = club_with(7)
    event = new_event(club, olive, seats_per_table=2, rounds=3)
    entered(event, people)
    services.start_event(event=event, by=olive)
    play_to_the_end(event, olive)
    rounds = list(EventRound.objects.filter(event=event).order_by("number"))
    byes = [key for r in rounds for key in r.byes]
    assert len(byes) == 3 and len(set(byes)) == 3  # one a round, never the same twice
    counted = selectors.tally(event)
    for key in byes:
        assert counted.byes[key] == 1
    lines = {line.player.pk: line for line in selectors.event_standings(event)}
    assert all(lines[key].byes == 1 for key in byes)
    assert sum(line.points for line in lines.values()) == 3 * 3 + 3  # a win a table, a bye
    # The tie-breaks are fair to a bye: it counts as a table against one holding the
    # player's own points, and strokes go per hole played (two tables of nine, not three).
    for key, line in lines.items():
        tables = [t for t in counted.results if key in t]
        met = sum(lines[other].points for t in tables for other in t if other != key)
        assert line.opponents == met + line.byes * line.points
        assert line.per_hole == Fraction(line.strokes, 9 * len(tables))
        assert len(tables) == 3 - line.byes


def test_a_knockout_of_sixteen_at_tables_of_four_plays_off_a_tie_and_names_a_champion():
    club, olive, people = club_with(16)
    event = new_event(club, olive, format=Event.Format.KNOCKOUT, seats_per_table=4, advance=2)
    entered(event, people)
    services.start_event(event=event, by=olive)
    # Seeded in entry order, in a snake: the four best seeds head the four tables.
    heads = [table[0] for table in seatings(event, number=1)]
    assert heads == [p.pk for p in people[:4]]
    skill = {p.pk: 20 + i for i, p in enumerate(people)}
    # At the first table two players tie for second: the cut is played off.
    first = seatings(event, number=1)[0]
    skill[first[2]] = skill[first[1]]
    play_paper_round(event, olive, skill)
    current = selectors.current_round(event)
    playoffs = [t for t in selectors.round_tables(current) if t.playoff_of_id]
    assert len(playoffs) == 1 and playoffs[0].places == 1
    assert sorted(selectors.seated(playoffs[0])) == sorted([first[1], first[2]])
    assert current.closed_at is None  # the round waits for its playoff
    play_paper_round(event, olive, {first[1]: 30, first[2]: 25})  # the lower seed wins it
    assert [len(t) for t in seatings(event, number=2)] == [4, 4]
    assert first[2] in {k for t in seatings(event, number=2) for k in t}
    assert first[1] not in {k for t in seatings(event, number=2) for k in t}
    play_paper_round(event, olive, skill)
    assert [len(t) for t in seatings(event, number=3)] == [4]  # the final
    play_paper_round(event, olive, skill)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert event.champion == people[0]
    assert selectors.champions(event) == [people[0]]
    view = selectors.event_view(event)
    assert any(seat.through for seat in view.rounds[0].tables[0].seats)
    # The final sends nobody through: its winner wears the champion's badge alone, and
    # only there.
    final = view.rounds[-1].tables[0].seats
    assert not any(seat.through for seat in final)
    assert [seat.name for seat in final if seat.champion] == [people[0].name]
    assert not any(seat.champion for r in view.rounds[:-1] for t in r.tables for seat in t.seats)


def test_a_round_robin_at_tables_of_two_meets_everyone_once():
    club, olive, people = club_with(4)
    event = new_event(club, olive, format=Event.Format.ROUND_ROBIN, seats_per_table=2)
    entered(event, people)
    services.start_event(event=event, by=olive)
    play_to_the_end(event, olive)
    met = meetings(seatings(event))
    assert len(met) == 6 and set(met.values()) == {1}
    assert selectors.champions(event) == [people[0]]


def test_pairs_kept_apart_are_kept_apart_when_a_seating_can():
    club, olive, people = club_with(4)
    event = new_event(club, olive, seats_per_table=2, rounds=1)
    entered(event, people)
    services.keep_apart(event=event, first=people[0], second=people[1], by=olive)
    assert selectors.apart_pairs(event) == {frozenset((people[0].pk, people[1].pk))}
    round_one = services.start_event(event=event, by=olive)
    assert round_one.together == []
    assert all({people[0].pk, people[1].pk} != set(t) for t in seatings(event))


def test_teammates_of_the_events_team_league_are_kept_apart():
    club, olive, people = club_with(4)
    league = make_league(club)
    teams.set_team_rules(league=league, team_size=2, team_score="sum", team_counted=2, by=olive)
    teams.create_team(league=league, name="Eagles", members=people[:2], captain=people[0], by=olive)
    event = new_event(club, olive, seats_per_table=2, rounds=1, league=league)
    entered(event, people)
    assert selectors.apart_pairs(event) == {frozenset((people[0].pk, people[1].pk))}
    services.start_event(event=event, by=olive)
    assert all({people[0].pk, people[1].pk} != set(t) for t in seatings(event))


def test_pairs_that_cannot_all_be_kept_apart_are_reported():
    club, olive, people = club_with(4)
    event = new_event(club, olive, seats_per_table=4, rounds=1)
    entered(event, people)
    services.keep_apart(event=event, first=people[0], second=people[1], by=olive)
    services.keep_apart(event=event, first=people[2], second=people[3], by=olive)
    round_one = services.start_event(event=event, by=olive)
    pairs = sorted(sorted(pair) for pair in round_one.together)
    assert pairs == sorted(
        [sorted([people[0].pk, people[1].pk]), sorted([people[2].pk, people[3].pk])]
    )
    view = selectors.event_view(event)
    assert view.rounds[0].together == ["P0 and P1", "P2 and P3"]


def test_no_shows_are_dropped_when_round_one_is_seated():
    club, olive, people = club_with(5)
    event = new_event(club, olive, seats_per_table=2, rounds=1)
    entered(event, people[:4])
    entered(event, people[4:], check_in=False)
    services.start_event(event=event, by=olive)
    assert EventEntry.objects.get(event=event, player=people[4]).dropped
    assert people[4].pk not in {k for t in seatings(event) for k in t}
    assert EventRound.objects.get(event=event).byes == []


def test_an_organiser_closes_a_round_forfeiting_its_unfinished_tables():
    club, olive, people = club_with(4)
    event = new_event(club, olive, seats_per_table=2, rounds=2)
    entered(event, people)
    services.start_event(event=event, by=olive)
    current = selectors.current_round(event)
    tables = selectors.round_tables(current)
    done = selectors.seated(tables[0])
    skill = default_skill(event)
    services.enter_event_results(
        event_table=tables[0], hole_scores=even_holes(*[skill[k] for k in done]), by=olive
    )
    second = services.close_round(event=event, number=1, by=olive)
    assert second.number == 2
    forfeited = selectors.seated(tables[1])
    counted = selectors.tally(event)
    assert all(counted.points[k] == 0 for k in forfeited)
    assert sorted(counted.points[k] for k in done) == [0, 1]
    # A second organiser's close of round 1, made on the page as it was, changes nothing.
    with pytest.raises(ValidationError, match="Round 1 is closed already"):
        services.close_round(event=event, number=1, by=olive)
    assert selectors.current_round(event).number == 2
    # Nor can the forfeited table's results come in late.
    with pytest.raises(ValidationError, match="forfeited"):
        services.enter_event_results(
            event_table=tables[1], hole_scores=even_holes(30, 31), by=olive
        )
    view = selectors.event_view(event)
    assert view.rounds[0].closed_by_organiser and view.rounds[0].tables[1].forfeited


def test_live_tables_are_dealt_at_once_and_the_last_match_seats_the_next_round(
    django_capture_on_commit_callbacks,
):
    club, olive, people = club_with(4)
    event = new_event(
        club, olive, seats_per_table=2, rounds=2, table_kind=Event.TableKind.LIVE, paper_tables=1
    )
    entered(event, people)
    services.start_event(event=event, by=olive)
    live, paper = selectors.round_tables(selectors.current_round(event))
    assert live.table.kind == Table.Kind.LIVE and live.table.status == Table.Status.PLAYING
    assert paper.table.kind == Table.Kind.PAPER
    play_paper_round(event, olive)
    assert selectors.current_round(event).number == 1
    with django_capture_on_commit_callbacks(execute=True):
        for seat in live.table.seats.select_related("player"):
            game_services.leave_match(table=live.table, player=seat.player)
        driving.play_out(table_id=live.table_id)
    assert Table.objects.get(pk=live.table_id).status == Table.Status.FINISHED
    assert selectors.current_round(event).number == 2
    counted = selectors.tally(event)
    assert sum(counted.points.values()) == 2


def test_an_events_news_reaches_any_room_that_hears_it_and_its_pages_after_the_commit(
    monkeypatch, django_capture_on_commit_callbacks
):
    """Each write of an event (entry, check-in, start, a table's results, a live table's
    match over) sends the league's news that the event changed; its pages hear it in
    `leagues.signals` and are told only once the write is committed."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(announce, "_send", lambda group, message: sent.append((group, message)))
    heard: list[int] = []

    def listen(sender, event_id: int, **kwargs) -> None:
        heard.append(event_id)

    club, olive, people = club_with(4)
    event = new_event(
        club, olive, seats_per_table=2, rounds=2, table_kind=Event.TableKind.LIVE, paper_tables=1
    )
    news.event_changed.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=False) as waiting:
            services.enter_event(event=event, player=people[0])
        assert heard == [event.pk]
        assert sent == []  # nothing before the commit
        for callback in waiting:
            callback()
        assert sent == [(services.event_group(event.pk), {"type": "event.changed"})]
        entered(event, people[1:])
        services.check_in(event=event, player=people[0], by=olive)
        heard.clear()
        services.start_event(event=event, by=olive)
        assert heard and set(heard) == {event.pk}
        live, _paper = selectors.round_tables(selectors.current_round(event))
        heard.clear()
        play_paper_round(event, olive)
        assert heard and set(heard) == {event.pk}
        heard.clear()
        with django_capture_on_commit_callbacks(execute=True):
            for seat in live.table.seats.select_related("player"):
                game_services.leave_match(table=live.table, player=seat.player)
            driving.play_out(table_id=live.table_id)
        assert heard and set(heard) == {event.pk}
        assert selectors.current_round(event).number == 2
    finally:
        news.event_changed.disconnect(listen)


def test_a_rounds_live_tables_run_the_events_turn_timer_for_an_absent_player(
    django_capture_on_commit_callbacks,
):
    """Ann plays her turns, Bea never comes: the timer plays Bea's once they are due,
    and the match (the event's one round) ends without the organiser."""
    club, olive, (ann, bea) = club_with(2)
    untimed = new_event(club, olive, name="Untimed", seats_per_table=2, rounds=1)
    assert untimed.turn_timer == Table.Timer.OFF  # as a league night's live tables
    event = new_event(
        club,
        olive,
        seats_per_table=2,
        rounds=1,
        table_kind=Event.TableKind.LIVE,
        turn_timer=Table.Timer.S30,
    )
    entered(event, [ann, bea])
    services.start_event(event=event, by=olive)
    (live,) = selectors.round_tables(selectors.current_round(event))
    table = Table.objects.get(pk=live.table_id)
    assert table.turn_timer == 30 and table.status == Table.Status.PLAYING
    with pytest.raises(game_services.GameError, match="Nothing is due"):
        game_services.act_for_table(table_id=table.pk, version=table.version)

    timed_for_bea = 0
    for _ in range(200):
        table, hole, state = current(table.pk)
        if hole.finished_at is not None:
            break
        position = hole.seat_positions[next_actor(state)]
        seat = table.seats.get(position=position)
        if seat.player_id == ann.pk:
            game_services.apply_move(
                table_id=table.pk,
                player=ann,
                action=quick_action(state, next_actor(state)),
                version=table.version,
            )
            continue
        later = timezone.now() + timedelta(seconds=31)
        game_services.act_for_table(table_id=table.pk, version=table.version, now=later)
        timed_for_bea += 1
    assert hole.finished_at is not None and timed_for_bea > 0
    assert ScorecardHole.objects.filter(scorecard__table=table, number=1).count() == 2

    with django_capture_on_commit_callbacks(execute=True):
        act_until_finished(table, timezone.now() + timedelta(minutes=5))
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED


def test_entry_closes_at_its_cut_off_and_late_entries_are_the_organiser_s():
    club, olive, people = club_with(3)
    event = new_event(club, olive, seats_per_table=2)
    later = event.entry_closes_at + timedelta(minutes=1)
    with pytest.raises(ValidationError, match="closed"):
        services.enter_event(event=event, player=people[0], now=later)
    with pytest.raises(ValidationError, match="no late entries"):
        services.add_entry(event=event, player=people[0], by=olive, now=later)
    event.late_entries = True
    event.save()
    entry = services.add_entry(event=event, player=people[0], by=olive, now=later)
    assert entry.late
    with pytest.raises(PermissionDenied):
        services.add_entry(event=event, player=people[1], by=people[2], now=later)
    stranger = make_player("stranger")
    with pytest.raises(ValidationError, match="Only members"):
        services.enter_event(event=event, player=stranger)
    services.enter_event(event=event, player=people[1])
    services.enter_event(event=event, player=people[1])  # twice is harmless
    assert event.entries.count() == 2
    assert services.withdraw(event=event, player=people[1])
    assert event.entries.count() == 1


def test_settings_an_event_cannot_run_with_are_refused_with_reasons():
    club, olive, _ = club_with(1)
    with pytest.raises(ValidationError) as refused:
        new_event(club, olive, variant="golf-4", seats_per_table=2)
    assert "tables of 3 to" in str(refused.value)
    with pytest.raises(ValidationError) as refused:
        new_event(club, olive, format=Event.Format.KNOCKOUT, seats_per_table=4, advance=4)
    assert "1 to 3 go through" in str(refused.value)
    now = timezone.now()
    with pytest.raises(ValidationError, match="Entry closes before"):
        new_event(club, olive, starts_at=now, entry_closes_at=now + timedelta(hours=1))
    with pytest.raises(PermissionDenied):
        new_event(club, make_player("nobody"))
    assert not Event.objects.exists()


def test_entrants_are_reminded_the_day_before_once(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    club, olive, people = club_with(2)
    people[0].email = "p0@example.org"
    people[0].save()
    people[1].email = "p1@example.org"
    people[1].save()
    starts = timezone.now() + timedelta(days=1)
    event = new_event(club, olive, starts_at=starts, entry_closes_at=starts - timedelta(hours=1))
    services.enter_event(event=event, player=people[0])
    today = timezone.localdate(starts) - timedelta(days=1)
    sent = send_due_notices(today=today)
    assert sent.event_reminders == 1
    assert [m.to for m in mail.outbox] == [["p0@example.org"]]
    assert (
        "Spring Open" in mail.outbox[0].subject and event.get_absolute_url() in mail.outbox[0].body
    )
    assert send_due_notices(today=today).event_reminders == 0
    assert EventNotice.objects.filter(event=event).count() == 1
    # And on the site: the home page names the event entered.
    assert list(selectors.upcoming_entries(people[0], timezone.now())) == [event]
    assert list(selectors.upcoming_entries(people[1], timezone.now())) == []


def test_a_knockout_tied_to_a_league_is_seeded_by_its_ratings():
    club, olive, people = club_with(4)
    league = make_league(club)
    # P3 is the best rated, then P2: they head the two tables.
    for mu, player in zip((20, 22, 30, 40), people, strict=True):
        Rating.objects.create(league=league, player=player, mu=mu, sigma=1)
    event = new_event(
        club, olive, format=Event.Format.KNOCKOUT, seats_per_table=2, advance=1, league=league
    )
    entered(event, people)
    services.start_event(event=event, by=olive)
    assert [t[0] for t in seatings(event, number=1)] == [people[3].pk, people[2].pk]
    play_to_the_end(event, olive)
    event.refresh_from_db()
    assert event.champion == people[0]  # the best player at the table, whatever the seed


def test_a_round_robin_at_tables_of_three_seats_those_who_met_least():
    club, olive, people = club_with(9)
    event = new_event(club, olive, format=Event.Format.ROUND_ROBIN, seats_per_table=3, rounds=3)
    entered(event, people)
    services.start_event(event=event, by=olive)
    play_to_the_end(event, olive)
    assert max(meetings(seatings(event)).values()) == 1
    assert len(selectors.event_standings(event)) == 9

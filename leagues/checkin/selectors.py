"""Reads of check-in: whether a night takes check-ins now and, if not, why; who checked
in, and who is expected but not here yet."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Exists, F, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.formats import date_format

from games.models import Table

from ..clubs.selectors import club_members
from ..models import Absence, Answer, CheckIn, LeagueNight, Membership, NightTable, Player


def closed_reason(night: LeagueNight) -> str:
    """Why `night` takes no check-in now ("" when it does): it is not tonight, it is
    over, or its tables are seated."""
    return _closed_reason(
        night,
        finished=night.tables.filter(table__status=Table.Status.FINISHED).exists(),
        seated=night.tables.exists(),
    )


def _closed_reason(night: LeagueNight, *, finished: bool, seated: bool) -> str:
    """The rule of `closed_reason`, given whether a table of the night has finished and
    whether it is seated (read once for many nights by `tonight`)."""
    today = timezone.localdate()
    if night.season.is_closed or night.date < today or finished:
        return "This night is over."
    if night.date > today:
        return f"Check-in opens on the day of the night, {date_format(night.date, 'l j F')}."
    if seated:
        return "The tables are seated: ask an organiser to add you."
    return ""


def checked_in(night: LeagueNight, player: Player) -> bool:
    """Whether `player` has checked in to `night`."""
    return player.is_authenticated and night.check_ins.filter(player=player).exists()


def check_ins(night: LeagueNight) -> QuerySet[CheckIn]:
    """The night's check-ins, first to arrive first."""
    return night.check_ins.select_related("player").order_by("checked_in_at", "pk")


@dataclass(frozen=True)
class Arrivals:
    """Who is here on a night, for its organiser: the check-ins, and the club's members
    expected but not here yet (neither checked in nor present, nor away, nor replaced by
    a substitute)."""

    here: list[CheckIn]
    #: Those who said they are coming first, then the maybes, then those who did not
    #: answer; those who said they are not coming last.
    expected: list[Player]
    #: How many the organiser has present (those checked in among them).
    present: int = 0
    #: The night's tables once it is seated: check-in is over, nobody is expected.
    tables: int = 0
    #: Each expected member's answer to "are you coming?" by id (none: no answer).
    answers: dict[int, str] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.here)

    @property
    def expected_answers(self) -> list[tuple[Player, str]]:
        """Each expected member with their answer ("" if none), in the list's order."""
        return [(member, self.answers.get(member.pk, "")) for member in self.expected]

    @property
    def checked_in_ids(self) -> list[int]:
        return sorted(check_in.player_id for check_in in self.here)


def arrivals(night: LeagueNight) -> Arrivals:
    """The night's check-ins and the members still expected (none once it is seated)."""
    here = list(check_ins(night))
    present = night.players.count()
    tables = night.tables.count()
    if tables:
        return Arrivals(here=here, expected=[], present=present, tables=tables)
    away = set(night.absences.values_list("player_id", flat=True))
    away |= set(night.substitutes.values_list("member_id", flat=True))
    arrived = {check_in.player_id for check_in in here}
    # Ticked present by the organiser, without a phone: here all the same.
    arrived |= set(night.players.values_list("pk", flat=True))
    answers = dict(night.answers.values_list("player_id", "choice"))
    expected = sorted(
        (
            member
            for member in club_members(night.season.league.club)
            if member.pk not in arrived and member.pk not in away
        ),
        key=lambda member: ANSWER_ORDER.get(answers.get(member.pk, ""), 2),
    )
    return Arrivals(here=here, expected=expected, present=present, answers=answers)


#: The order of the expected list on the night: who said they are coming first.
ANSWER_ORDER = {Answer.Choice.COMING: 0, Answer.Choice.MAYBE: 1, Answer.Choice.NOT_COMING: 3}


@dataclass(frozen=True)
class CheckInState:
    """What a member's check-in box on a night shows: whether they are checked in (and
    present), whether they may check in or take it back now, and if not, why."""

    checked_in: bool
    present: bool
    closed: str
    #: How many have checked in (the check-in page says; the home page does not).
    count: int = 0
    #: The member's absence tonight in words ("" if none): checking in takes it back.
    away: str = ""

    @property
    def open(self) -> bool:
        return not self.closed


def check_in_state(night: LeagueNight, player: Player) -> CheckInState:
    """What `player`'s check-in box on `night` shows."""
    absence = night.absences.filter(player=player).exclude(kind=Absence.Kind.BYE).first()
    return CheckInState(
        checked_in=checked_in(night, player),
        present=night.players.filter(pk=player.pk).exists(),
        closed=closed_reason(night),
        count=night.check_ins.count(),
        away=absence.get_kind_display() if absence else "",
    )


#: The most of tonight's nights the home page lists: a member of many clubs still costs
#: one small read.
TONIGHT_AT_MOST = 6


@dataclass(frozen=True)
class Tonight:
    """One of tonight's league nights of a member's clubs, with their check-in box."""

    night: LeagueNight
    check_in: CheckInState

    @property
    def box_id(self) -> str:
        """The check-in box's id on a page that lists several nights."""
        return f"check-in-{self.night.pk}"


def tonight(player: Player) -> list[Tonight]:
    """Tonight's league nights (dated today in the site's time zone, not over) of the
    clubs `player` belongs to, earliest start first, each with what `player`'s check-in
    box shows: one query, however many clubs, nights and check-ins the site holds."""
    night = OuterRef("pk")
    nights = (
        LeagueNight.objects.filter(
            date=timezone.localdate(),
            season__closed_at__isnull=True,
            season__league__club__in=Membership.objects.filter(player=player).values("club"),
        )
        .annotate(
            finished=Exists(
                NightTable.objects.filter(night=night, table__status=Table.Status.FINISHED)
            ),
            seated=Exists(NightTable.objects.filter(night=night)),
            checked_in=Exists(CheckIn.objects.filter(night=night, player=player)),
            present=Exists(
                LeagueNight.players.through.objects.filter(leaguenight=night, player=player)
            ),
            away=Subquery(
                Absence.objects.filter(night=night, player=player)
                .exclude(kind=Absence.Kind.BYE)
                .values("kind")[:1]
            ),
        )
        .filter(finished=False)
        .select_related("season__league__club")
        .order_by(F("start_time").asc(nulls_last=True), "pk")[:TONIGHT_AT_MOST]
    )
    return [
        Tonight(
            night=n,
            check_in=CheckInState(
                checked_in=n.checked_in,
                present=n.present,
                closed=_closed_reason(n, finished=n.finished, seated=n.seated),
                away=Absence.Kind(n.away).label if n.away else "",
            ),
        )
        for n in nights
    ]

"""What one viewer sees of a table: view models built from `engine.view` of its own seat.

Everything a template shows of a hole comes from `engine.view(state, seat)` of the
viewer's own seat (None for a spectator), so a face-down card or the draw pile's order
can never reach a page or a frame. The reads behind them are in `selectors`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils import timezone

from games import engine

from .models import Hole, Seat, Table
from .plays import Pending, pending
from .selectors import (
    TableData,
    chat_lines,
    chat_stamp,
    may_chat,
    may_moderate,
    table_data,
    viewer_seat,
)
from .tiles import Controls, Course, Slot, kept_html
from .tiles import course as course_html


@dataclass
class Seating:
    """Where the courses sit around the felt, as people sit at a real table.

    The viewer (a spectator: the first seat) sits at the bottom; the others follow in
    turn order (clockwise): up the left side, across the top from left to right, down
    the right side. Each list is in turn order, so the left side is listed bottom up.
    """

    bottom: Course | None = None
    left: list[Course] = field(default_factory=list)
    top: list[Course] = field(default_factory=list)
    right: list[Course] = field(default_factory=list)


def seating(courses: list[Course], me: Seat | None) -> Seating:
    """Seat `courses` around the felt for a viewer in seat `me` (None: a spectator)."""
    if not courses:
        return Seating()
    bottom_position = me.position if me is not None else min(c.position for c in courses)
    bottom = next((c for c in courses if c.position == bottom_position), courses[0])
    others = sorted(
        (c for c in courses if c is not bottom),
        key=lambda c: (c.position - bottom.position) % len(courses),
    )
    # One seat on each side from three others, two from six; the rest across the top.
    sides = 0 if len(others) < 3 else 1 if len(others) < 6 else 2
    return Seating(
        bottom=bottom,
        left=others[:sides],
        top=others[sides : len(others) - sides],
        right=others[len(others) - sides :] if sides else [],
    )


def tone(variant: str | engine.Variant, card: Any) -> str:
    """A colour class for a card, as its variant gives it ("down" when face down)."""
    return engine.get_variant(variant).tone(card)


@functools.lru_cache(maxsize=2048)
def _face(variant: str, card: Any) -> tuple[str, str, str]:
    """A card's short face, label and tone under the variant keyed `variant` (its house
    rules' keys included), for the slots of a course: a course has up to a dozen, and a
    variant a few dozen faces."""
    return (*card_name(variant, card), tone(variant, card))


def card_name(variant: str, card: Any) -> tuple[str, str]:
    """The short face and the screen-reader label of a card; face down when None."""
    if card is None:
        return "", "face down"
    return engine.card_text(variant, card), engine.card_label(variant, card)


@functools.lru_cache(maxsize=8192)
def _table_url(name: str, table_id: int) -> str:
    return reverse(f"games:{name}", args=[table_id])


class TableUrls(dict):
    """A table's action URLs for its templates (`urls.leave_match`), each reversed once."""

    def __init__(self, table_id: int) -> None:
        super().__init__()
        self.table_id = table_id

    def __missing__(self, name: str) -> str:
        return _table_url(name, self.table_id)


def table_context(
    table: Table,
    user,
    data: TableData | None = None,
    html: dict | None = None,
) -> dict[str, Any]:
    """Everything the table page and its live frames show to `user`.

    `html`, when given, holds the courses' HTML by what they show (see `courses_for`).
    """
    data = data or table_data(table.pk)
    table, seats, hole = data.table, data.seats, data.hole
    me = viewer_seat(table, user, seats)
    context: dict[str, Any] = {
        "table": table,
        "rules": table.rules,
        "seats": seats,
        "me": me,
        "is_host": user is not None and table.host_id == getattr(user, "pk", None),
        "free_seats": sum(1 for s in seats if s.player_id is None and not s.bot_level),
        "hole": hole,
        "controls": Controls(),
        "courses": [],
        "seating": Seating(),
        "view": None,
        "log": [],
        "scorecard": data.scorecard,
        "rematch": data.rematch,
        "away": me is not None and bool(me.bot_level),
        "urls": TableUrls(table.pk),
        # Shown only while the table waits for players.
        "invite_path": reverse("games:invite", args=[table.invite_code])
        if table.status == Table.Status.OPEN
        else "",
        "countdown": None,
        "hole_strokes": [],
    }
    if hole is None:
        context["turn_text"] = turn_text(context)
        return context
    state = data.state
    shared = data.shared
    my_seat = (
        hole.seat_positions.index(me.position)
        if me is not None and me.position in hole.seat_positions
        else None
    )
    view = engine.view(state, my_seat)
    actions = engine.legal_actions(state, my_seat) if my_seat is not None else []
    if table.status != Table.Status.PLAYING:
        actions = []
    controls = controls_for(actions, hole, table, me)
    courses = courses_for(table, seats, hole, view, my_seat, controls, actions, html, shared)
    if "names" not in shared:
        # The same for every viewer of this version: worked out for its first.
        names = {s.position: s.name for s in seats}
        shared.update(
            names=names,
            dealer_name=names[hole.dealer],
            hole_strokes=_hole_strokes(names, hole),
            waiting=pending(table, hole, seats, state),
        )
    names = shared["names"]
    context.update(
        view=view,
        controls=controls,
        courses=courses,
        seating=seating(courses, me),
        held=_card_name(table.rules, view["held"]),
        held_tone=tone(table.rules, view["held"]),
        discard=_card_name(table.rules, view["discard_top"]),
        discard_tone=tone(table.rules, view["discard_top"]),
        holder=_seat_name(names, hole, view["holding"]),
        turn_name=_seat_name(names, hole, view["turn"]),
        my_turn=my_seat is not None and view["turn"] == my_seat,
        dealer_name=shared["dealer_name"],
        log=data.log,
        results=data.results,
        countdown=_countdown(shared["waiting"], table),
        hole_strokes=shared["hole_strokes"],
    )
    context["turn_text"] = turn_text(context)
    return context


def countdown(
    table: Table, hole: Hole, seats: list[Seat] | None = None, state: Any = None
) -> dict[str, Any] | None:
    """The server's deadline of a wait a person can see: the turn timer or the next deal.

    Given as whole seconds left (not a clock time), so a page counts down from when it
    arrived and a client's wrong clock cannot matter.
    """
    waiting = pending(table, hole, table.seats.all() if seats is None else seats, state)
    return _countdown(waiting, table)


def _countdown(waiting: Pending | None, table: Table) -> dict[str, Any] | None:
    # A turn-based move's deadline is days off: the page shows it as a time instead.
    if waiting is None or waiting.kind == "bot" or (waiting.kind == "timer" and table.turn_based):
        return None
    seconds = max(0, math.ceil((waiting.due - timezone.now()).total_seconds()))
    return {"kind": waiting.kind, "seconds": seconds}


def _hole_strokes(names: dict[int, str], hole: Hole) -> list[tuple[str, int]]:
    """Each seat's strokes for a finished hole, in seat order; empty while it is played."""
    if hole.scores is None:
        return []
    return [(names[p], score) for p, score in zip(hole.seat_positions, hole.scores, strict=True)]


def turn_text(context: dict[str, Any]) -> str:
    """One sentence saying what the table waits for, shown and read out to the viewer."""
    table, hole, view = context["table"], context["hole"], context["view"]
    if table.status == Table.Status.OPEN:
        free = context["free_seats"]
        return f"Waiting for players: {free} seat{'' if free == 1 else 's'} free."
    if table.status == Table.Status.FINISHED:
        results = context.get("results") or []
        if results:
            winner = results[0]
            return f"Match over. {winner.name} wins with {winner.total} strokes."
        return "Match over."
    if table.status == Table.Status.ABANDONED:
        return "Match abandoned: no one moved here for a long while."
    if hole is None or view is None:
        return ""
    controls = context["controls"]
    if view["phase"] == engine.OVER:
        strokes = ", ".join(f"{name} {score}" for name, score in context["hole_strokes"])
        return f"{hole.name} over: {strokes}."
    if view["phase"] == engine.TEE_OFF:
        if controls.tee_off:
            return f"Your tee off: turn up {controls.tee_off} cards."
        return "Tee off: waiting for the others to turn up their cards."
    if context["my_turn"]:
        if view["holding"] is not None:
            return f"Your turn: place the {context['held'][0]}."
        return "Your turn: draw a card."
    last = " (last turns)" if view["phase"] == engine.FINAL_TURNS else ""
    return f"{context['turn_name']}'s turn{last}."


def _seat_name(names: dict[int, str], hole: Hole, engine_seat: int | None) -> str | None:
    if engine_seat is None:
        return None
    return names[hole.seat_positions[engine_seat]]


def _card_name(rules, card: Any) -> tuple[str, str] | None:
    """`card_name` of a card shown (None: none)."""
    return None if card is None else card_name(rules, card)


def controls_for(actions: list[dict], hole: Hole, table: Table, me: Seat | None) -> Controls:
    """Turn the engine's legal actions into the buttons the viewer gets."""
    controls = Controls()
    for action in actions:
        kind = action["type"]
        if kind == "draw":
            if action["source"] == "pile":
                controls.draw_pile = True
            else:
                controls.draw_discard = True
        elif kind == "discard":
            controls.discard = True
        elif kind == "knock":
            controls.knock = True
        elif kind == "tee_off":
            controls.tee_off = len(action["positions"])
        elif kind == "swap":
            controls.swaps.append(tuple(action["positions"]))
    seated = me is not None
    playing = table.status == Table.Status.PLAYING
    controls.next_hole = seated and playing and hole.finished_at is not None
    controls.rematch = seated and table.status == Table.Status.FINISHED
    return controls


def courses_for(
    table: Table,
    seats: list[Seat],
    hole: Hole,
    view: dict,
    my_seat: int | None,
    controls: Controls,
    actions: list[dict],
    html: dict | None = None,
    shared: dict | None = None,
) -> list[Course]:
    """Every seat's course, the viewer's own first (it is drawn nearest and largest).

    `html`: rendered courses by what they show, to
    reuse (and to add to) across versions and viewers; a course without buttons then
    comes with its HTML and without its slots, as most do not change from one move to
    the next. `shared`: what this version's viewers share (`TableData.shared`), where
    the courses that are not the viewer's are kept for the next viewer: they look the
    same to every viewer of the version.
    """
    replace = {a["position"] for a in actions if a["type"] == "replace"}
    flip = {a["position"] for a in actions if a["type"] == "flip"}
    courses = []
    for seat in seats:
        index = (
            hole.seat_positions.index(seat.position)
            if seat.position in hole.seat_positions
            else None
        )
        mine = index is not None and index == my_seat
        if index is None:
            # Sits out this playoff hole.
            course = Course(
                *(seat.position, seat.name, seat.is_bot, False, False, False, []),
                bot_level=seat.bot_level,
            )
            course.sitting_out = True
        elif html is not None and not mine and shared is not None:
            key = ("course", seat.position)
            course = shared.get(key)
            if course is None:
                course = shared[key] = _shown_course(table, seat, hole, view, index, mine, html)
        elif html is not None and not (
            mine and (replace or flip or controls.tee_off or controls.swaps)
        ):
            course = _shown_course(table, seat, hole, view, index, mine, html)
        else:
            course = _course(table, seat, hole, view, index, mine, controls, replace, flip)
        courses.append(course)
    courses.sort(key=lambda c: (not c.is_me, c.position))
    return courses


def _shown_course(
    table: Table, seat: Seat, hole: Hole, view: dict, index: int, mine: bool, html: dict
) -> Course:
    """The course of `seat` (engine seat `index`) without buttons, its HTML from `html`
    by everything it shows (rendered and added there if missing), without its slots."""
    cards = view["layouts"][index]
    is_turn = view["turn"] == index or (
        view["phase"] == engine.TEE_OFF and not view["teed_off"][index]
    )
    is_dealer = hole.dealer == seat.position
    score = view["scores"][index] if view["scores"] is not None else None
    kept_for = seat.player.name if seat.player_id and seat.bot_level else ""
    key = (
        *(table.rules.key, view["phase"], seat.position, seat.name, seat.bot_level, mine),
        *(is_turn, is_dealer, score, kept_for, tuple(cards)),
    )

    def render() -> str:
        course = _course(table, seat, hole, view, index, mine, Controls(), set(), set())
        return course_html(course, table.rules, Controls(), 0, view["phase"])

    shown = kept_html(html, key, render)
    return Course(
        *(seat.position, seat.name, seat.is_bot, mine, is_turn, is_dealer, []),
        score=score,
        kept_for=kept_for,
        html=shown,
    )


def _course(
    table: Table,
    seat: Seat,
    hole: Hole,
    view: dict,
    index: int,
    mine: bool,
    controls: Controls,
    replace: set[int],
    flip: set[int],
) -> Course:
    """The course of `seat` (engine seat `index`); its buttons only when it is `mine`."""
    rules = table.rules
    cards = view["layouts"][index]
    paired: set[int] = set()
    if view["phase"] == engine.OVER:
        paired = {p for g in engine.scoring_pairs(rules, cards) for p in g}
    slots = []
    tee = mine and bool(controls.tee_off)
    for position, card in enumerate(cards):
        text, label, shade = _face(rules.key, card)
        slots.append(
            Slot(
                position=position,
                card=card,
                text=text,
                label=label,
                face_up=card is not None,
                tone=shade,
                paired=position in paired,
                replace=mine and position in replace,
                flip=mine and position in flip,
                tee=tee and card is None,
            )
        )
    return Course(
        position=seat.position,
        name=seat.name,
        is_bot=seat.is_bot,
        is_me=mine,
        is_turn=view["turn"] == index
        or (view["phase"] == engine.TEE_OFF and not view["teed_off"][index]),
        is_dealer=hole.dealer == seat.position,
        rows=[slots[r * rules.cols : (r + 1) * rules.cols] for r in range(rules.rows)],
        score=view["scores"][index] if view["scores"] is not None else None,
        kept_for=seat.player.name if seat.player_id and seat.bot_level else "",
        bot_level=seat.bot_level,
    )


#: Lines a player can send with one click.
QUICK_PHRASES = ("Nice shot!", "Good game", "Well played", "Unlucky!", "Your turn", "Thanks!")


def chat_context(table_id: int, user) -> dict[str, Any]:
    """The table's chat as `user` sees it: the latest lines no one hid, whether they may
    write, hide lines (the host, staff, an organiser) or turn the chat off (the host).
    Reads the database."""
    table = Table.objects.get(pk=table_id)
    is_host = user is not None and table.host_id == user.pk
    return {
        "table": table,
        "me_id": user.pk if user is not None else None,
        "lines": chat_lines(table_id) if table.chat_on else [],
        "may_write": table.chat_on and may_chat(table, user),
        "may_hide": table.chat_on and may_moderate(table, user),
        "is_host": is_host,
        "phrases": QUICK_PHRASES,
        "stamp": chat_stamp(table_id),
    }

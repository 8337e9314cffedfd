"""The live parts of a table page (alert, status, board, scorecard, move log), and
every other fragment that shows cards.

Every move re-renders some of the live parts for every viewer of the table, so they
are Jinja2 templates (`games/jinja2/games/live/`), which compile to Python and render
several times faster than Django's. The table page renders the same templates, so
what a player sees after a reload and after a push cannot drift apart. So that cards
are drawn one way everywhere, every fragment that shows them (a replay's felt, the
rules' examples) is a Jinja2 template too (`fragment`), each card drawn by
`tiles.tile`; the pages around them stay Django templates.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.template import engines
from django.urls import reverse
from django.utils.safestring import SafeString
from jinja2 import ChainableUndefined, Environment, Template

from .models import hole_heading, hole_name
from .tiles import course, kept_html, slot_tile, tile

# Markup is marked safe as SafeString(...): every value marked here is a str already,
# and mark_safe's look for lazy strings costs more than the marking, on every move.

PARTS = ("alert", "status", "board", "scorecard", "log")


def environment(**options) -> Environment:
    """The Jinja2 environment of the `jinja2` template engine (see settings)."""
    # Like Django's templates: a missing value, or one looked up on it, renders empty.
    options["undefined"] = ChainableUndefined
    env = Environment(**options)
    env.globals.update(
        url=lambda name, *args: reverse(name, args=args),
        course_html=course,
        card=tile,
        slot_card=slot_tile,
        hole_name=hole_name,
        hole_heading=hole_heading,
    )
    return env


_templates: dict[str, Template] = {}


def _template(name: str) -> Template:
    template = _templates.get(name)
    if template is None:
        env = engines["jinja2"].env
        template = env.get_template(f"games/live/{name}.html")
        if not env.auto_reload:  # Jinja2's own lookup costs as much as a small render.
            # Its globals are a ChainMap over the environment's, which each render copies
            # key by key in Python; the environment's are set once (`environment`), so a
            # plain dict of them shows the same and copies in C.
            template.globals = dict(template.globals)
            _templates[name] = template
    return template


def render(
    part: str, context: dict, *, shared: dict | None = None, kept: dict | None = None
) -> SafeString:
    """One live part of the table for `context` (see `presenters.table_context`).

    What a viewer's part has in common with other viewers' is rendered once: `shared`
    holds the pieces of one version (the status and the piles most viewers see alike),
    `kept` those that look the same across versions (a board's frame, see
    `render_board`). Each is keyed by everything its template reads; without them,
    everything is rendered for this viewer alone, to the same HTML.
    """
    if part == "board" and context.get("hole") is not None:
        return render_board(context, shared=shared, kept=kept)
    if part == "status" and shared is not None:
        return SafeString(kept_html(shared, _status_key(context), lambda: _render(part, context)))
    return SafeString(_render(part, context))


def _render(name: str, context: dict) -> str:
    return _template(name).render(context)


def _status_key(context: dict) -> tuple:
    """What the status shows that differs between the viewers of one version."""
    countdown = context["countdown"]
    return (
        "status",
        context["turn_text"],
        context.get("my_turn"),
        context["controls"].tee_off,
        context["away"],
        context.get("oob"),
        None if countdown is None else (countdown["kind"], countdown["seconds"]),
    )


def _piles_key(context: dict) -> tuple:
    """Everything the piles show, for the viewers of one version: the version itself only
    when they carry a move's button."""
    controls, view = context["controls"], context["view"]
    buttons = (
        controls.draw_pile,
        controls.draw_discard,
        controls.discard,
        controls.knock,
        bool(controls.swaps),
    )
    return (
        "piles",
        *buttons,
        context["table"].version if any(buttons) else None,
        view["draw_count"],
        view["holding"] is not None,
        context.get("discard"),
        context.get("discard_tone"),
        context.get("held"),
        context.get("held_tone"),
        context.get("my_turn"),
        context.get("holder"),
    )


class Board(SafeString):
    """The board of a hole in play, with the pieces a frame may carry alone.

    `pieces`: each course and the piles by id, exactly as the board holds them;
    `frame`: the board with each piece left as a mark of its id. Two boards of one
    frame hold the same pieces in the same places, so a viewer who holds one is
    brought to the other by swapping the pieces that differ (`changed`).
    """

    pieces: dict[str, str]
    frame: str


@dataclass(frozen=True)
class _Mark:
    """A piece's place in a board's frame: what the template draws as the course."""

    html: str


def _marked(course) -> _Mark:
    return _Mark(SafeString(f"\0course-{course.position}\0"))


def _frame(context: dict) -> str:
    """The board with a mark of each piece's id where the piece goes."""
    seating = context["seating"]
    marks = dataclasses.replace(
        seating,
        bottom=_marked(seating.bottom) if seating.bottom is not None else None,
        left=[_marked(c) for c in seating.left],
        top=[_marked(c) for c in seating.top],
        right=[_marked(c) for c in seating.right],
    )
    return _render("board", {**context, "seating": marks, "piles": SafeString("\0table-piles\0")})


def _frame_key(context: dict) -> tuple | None:
    """Everything a board's frame shows while a hole is played, across its versions; None
    at a hole's end or the match's (their banner and results change with the version)."""
    table, seating = context["table"], context["seating"]
    if context["view"]["phase"] == "over" or table.status != "playing":
        return None
    return (
        "board",
        table.pk,
        context.get("oob"),
        None if seating.bottom is None else seating.bottom.position,
        *(
            tuple(c.position for c in courses)
            for courses in (seating.left, seating.top, seating.right)
        ),
        context["me"] is not None,
        context["away"],
        context["is_host"] and not table.is_public and not table.seats_assigned,
    )


def render_board(context: dict, *, shared: dict | None = None, kept: dict | None = None) -> Board:
    """The board of a hole in play, with its pieces (see `Board`)."""
    courses = context["courses"]
    rules, controls = context["rules"], context["controls"]
    version, phase = context["table"].version, context["view"]["phase"]
    for shown in courses:
        if not shown.html:
            shown.html = course(shown, rules, controls, version, phase)
    pieces = {f"course-{c.position}": c.html for c in courses}
    piles = lambda: _render("piles", context)  # noqa: E731
    pieces["table-piles"] = SafeString(
        piles() if shared is None else kept_html(shared, _piles_key(context), piles)
    )
    key = _frame_key(context) if kept is not None else None
    frame = _frame(context) if key is None else kept_html(kept, key, lambda: _frame(context))
    parts = frame.split("\0")
    # Marks and pieces alternate: text, id, text, id, ..., text.
    parts[1::2] = [pieces[key] for key in parts[1::2]]
    board = Board("".join(parts))
    board.pieces = pieces
    board.frame = frame
    return board


def changed(shown: dict[str, str], parts: dict[str, str]) -> str:
    """The HTML that brings a viewer who was last sent `shown` to `parts`: each part that
    changed (the alert always, as a page's own requests swap it too), and of a board
    whose frame holds, only the pieces that changed. htmx's socket swaps each top-level
    element of a message by its id."""
    html = []
    for name, part in parts.items():
        before = shown.get(name)
        if name != "alert" and before == part:
            continue
        if isinstance(part, Board) and isinstance(before, Board) and part.frame == before.frame:
            html.extend(p for key, p in part.pieces.items() if before.pieces.get(key) != p)
        else:
            html.append(part)
    return "".join(html)


def fragment(name: str, context: dict) -> SafeString:
    """The fragment `games/<name>.html` (one that shows cards) for a Django page."""
    return SafeString(engines["jinja2"].env.get_template(f"games/{name}.html").render(context))


def page_parts(context: dict) -> dict[str, SafeString]:
    """Every live part, for the table page."""
    return {part: render(part, context) for part in PARTS}


def render_alert(message: str, *, oob: bool = True) -> str:
    """A polite message for one viewer only, the table left as it is.

    Out of band in a socket's frame; in reply to a request that targets the alert
    itself, plain: swapped out of band as well, it would be swapped twice and the
    second swap (of nothing) would take the alert off the page.
    """
    return render("alert", {"alert": message, "oob": oob})


def render_chat(context: dict, *, oob: bool = True) -> SafeString:
    """The table's chat panel for one viewer (`presenters.chat_context`). It changes with
    its own news, not with the table's version; the page renders it inert, and the
    socket's first frame replaces it live."""
    return render("chat", {**context, "oob": oob})

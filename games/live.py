"""The live parts of a table page (alert, status, board, scorecard, move log), and
every other fragment that shows cards.

Every move re-renders some of the live parts for every viewer of the table, so they
are Jinja2 templates (`games/jinja2/games/live/`), which compile to Python and render
several times faster than Django's. The table page renders the same templates, so
what a player sees after a reload and after a push cannot drift apart. So that cards
are drawn one way everywhere, every fragment that shows them (a replay's felt, the
rules' examples) is a Jinja2 template too (`fragment`), each card drawn by
`cards.tile`; the pages around them stay Django templates.
"""

from __future__ import annotations

from django.template import engines
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from jinja2 import ChainableUndefined, Environment, Template

from .cards import course, slot_tile, tile
from .models import hole_heading, hole_name

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
            _templates[name] = template
    return template


def render(part: str, context: dict) -> SafeString:
    """One live part of the table for `context` (see `presenters.table_context`)."""
    if part == "board" and context.get("hole") is not None:
        return render_board(context)
    return mark_safe(_template(part).render(context))


class Board(SafeString):
    """The board of a hole in play, with the pieces a frame may carry alone.

    `pieces`: each course and the piles by id, exactly as the board holds them;
    `frame`: the board with each piece left as a mark of its id. Two boards of one
    frame hold the same pieces in the same places, so a viewer who holds one is
    brought to the other by swapping the pieces that differ (`changed`).
    """

    pieces: dict[str, str]
    frame: str


def render_board(context: dict) -> Board:
    """The board of a hole in play, with its pieces (see `Board`)."""
    courses = context["courses"]
    rules, controls = context["rules"], context["controls"]
    version, phase = context["table"].version, context["view"]["phase"]
    for shown in courses:
        if not shown.html:
            shown.html = course(shown, rules, controls, version, phase)
    piles = mark_safe(_template("piles").render(context))
    board = Board(_template("board").render({**context, "piles": piles}))
    board.pieces = {f"course-{c.position}": c.html for c in courses}
    board.pieces["table-piles"] = piles
    frame = str(board)
    for key, piece in board.pieces.items():
        frame = frame.replace(piece, f"\0{key}\0", 1)
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
    return mark_safe(engines["jinja2"].env.get_template(f"games/{name}.html").render(context))


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

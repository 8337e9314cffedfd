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


def render(part: str, context: dict) -> SafeString:
    """One live part of the table for `context` (see `selectors.table_context`)."""
    template = _templates.get(part)
    if template is None:
        env = engines["jinja2"].env
        template = env.get_template(f"games/live/{part}.html")
        if not env.auto_reload:  # Jinja2's own lookup costs as much as a small render.
            _templates[part] = template
    return mark_safe(template.render(context))


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

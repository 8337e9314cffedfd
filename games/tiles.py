"""Card tiles and courses: the one place a card's markup is written, and the view
models it is written from (`Slot`, `Course`, `Controls`, which `presenters` fills in).

Every card on every page (a course's, the piles', a replay's, the rules' examples)
is drawn by `tile`, which the Jinja2 templates call as `card(...)`. Every move
re-renders a few dozen tiles per viewer, so they are built with plain string
formatting rather than in a template. Every value that is not a number or one of the
fixed words here goes through `_e` (HTML escaping, as Django's `escape` does it)
before it is joined in.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape as _escape
from typing import Any

from django.utils.safestring import SafeString

# Markup is marked safe as SafeString(...): every value marked here is a str already,
# and mark_safe's look for lazy strings costs more than the marking, on every move.


@dataclass
class Slot:
    """One card place of a course as a viewer sees it."""

    position: int
    card: Any
    text: str
    label: str
    face_up: bool
    tone: str = ""
    paired: bool = False
    replace: bool = False
    flip: bool = False
    tee: bool = False


@dataclass
class Course:
    """One seat's cards in the variant's shape, with who sits there."""

    position: int
    name: str
    is_bot: bool
    is_me: bool
    is_turn: bool
    is_dealer: bool
    rows: list[list[Slot]]
    score: int | None = None
    sitting_out: bool = False
    #: The player's name while a bot keeps their seat ("bot for Ana"), else "".
    kept_for: str = ""
    #: The bot's level ("greedy", ...), shown as a chip; "" for a person.
    bot_level: str = ""
    #: The course already rendered (it looks the same to every viewer but its owner).
    html: str = ""


@dataclass
class Controls:
    """The actions the viewer may take now: only these become buttons."""

    draw_pile: bool = False
    draw_discard: bool = False
    discard: bool = False
    knock: bool = False
    tee_off: int = 0
    swaps: list[tuple[int, int]] = field(default_factory=list)
    next_hole: bool = False
    rematch: bool = False

    @property
    def any(self) -> bool:
        return bool(
            self.draw_pile or self.draw_discard or self.discard or self.knock or self.tee_off
        )


def _e(value) -> str:
    return _escape(str(value), quote=True)


# A variant has a few dozen faces, each with a tone and a label: the tiles a frame draws
# (some fifty a move for four viewers) are nearly always ones drawn before.
@functools.lru_cache(maxsize=4096)
def _tile(tone: str, face=None, label=None, classes: str = "") -> str:
    named = f' role="img" aria-label="{_e(label)}"' if label is not None else ' aria-hidden="true"'
    shown = f'<span class="face" aria-hidden="true">{_e(face)}</span>' if face is not None else ""
    return f'<span class="card {_e(tone)}{" " + classes if classes else ""}"{named}>{shown}</span>'


def tile(tone: str, face=None, label=None, classes: str = "") -> SafeString:
    """One card: `tone` its colour class ("back" face down, "empty" no card), `face` what
    its face shows (None: nothing, as a face-down card carries no value), `label` what a
    screen reader hears (None: hidden from it, as inside a button that says it all)."""
    return SafeString(_tile(tone, face, label, classes))


def _card(slot: Slot) -> str:
    label = f"{slot.label}, paired" if slot.paired else slot.label
    face = slot.text if slot.face_up else None
    return _tile(slot.tone, face, label, "paired" if slot.paired else "")


def slot_tile(slot: Slot) -> SafeString:
    """The card of a course's slot."""
    return SafeString(_card(slot))


def _move_form(kind: str, position: int, version: int, button: str) -> str:
    return (
        f'<form ws-send><input type="hidden" name="type" value="{kind}">'
        f'<input type="hidden" name="position" value="{position}">'
        f'<input type="hidden" name="version" value="{version}">{button}</form>'
    )


def _slot(slot: Slot, version: int) -> str:
    tile = _card(slot)
    n = slot.position
    if slot.replace:
        button = (
            f'<button type="submit" class="card-button" id="replace-{n}" '
            f'aria-label="Replace card {n + 1}, {_e(slot.label)}">{tile}</button>'
        )
        tile = _move_form("replace", n, version, button)
    flip = ""
    if slot.flip:
        button = (
            f'<button type="submit" class="button small secondary flip" id="flip-{n}" '
            f'aria-label="Discard and turn up card {n + 1}">Turn up</button>'
        )
        flip = _move_form("flip", n, version, button)
    return f'<div class="slot">{tile}{flip}</div>'


def _tee_slot(slot: Slot) -> str:
    n = slot.position
    return (
        f'<label class="slot pick" id="tee-{n}-label"><input type="checkbox" name="positions" '
        f'value="{n}" id="tee-{n}" aria-label="Card {n + 1}, {_e(slot.label)}">'
        f"{_card(slot)}</label>"
    )


def course(course: Course, rules, controls: Controls, version: int, phase: str) -> SafeString:
    """One seat's course in the variant's shape, with its buttons if it is the viewer's."""
    version = int(version)
    classes = "course" + (" mine" if course.is_me else "") + (" turn" if course.is_turn else "")
    chips = ""
    if course.kept_for:
        chips += f'<span class="chip bot kept">(bot for {_e(course.kept_for)})</span>'
    elif course.is_bot:
        chips += f'<span class="chip bot">{_e(course.bot_level)} bot</span>'
    if course.is_dealer:
        chips += '<span class="chip dealer" title="Dealer">dealer</span>'
    if course.is_turn:
        doing = "teeing off" if phase == "tee_off" else "to play"
        chips += f'<span class="chip turn">{doing}</span>'
    if course.score is not None:
        score = int(course.score)
        chips += f'<span class="chip score">{score} stroke{"" if score == 1 else "s"}</span>'
    slots = [slot for row in course.rows for slot in row]
    # A class, not a style attribute: the Content-Security-Policy allows none.
    grid = f'<div class="grid cols-{int(rules.cols)}">'
    if course.sitting_out:
        body = '<p class="muted">Sits out this playoff hole.</p>'
    elif course.is_me and controls.tee_off:
        body = (
            '<form class="tee-off" ws-send><input type="hidden" name="type" value="tee_off">'
            f'<input type="hidden" name="version" value="{version}"><fieldset>'
            f"<legend>Tee off: choose {int(controls.tee_off)} cards to turn face up</legend>"
            f"{grid}{''.join(_tee_slot(s) for s in slots)}</div></fieldset>"
            '<button type="submit" class="button" id="tee-off-button">Tee off</button></form>'
        )
    else:
        body = f"{grid}{''.join(_slot(s, version) for s in slots)}</div>"
    name = _e(course.name)
    label = "Your course" if course.is_me else name + "'s course"
    return SafeString(
        f'<section class="{classes}" id="course-{int(course.position)}" aria-label="{label}">'
        f'<header class="course-head"><span class="seat-name">{"You" if course.is_me else name}'
        f"</span>{chips}</header>{body}</section>"
    )


#: The most pieces of HTML a cache of them (`kept_html`) holds: about 1.5 KB each. When
#: full, the quarter used least recently goes; a table in play adds a piece or two a
#: move, and dropping every piece at once had every table render all of its pieces
#: again together.
HTML_KEPT = 16000


def kept_html(kept: dict | None, key: tuple, render: Callable[[], str]) -> str:
    """The HTML `render` makes, kept in `kept` by `key`, everything it shows, for every
    viewer and version that shows the same (rendered each time when `kept` is None)."""
    if kept is None:
        return render()
    html = kept.pop(key, None)
    if html is None:
        html = render()
        if len(kept) >= HTML_KEPT:
            for old in list(itertools.islice(kept, HTML_KEPT // 4)):
                del kept[old]
    kept[key] = html  # the last used goes last: the least recently used go first
    return html

"""Template tags of the scorecards the night's pages print (`night.html#scorecard`): a
night's page prints a row for each of its players and a cell for each of their holes,
which these write in Python rather than a template node each.

`{% score_cells strokes %}` writes a cell per hole; `{% card_row card_view view %}` a
card's row, as the template wrote it before.
"""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.models import Table

from ..attendance.forms import html_attrs

register = template.Library()

#: A card's row, indented as in the template around it.
ROW = (
    "<tr{}>\n"
    '              <th scope="row">{}</th>\n'
    "              {}\n"
    "              {}\n"
    '              <td class="num total">{}</td>\n'
    '              <td class="num">{}</td>\n'
    "            </tr>"
)


@register.simple_tag
def score_cells(strokes: Iterable[int | None], css: str = "num") -> SafeString:
    """A cell of class `css` (the template's own words) for each of `strokes`; a hole not
    played is blank. Whole numbers need no escaping: `int` makes sure of it."""
    return mark_safe(
        "".join(f'<td class="{css}">{"" if s is None else int(s)}</td>' for s in strokes)
    )


@register.simple_tag(takes_context=True)
def hole_headings(context, holes: Iterable[int]) -> SafeString:
    """The head of a scorecard's hole columns: on a night of duplicate deals, each hole
    links to its comparison across the night's tables."""
    night = context.get("night")
    if not getattr(night, "duplicate_deals", False):
        return mark_safe("".join(f'<th scope="col" class="num">{int(n)}</th>' for n in holes))
    deals = reverse(
        "leagues:public_night_deals" if context.get("public") else "leagues:night_deals",
        args=[night.pk],
    )
    return format_html_join(
        "",
        '<th scope="col" class="num"><a href="{}#hole-{}" title="Hole {} at every table">{}</a>'
        "</th>",
        ((deals, n, n, n) for n in holes),
    )


@register.simple_tag(takes_context=True)
def card_row(context, card_view, view) -> SafeString:
    """The row of `card_view` at the table of `view`: its player's name (a link to their
    page but on public pages), holes, playoff holes, total and place. A card hiding
    holes the viewer has yet to play shows no total or place."""
    card = card_view.card
    if card.player_id and not context.get("public"):
        url = reverse("leagues:player", args=[context["league"].pk, card.player_id])
        name = format_html('<a href="{}">{}</a>', url, card.name)
    else:
        name = format_html("{}", card.name)
    shown = not card_view.hidden
    finished = view.table.status == Table.Status.FINISHED
    return format_html(
        ROW,
        mark_safe(' class="winner"') if card.place == 1 and shown else "",
        name,
        score_cells(card_view.holes),
        score_cells(card_view.playoff, "num playoff"),
        card.total if shown and (finished or card.total) else "",
        card.place if shown and card.place is not None else "",
    )


@register.simple_tag
def check_box(box: dict) -> SafeString:
    """A box of a list of checkboxes (`BoundWidget.data`), as Django's checkbox widget
    draws it: the players present list a box for every member of the club."""
    value = "" if box["value"] is None else format_html(' value="{}"', box["value"])
    return format_html(
        '<input type="{}" name="{}"{}{}>', box["type"], box["name"], value, html_attrs(box["attrs"])
    )

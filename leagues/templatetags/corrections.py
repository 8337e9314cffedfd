"""`{% correction_rows corrections %}`: the corrections log's rows (`_corrections_log.html`),
written in Python rather than a template node a cell: a page of the log prints
twenty-five of them."""

from __future__ import annotations

from collections.abc import Iterable

from django import template
from django.urls import reverse
from django.utils import dateformat, timezone
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()

ROW = (
    "<tr>"
    '<td>{}<span class="wide-only"> {}</span></td>'
    '<td><a href="{}">{}</a> <span class="muted wide-only">{}</span></td>'
    '<td class="num wide-only">{}</td>'
    "<td>{}</td><td>{}</td>"
    '<td class="num">{}</td><td class="num">{}</td>'
    "<td>{}</td><td>{}</td>"
    "</tr>\n"
)


@register.simple_tag(takes_context=True)
def correction_rows(context, corrections: Iterable) -> SafeString:
    """A row for each correction: when, the night (its page, public on public pages),
    the table, the card, the hole, the strokes before and after, why and by whom."""
    public = bool(context.get("public"))

    def row(c):
        night_table = c.scorecard.table.night_table
        night = night_table.night
        when = timezone.localtime(c.corrected_at)
        page = reverse("leagues:public_night" if public else "leagues:night", args=[night.pk])
        by = c.corrected_by.name if c.corrected_by else ""
        return (
            dateformat.format(when, "j M Y"),
            dateformat.format(when, "H:i"),
            page,
            dateformat.format(night.date, "j M Y"),
            night.season.name,
            night_table.number,
            c.scorecard.name,
            c.hole_name,
            c.old_strokes,
            "removed" if c.removed else c.new_strokes,
            c.reason,
            by or "–",
        )

    return format_html_join("", ROW, (row(c) for c in corrections))

"""The card tile, as a tag: a course renders dozens of them on every move."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from games.selectors import Slot

register = template.Library()


@register.simple_tag
def card(slot: Slot) -> str:
    """One card tile. A face-down card carries no value, only its label."""
    paired = " paired" if slot.paired else ""
    face = (
        format_html('<span class="face" aria-hidden="true">{}</span>', slot.text)
        if slot.face_up
        else ""
    )
    return format_html(
        '<span class="card {}{}" role="img" aria-label="{}{}">{}</span>',
        slot.tone,
        paired,
        slot.label,
        ", paired" if slot.paired else "",
        face,
    )

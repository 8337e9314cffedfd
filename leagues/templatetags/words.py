"""Template filters of `leagues.words`: `{{ team.name|possessive }}`."""

from __future__ import annotations

from django import template

from .. import words

register = template.Library()


@register.filter
def possessive(name) -> str:
    return words.possessive(name)

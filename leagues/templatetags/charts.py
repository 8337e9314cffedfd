"""`{{ value|tenths }}`: a number to one decimal place as `floatformat:1` writes it, at a
fraction of its cost (`players.charts.tenths`): a player's page writes hundreds of them."""

from __future__ import annotations

from django import template

from ..players.charts import tenths as to_tenths

register = template.Library()


@register.filter
def tenths(value) -> str:
    return "" if value is None or value == "" else to_tenths(value)

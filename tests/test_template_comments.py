"""A template comment of several lines must be `{% comment %}`: Django's `{# #}` is for
one line only, and a `{#` left open prints itself, and what follows, on the page."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_no_template_opens_a_one_line_comment_it_does_not_close_on_that_line():
    open_comments = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in TEMPLATES.rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"\{#(?!.*#\})", line)
    ]
    assert open_comments == []

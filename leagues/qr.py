"""QR codes drawn on the server as inline SVG (no script, no image from elsewhere): a
night's door sign opens its check-in page, a paper table's card its report page."""

from __future__ import annotations

import segno
from django.utils.safestring import SafeString, mark_safe


def qr_svg(address: str, *, title: str) -> SafeString:
    """`address` as a QR code: an `<svg>` element that scales to its box, with `title`
    as its accessible name."""
    code = segno.make(address, error="m", micro=False)
    svg = code.svg_inline(
        scale=1,
        border=4,
        omitsize=True,  # a viewBox only: the page's stylesheet sizes it
        title=title,
        svgclass="qr",
        lineclass=None,
        dark="#000",
        light="#fff",
    )
    # segno escapes the title; the rest is its own markup.
    return mark_safe(svg.replace("<svg ", '<svg role="img" ', 1))

"""Draws the web app's icons (static/img/icon-*.png) from the flag of static/img/flag.svg:
a white tile for the plain icons, and for the maskable one the flag inside the central
circle (80% of the side) that every launcher's mask keeps. Run it again after changing
the flag: `.venv/bin/python deploy/make_icons.py` (Pillow, requirements-dev.txt)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

IMG = Path(__file__).resolve().parent.parent / "static" / "img"
GREEN, POLE, RED, FELT = "#2f7d32", "#1b3a1d", "#e53935", "#e8f3e8"


def flag(size: int, scale: float, background: str) -> Image.Image:
    """The flag's 24-unit drawing, `scale` of the side, centred on `background`."""
    # Drawn four times larger and scaled down: smooth edges without an SVG renderer.
    big = size * 4
    image = Image.new("RGB", (big, big), background)
    draw = ImageDraw.Draw(image)
    unit = big * scale / 24
    left = top = (big - 24 * unit) / 2

    def at(x: float, y: float) -> tuple[float, float]:
        return left + x * unit, top + y * unit

    draw.ellipse([at(9, 17), at(15, 23)], fill=GREEN)
    draw.line([at(7, 3), at(7, 21)], fill=POLE, width=round(2 * unit))
    for end in (3, 21):
        x, y = at(7, end)
        draw.ellipse([x - unit, y - unit, x + unit, y + unit], fill=POLE)
    draw.polygon([at(8, 3), at(19, 7), at(8, 11)], fill=RED)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    for size in (192, 512):
        flag(size, 0.8, "white").save(IMG / f"icon-{size}.png", optimize=True)
    flag(512, 0.6, FELT).save(IMG / "icon-maskable-512.png", optimize=True)


if __name__ == "__main__":
    main()

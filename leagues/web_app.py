"""The web app manifest (`/manifest.webmanifest`), which makes Fairway an app a phone or
a desktop browser can install: its name, colours, icons (static/img/icon-*.png, drawn by
deploy/make_icons.py) and the page it opens on. The icons' addresses come from the static
files' storage, so that they carry the same hashed names as every other static file."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.views.decorators.http import require_GET

#: The site's colours, as fairway.css draws them (header and page).
THEME = "#1b4d1e"
BACKGROUND = "#e8f3e8"


def manifest() -> dict:
    icon = {"type": "image/png"}
    return {
        "id": "/",
        "name": "Fairway",
        "short_name": "Fairway",
        "description": "League nights of Play Nine and the card games of golf.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {**icon, "src": static("img/icon-192.png"), "sizes": "192x192", "purpose": "any"},
            {**icon, "src": static("img/icon-512.png"), "sizes": "512x512", "purpose": "any"},
            {
                **icon,
                "src": static("img/icon-maskable-512.png"),
                "sizes": "512x512",
                "purpose": "maskable",
            },
        ],
    }


@require_GET
def web_manifest(request: HttpRequest) -> JsonResponse:
    """The manifest, with its own content type (the W3C's application/manifest+json)."""
    response = JsonResponse(manifest(), content_type="application/manifest+json")
    response["Cache-Control"] = "max-age=3600"
    return response

"""The site's one service worker (`static/js/sw.js`), served at the site's root.

A worker's scope can be no wider than the folder its script is served from, unless the
answer says otherwise (`Service-Worker-Allowed`): served from here, at `/sw.js`, its
scope is the whole site, which the report and check-in pages need (and so would Web
Push). The browser checks it for a new version on every visit to a page it controls;
`no-cache` makes that check reach the server, so a new release takes over at once.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

#: The worker's script among the static files.
SCRIPT = "js/sw.js"


@cache
def _script() -> bytes:
    found = finders.find(SCRIPT)
    if not found:
        raise LookupError(f"The service worker's script {SCRIPT} is not among the static files.")
    return Path(found).read_bytes()


@require_GET
def script(request: HttpRequest) -> HttpResponse:
    """The service worker, for the whole site's scope."""
    response = HttpResponse(_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response

"""The Content-Security-Policy header: django-csp's middleware, naming the site's sockets.

CSP Level 3 counts ws: and wss: on the page's own host as 'self', but browsers that
predate it do not, and a table page lives on its socket: connect-src names that origin
(the request's validated host, ws: or wss: as the page is served) besides 'self'.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """settings.CONTENT_SECURITY_POLICY, with this host's WebSocket origin in connect-src."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        try:
            host = request.get_host()
        except DisallowedHost:
            return parts  # already answered with 400; 'self' alone is enough for that
        origin = f"{'wss' if request.is_secure() else 'ws'}://{host}"
        update = dict(parts.update or {})
        update["connect-src"] = [*update.get("connect-src", []), origin]
        parts.update = update
        return parts

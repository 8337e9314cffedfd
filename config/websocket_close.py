"""Close WebSockets with 1012 ("service restart") when daphne shuts down.

htmx's ws extension reconnects after 1006, 1011, 1012 or 1013 only, so a stopping server
should say 1012. Two things stand in the way under daphne 4.2: it hands an ASGI close
code to autobahn's `sendClose`, which accepts only 1000 and 3000-4999 (django/daphne#374),
and its own shutdown hook, which would cancel the application instances, fails with a
KeyError once a WebSocket has been upgraded from HTTP. So 1012 and 1013 are sent with
the lower-level `sendCloseFrame` (as daphne itself sends 1011), and the closing is done
by a Twisted "before shutdown" trigger of our own.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

RESTART_CODES = {1012, 1013}


def allow_restart_codes() -> None:
    """Let `websocket.close` carry 1012 or 1013 (a no-op without daphne)."""
    try:
        from daphne.ws_protocol import WebSocketProtocol
    except ImportError:
        return
    original = WebSocketProtocol.serverClose
    if getattr(original, "allows_restart_codes", False):
        return

    def server_close(self, code=None):
        if code in RESTART_CODES:
            self.sendCloseFrame(code=code)
        else:
            original(self, code)

    server_close.allows_restart_codes = True
    WebSocketProtocol.serverClose = server_close


def on_daphne_shutdown(close: Callable[[], Awaitable[None]]) -> None:
    """Run `close()` when daphne's reactor begins to shut down, before sockets drop.

    Only under daphne (its asyncio reactor is installed before it loads the application);
    elsewhere, such as tests through the ASGI app, nothing is registered.
    """
    if "daphne.server" not in sys.modules or "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import defer, reactor

    def trigger():
        return defer.Deferred.fromFuture(asyncio.ensure_future(close()))

    reactor.addSystemEventTrigger("before", "shutdown", trigger)

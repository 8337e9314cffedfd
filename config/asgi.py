"""The ASGI entry point: HTTP through Django, WebSockets through Channels."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Build the Django app (and so load every app) before importing consumers.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config import gc_pacing  # noqa: E402
from config.seams import (  # noqa: E402
    on_daphne_shutdown,
    on_daphne_start,
    use_websocket_protocol,
)
from games.announce import serve_from_running_loop  # noqa: E402
from games.autoplay import ensure_started  # noqa: E402
from games.consumers import close_for_restart  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from leagues.board.routing import websocket_urlpatterns as board_urlpatterns  # noqa: E402
from leagues.checkin.routing import websocket_urlpatterns as arrivals_urlpatterns  # noqa: E402
from leagues.events.routing import websocket_urlpatterns as event_urlpatterns  # noqa: E402
from leagues.reporting.routing import websocket_urlpatterns as report_urlpatterns  # noqa: E402

use_websocket_protocol(settings.FAIRWAY_WS_SLOW_SECONDS)
on_daphne_shutdown(close_for_restart)
# News made on the server's worker threads is handed to its event loop, known from here.
on_daphne_start(serve_from_running_loop)
# Bots, turn timers and next deals run from start-up, not from the first connection.
on_daphne_start(ensure_started)

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(
                URLRouter(
                    websocket_urlpatterns
                    + board_urlpatterns
                    + event_urlpatterns
                    + arrivals_urlpatterns
                    + report_urlpatterns
                )
            )
        ),
    }
)

# What is loaded by now lives as long as the process: keep it out of the garbage
# collector's full passes, which otherwise walk it all and pause the server for tens of
# milliseconds each. What is made later is collected young, often and briefly.
gc.collect()
gc.freeze()
gc_pacing.start(settings.FAIRWAY_GC_INTERVAL)

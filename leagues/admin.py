"""The leagues' admin: each room registers its own models in its `admin` module.

Superusers see everything. An organiser who is staff but not a superuser sees and
changes only the records of the clubs they organise (`admin_scope`); Django's model
permissions are not needed for that, the club membership decides.
"""

from __future__ import annotations

# Django's admin discovers this module; each room's admin registers its models.
from .accounts import admin as accounts_admin  # noqa: F401
from .board import admin as board_admin  # noqa: F401
from .checkin import admin as checkin_admin  # noqa: F401
from .clubs import admin as clubs_admin  # noqa: F401
from .events import admin as events_admin  # noqa: F401
from .invitations import admin as invitations_admin  # noqa: F401
from .ratings import admin as ratings_admin  # noqa: F401
from .reporting import admin as reporting_admin  # noqa: F401
from .results import admin as results_admin  # noqa: F401
from .seasons import admin as seasons_admin  # noqa: F401
from .seating import admin as seating_admin  # noqa: F401
from .teams import admin as teams_admin  # noqa: F401

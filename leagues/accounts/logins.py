"""Log-in lockouts, counted by django-axes in the database that every process shares.

Failures count against the username the log-in reached and, separately, against the
address it came from; either limit refuses further log-ins, even with the right
password, on the site and the admin, until the cool-off has passed since the last
failure. Axes is wired in config/settings.py; this module tells it which username
and which address a log-in is, and how many failures each may have.
"""

from __future__ import annotations

import ipaddress

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_cool_off, get_lockout_parameters
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def attempted_username(request: HttpRequest, credentials: dict | None) -> str | None:
    """The account a log-in tried, named as the user lookup names it.

    Django's log-in form turns a username to NFKC ("ｖictim" is "victim") before the
    lookup: failures must count against the account the lookup reaches, whatever the
    spelling, or another spelling of a locked name gets the password tried again.
    """
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    raw = credentials.get(field) if credentials else request.POST.get(field)
    if not isinstance(raw, str) or not raw.strip():
        return None
    username = user_model.normalize_username(raw.strip())
    try:
        user = user_model._default_manager.get_by_natural_key(username)
    except user_model.DoesNotExist:
        # No account: nothing to lock but the text (AccessAttempt keeps 255 characters).
        return username[:255]
    # The stored name, so a lookup that ignores case counts "VICTIM" as "victim" too.
    return user.get_username()


def client_address(request: HttpRequest) -> str | None:
    """The address a request came from.

    Behind the reverse proxy (settings.BEHIND_PROXY) it is the last address of
    X-Forwarded-For, the one the proxy itself wrote: the addresses before it are
    whatever the client sent. Without the proxy the header is the client's own text and
    only the connection's address counts.
    """
    if settings.BEHIND_PROXY:
        hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if hops[-1]:
            try:
                return str(ipaddress.ip_address(hops[-1]))
            except ValueError:
                pass  # not the proxy's writing: fall back to the connection
    return request.META.get("REMOTE_ADDR") or None


def failure_limits() -> dict[str, int]:
    """Failures allowed within the cool-off, per lockout parameter of axes."""
    return {
        "username": settings.LOGIN_FAILURES_PER_USERNAME,
        "ip_address": settings.LOGIN_FAILURES_PER_ADDRESS,
    }


class LoginLimitsHandler(AxesDatabaseHandler):
    """Axes' database handler with a limit of its own for the username and the address.

    Axes compares one count with one limit (AXES_FAILURE_LIMIT) for every lockout
    parameter. This handler's count is how many parameters have reached their own limit
    (`failure_limits`), so with AXES_FAILURE_LIMIT = 1 a log-in is refused once the
    username or the address has.
    """

    def get_failures(self, request, credentials: dict | None = None) -> int:
        limits = failure_limits()
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        reached = 0
        for parameter, recent in zip(parameters, attempts, strict=True):
            failures = recent.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if failures >= limits[parameter]:
                reached += 1
        return reached


def lockout_message() -> str:
    minutes = round(get_cool_off().total_seconds() / 60)
    return f"Too many failed log-in attempts. Try again in {minutes} minutes."


def lockout_response(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    """The page a refused log-in gets, on the site and the admin alike (HTTP 429)."""
    return render(
        request, "registration/locked_out.html", {"message": lockout_message()}, status=429
    )

"""The page a "your turn" mail's unsubscribe link opens (no log-in)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ..accounts.models import TurnMail
from ..attendance.links import BadLink
from . import links, services


# A mail client's one-click unsubscribe (RFC 8058) posts with no CSRF token; the signed
# link is the proof, and it can only turn its one member's turn mail off (or back on).
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, player_id: int, token: str) -> HttpResponse:
    """A GET shows the member's choice and a button; a POST (the button, or the mail
    client's one-click request) records it."""
    try:
        player = links.read_token(player_id, token)
    except BadLink as error:
        return render(request, "leagues/turn_mail_off.html", {"error": str(error)}, status=400)
    saved = request.method == "POST"
    if saved:
        wants = request.POST.get("choice") == "subscribe"
        services.set_turn_mail(player=player, choice=TurnMail.AT_ONCE if wants else TurnMail.NEVER)
    return render(
        request,
        "leagues/turn_mail_off.html",
        {"member": player, "wants": player.turn_mail != TurnMail.NEVER, "saved": saved},
    )

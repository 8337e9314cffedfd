"""A paper table's results entered by an organiser: the one page for it, whichever room
the table belongs to (a league night's table, an event round's table).

The room's view finds its table, checks who may enter, and hands over what differs:
the players' names as the card shows them, what to save the holes with, where to go
once the table is finished, and its own template. Nothing is saved on error.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.models import Table
from games.scorecards import PaperScoreError

from .forms import PaperResultsForm


def enter_paper_results(
    request: HttpRequest,
    *,
    table: Table,
    number: int,
    names: Sequence[str],
    save: Callable[[list[list[object]]], None],
    saved_to: Any,
    finished: Callable[[], HttpResponse],
    template: str,
    context: Mapping[str, Any],
    initial: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """The results page of paper table `number`: its grid of holes (`initial` filled
    in), and on a valid POST the holes handed to `save`, then a redirect to `saved_to`.
    A live table has no such page (404); a finished one answers `finished()`."""
    if table.kind != Table.Kind.PAPER:
        raise Http404("This table is played live.")
    if table.status == Table.Status.FINISHED:
        return finished()
    form = PaperResultsForm(request.POST or None, table=table, names=list(names), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            save(form.hole_scores)
        except (PaperScoreError, ValueError) as error:
            form.add_error(None, str(error))
        except ValidationError as error:
            form.add_error(None, error.messages)
        else:
            messages.success(request, f"Results saved for table {number}.")
            return redirect(saved_to)
    return render(
        request,
        template,
        {**context, "form": form, "names": names},
        status=400 if form.is_bound and form.errors else 200,
    )

"""A task for the queue's own tests: it marks each try in a file, and its first try
holds on (until its worker is killed), so that a test can kill a worker mid-task."""

from __future__ import annotations

import time
from pathlib import Path

from django_tasks import task


@task()
def held_on_first_try(path: str) -> int:
    """Mark this try in `path`; hold on for a minute if it is the first. Returns the try."""
    marks = Path(path)
    tries = marks.read_text().count("try\n") + 1 if marks.exists() else 1
    with marks.open("a") as out:
        out.write("try\n")
    if tries == 1:
        time.sleep(60)
    return tries

"""Writes at the same moment, in real threads: what the race tests of every room share."""

from __future__ import annotations

import threading

from django.db import connection


def at_once(*calls) -> list[object]:
    """Run `calls` in threads started together, each on its own database connection;
    each one's result or exception."""
    start = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int, call) -> None:
        try:
            start.wait()
            results[index] = call()
        except BaseException as error:  # returned, not lost in the thread
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results

"""The server collects young objects on a clock, so no collection grows long."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A process that replaces what it holds, as the server replaces a table's version:
# about as many objects are freed as are made, and the freed ones are old (they
# outlived a collection), so Python's own count of young objects never trips. It
# prints the most young objects seen waiting for a collection, and the most young
# collections the middle generation was seen waiting for.
REPLACING = """
import gc, sys, time
from config import gc_pacing
if sys.argv[1] == "paced":
    gc_pacing.start(0.01)
held, largest, behind = {}, 0, 0
for step in range(30000):
    held[step % 3000] = [[i] for i in range(5)]
    if step % 100 == 0:
        largest = max(largest, len(gc.get_objects(0)))
        behind = max(behind, gc.get_count()[1])
        time.sleep(0.005)
print(largest, behind)
"""


def most_waiting(mode: str) -> tuple[int, int]:
    """The most objects seen waiting in the young generation, and the most young
    collections seen waiting for a middle one."""
    result = subprocess.run(
        [sys.executable, "-c", REPLACING, mode],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    young, behind = map(int, result.stdout.split())
    return young, behind


def test_young_objects_are_collected_before_they_pile_up():
    # Unpaced, every object made waits in the young generation: a long pause to come.
    unpaced = most_waiting("unpaced")[0]
    assert unpaced >= 15000
    # Paced (every 10 ms, a batch of 600 objects every 5 ms), a few batches wait: on a
    # quiet machine about 3,000; on a busy one the pacing thread runs late, so the bound
    # is a share of the unpaced pile rather than a count.
    assert most_waiting("paced")[0] <= unpaced // 3


def test_the_middle_generation_is_collected_in_its_turn_too():
    # A young collection asked for counts towards the middle generation's turn, but,
    # unlike one Python starts, never starts a middle one: paced alone, the middle
    # generation waited for hundreds of young collections and held every survivor
    # (under load, a pause of 20 ms once it ran).
    threshold = gc.get_threshold()[1]
    assert most_waiting("paced")[1] <= threshold + 1


# A server's long-lived objects (its connections), then what a few seconds of work
# leave: it prints the objects a full collection would walk, and those frozen.
LONG_LIVED = """
import gc, time
from config import gc_pacing
gc_pacing.start(0.01)
kept = [[i] for i in range(50000)]
time.sleep(0.3)
print(len(gc.get_objects()), gc.get_freeze_count())
"""


def test_what_outlives_a_young_collection_is_frozen_out_of_the_full_ones():
    result = subprocess.run(
        [sys.executable, "-c", LONG_LIVED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    walked, frozen = map(int, result.stdout.split())
    # Without the freeze, a full collection walks all 50,000 (and the interpreter's own).
    assert frozen >= 50000
    assert walked < 5000


# Garbage in cycles that lived long enough to be frozen: a closed connection's. Each
# cycle counts itself once freed; it prints how many of them were freed.
CYCLES = """
import gc, sys, time, weakref
from config import gc_pacing
gc_pacing.COUNT_EVERY = 0.02
gc_pacing.SWEEP_SPACING = float(sys.argv[2])
gc_pacing.SWEEP_AT_LEAST = int(sys.argv[1])
gc_pacing.start(0.01)
freed = [0]
def count():
    freed[0] += 1
class Node:
    pass
def unfrozen():
    return any(type(o) is Node for generation in range(3) for o in gc.get_objects(generation))
for batch in range(40):
    cycles = []
    for _ in range(500):
        node = Node()
        node.self = node
        weakref.finalize(node, count)
        cycles.append(node)
    # Wait until the pacing thread has frozen the whole batch (on a busy machine it may
    # be late): only then is it garbage that no collection reaches.
    deadline = time.monotonic() + 10
    while unfrozen() and time.monotonic() < deadline:
        time.sleep(0.01)
    del cycles, node
gc.collect()  # never reaches what is frozen
time.sleep(0.1)
print(freed[0])
"""


def freed_cycles(sweep_at_least: int, spacing: float = 0.0) -> int:
    result = subprocess.run(
        [sys.executable, "-c", CYCLES, str(sweep_at_least), str(spacing)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(result.stdout)


def test_frozen_garbage_in_cycles_is_swept_once_the_frozen_objects_double():
    # Never swept (the frozen objects never grow by a billion): none is freed.
    assert freed_cycles(10**9) == 0
    # Swept as the frozen objects grow: most of the 20,000 cycles were freed.
    assert freed_cycles(5000) >= 10000


def test_sweeps_are_spaced_out():
    # The same growth, but the script ends long before a sweep may come.
    assert freed_cycles(5000, spacing=60.0) == 0

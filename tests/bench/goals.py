"""The live path's goals, one line each, from the load benchmark's recorded figures.

    python tests/bench/bench_load.py ... --record var/bench-load.jsonl
    python tests/bench/goals.py var/bench-load.jsonl

Each line gives the figure, its goal and whether it holds; a figure the runs did not
measure is said to be missing. It prints; it fails nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

#: p99 of 100 tables on one process against the bare fan-out's, at most.
P99_RATIO = 3.0
#: A move's server CPU at 100 tables on one process against the fan-out's, at most.
CPU_RATIO = 2.5
#: The fewest tables one process (and two) must hold within the latency limit.
TABLES_HELD = 250


def read(path: Path) -> tuple[dict, dict]:
    """The first figures of each (processes, tables, scenario): those measured beside
    the fan-out, before the search steps through the same counts; and the search's."""
    runs, search = {}, {}
    for line in path.read_text().splitlines():
        entry = json.loads(line)
        for row in entry.get("run", []):
            runs.setdefault((row["processes"], row["tables"], row["scenario"]), row)
        search.update(entry.get("search", {}))
    return runs, search


def stolen(*rows: dict) -> str:
    """The most of the machine its host stole during `rows`' runs, when told."""
    steal = max((row.get("steal", 0.0) for row in rows), default=0.0)
    return f" (the host stole up to {steal:.0f}% of the machine)" if steal >= 1 else ""


def line(name: str, figure: str, goal: str, holds: bool | None) -> str:
    verdict = "missing" if holds is None else "holds" if holds else "MISSES"
    return f"goal: {name}: {figure} (goal {goal}): {verdict}"


def goals(runs: dict, search: dict) -> list[str]:
    lines = []
    fan, table = runs.get((1, 100, "fanout")), runs.get((1, 100, "table"))
    if fan and table:
        ratio = table["p99"] / fan["p99"]
        figure = f"p99 {table['p99']:.1f} ms, {ratio:.1f}x the fan-out's {fan['p99']:.1f} ms"
        figure += stolen(fan, table)
        lines.append(
            line("100 tables, 1 process", figure, f"<= {P99_RATIO:g}x", ratio <= P99_RATIO)
        )
        per_move = [r["cpu"] * 10 / r["rate"] for r in (table, fan)]  # ms of CPU a move
        ratio = per_move[0] / per_move[1]
        figure = f"{per_move[0]:.2f} ms CPU a move, {ratio:.1f}x the fan-out's {per_move[1]:.2f}"
        figure += stolen(fan, table)
        lines.append(
            line("CPU at 100 tables, 1 process", figure, f"<= {CPU_RATIO:g}x", ratio <= CPU_RATIO)
        )
    else:
        lines.append(line("100 tables, 1 process", "not measured", f"<= {P99_RATIO:g}x", None))
    one, two = search.get("1"), search.get("2")
    for processes, best in (("1", one), ("2", two)):
        goal = f">= {TABLES_HELD}" + (" and >= 1 process's" if processes == "2" else "")
        if best is None:
            lines.append(line(f"most tables, {processes} process(es)", "not measured", goal, None))
            continue
        holds = best >= TABLES_HELD and (processes == "1" or one is None or best >= one)
        figure = f"{best} tables within p99 <= 100 ms"
        lines.append(line(f"most tables, {processes} process(es)", figure, goal, holds))
    bots = runs.get((1, 100, "bots"))
    if bots:
        figure = f"p99 {bots['p99']:.0f} ms late, {bots['errors']} errors"
        lines.append(
            line(
                "bots' turns at 100 tables, 1 process", figure, "<= 100 ms late", bots["p99"] <= 100
            )
        )
    return lines


def main() -> None:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else "var/bench-load.jsonl")
    if not path.exists():
        print(f"goal: no figures recorded in {path}")
        return
    print("\n".join(goals(*read(path))))


if __name__ == "__main__":
    main()

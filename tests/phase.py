"""Run one phase of `make test` and print its wall time, so a slowdown is seen.

    python tests/phase.py NAME [--needs SERVICE ...] [--env KEY=VALUE ...] -- COMMAND ...

A phase whose services are missing is skipped locally and fails under CI (see
tests/services.py). A pytest phase that selects no test fails: it would prove nothing.
Each phase's time is also appended to var/phase-times.txt, which `.ci/run` prints as a
table at the end of a run.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import services  # noqa: E402

TIMES = ROOT / "var" / "phase-times.txt"
#: pytest's exit status when it collected or selected no test.
NO_TESTS = 5


def record(name: str, seconds: float, outcome: str) -> None:
    line = f"{name:<24} {seconds:7.0f} s  {outcome}"
    print(f"== phase {line}", flush=True)
    TIMES.parent.mkdir(exist_ok=True)
    with TIMES.open("a") as times:
        times.write(line + "\n")


def main(argv: list[str]) -> int:
    if "--" not in argv:
        print(__doc__, file=sys.stderr)
        return 2
    split = argv.index("--")
    parser = argparse.ArgumentParser(prog="phase.py")
    parser.add_argument("name")
    parser.add_argument("--needs", nargs="*", default=[])
    parser.add_argument("--env", nargs="*", default=[])
    options = parser.parse_args(argv[:split])
    command = argv[split + 1 :]

    status = services.main(options.needs)
    if status != 0:
        record(options.name, 0, "failed: a service is missing" if status == 2 else "skipped")
        return 0 if status == 1 else status

    env = {**os.environ, **dict(pair.split("=", 1) for pair in options.env)}
    start = time.monotonic()
    code = subprocess.call(command, cwd=ROOT, env=env)
    seconds = time.monotonic() - start
    if code == NO_TESTS and "pytest" in command:
        print(f"{options.name}: pytest selected no test", file=sys.stderr)
        record(options.name, seconds, "failed: no test selected")
        return 1
    record(options.name, seconds, "passed" if code == 0 else f"failed (exit {code})")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

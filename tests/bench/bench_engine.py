"""Benchmark of the rules engine: speed against a naive engine, and bot strength.

    python tests/bench/bench_engine.py          # the full run
    python tests/bench/bench_engine.py --quick  # a short run
    python tests/bench/bench_engine.py --speed  # the speed figures only
    python tests/bench/bench_engine.py --timing # speed and decision times, no strength

Prints, in one run: holes per second of 4-player Play Nine between random bots with
the real engine and with the naive reference engine of the tests (the same rules, a
mutable state whose every list is copied before each action), measured in turns on
the same holes, and the median of their ratios; score_layout calls per second; the
expert's and the master's median and 95th percentile decision time; the strength of
expert and greedy against weaker seats; and, in every game, one master's strokes less
three experts' mean at the same table. Speeds are in seconds of this process's CPU time, so
that other work on the machine sways them less.
Each figure is followed by PASS or FAIL against its aim.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import engine  # noqa: E402
from games.engine import VARIANTS, apply_action, new_hole, score_layout  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.hole import OVER, TEE_OFF  # noqa: E402
from games.engine.simulate import mean_ci95, simulate  # noqa: E402
from tests.engine import reference  # noqa: E402

SPEEDUP_AIM = 3.0
SCORE_LAYOUT_AIM = 200_000
EXPERT_MEDIAN_AIM_MS = 20.0
MASTER_P95_AIM_MS = 250.0
MASTER_LEAD_AIM = -0.5  # Play Nine: the master's edge over a table of experts


def random_holes_per_second(holes: int, rules=engine, seed: int = 1) -> float:
    """4-player Play Nine holes per second between random bots, through the public
    `new_hole`, `legal_actions` and `apply_action` of `rules` (an engine module)."""
    deal, legal, apply = rules.new_hole, rules.legal_actions, rules.apply_action
    rng = random.Random(seed)
    started = time.process_time()
    for hole in range(holes):
        state = deal("play-nine", 4, seed=rng.getrandbits(63), dealer=hole % 4)
        while state.phase != OVER:
            seat = state.teed_off.index(False) if state.phase == TEE_OFF else state.turn
            state = apply(state, seat, rng.choice(legal(state, seat)))
    return holes / (time.process_time() - started)


def engine_against_naive(holes: int, rounds: int) -> tuple[float, float, float]:
    """Median holes/s of the engine and of the naive engine, and the median ratio of
    rounds that each time the same holes through both, one after the other."""
    real, naive, ratios = [], [], []
    for round_ in range(rounds):
        real.append(random_holes_per_second(holes, engine, seed=round_))
        naive.append(random_holes_per_second(holes, reference, seed=round_))
        ratios.append(real[-1] / naive[-1])
    return statistics.median(real), statistics.median(naive), statistics.median(ratios)


def score_layout_per_second(calls: int, seed: int = 1) -> float:
    """score_layout calls per second on random Play Nine layouts."""
    rng = random.Random(seed)
    deck = [-5] * 4 + [value for value in range(13) for _ in range(8)]
    layouts = [rng.sample(deck, 8) for _ in range(1000)]
    started = time.process_time()
    for index in range(calls):
        score_layout("play-nine", layouts[index % 1000])
    return calls / (time.process_time() - started)


def decision_times(
    level: str, holes: int, seed: int = 1, variant: str = "play-nine"
) -> list[float]:
    """Milliseconds per decision of `level`, seat 0 of a 4-player game against greedy."""
    rng = random.Random(seed)
    times = []
    levels = [level, "greedy", "greedy", "greedy"]
    for hole in range(holes):
        state = new_hole(variant, 4, seed=rng.getrandbits(63), dealer=hole % 4)
        while state.phase != OVER:
            seat = state.teed_off.index(False) if state.phase == TEE_OFF else state.turn
            started = time.process_time()
            action = choose_action(state, seat, levels[seat], rng)
            if seat == 0:
                times.append(1000 * (time.process_time() - started))
            state = apply_action(state, seat, action)
    return times


def strength(bots: str, holes: int) -> tuple[float, float, float, float, bool]:
    """Seat 0's mean and 95% half-width, the other seats' pooled ones, and PASS."""
    result = simulate("play-nine", 4, holes, bots, seed=1)
    first, first_ci = mean_ci95([row[0] for row in result.scores])
    rest, rest_ci = mean_ci95([score for row in result.scores for score in row[1:]])
    return first, first_ci, rest, rest_ci, first + first_ci < rest - rest_ci


def verdict(passed: bool) -> str:
    """The word printed against an aim."""
    return "PASS" if passed else "FAIL"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run")
    parser.add_argument("--speed", action="store_true", help="the speed figures only")
    parser.add_argument(
        "--timing",
        action="store_true",
        help="the speed figures and the bots' decision times, without the strength matches",
    )
    args = parser.parse_args()
    speed_holes = 300 if args.quick else 2100
    strength_holes = 200 if args.quick else 2000

    rounds = 3 if args.quick else 7
    real, naive, ratio = engine_against_naive(speed_holes // rounds, rounds)
    print(f"4-player Play Nine, random bots, median of {rounds} rounds")
    print(f"  engine            {real:10.1f} holes/s")
    print(f"  naive engine      {naive:10.1f} holes/s")
    passed = ratio >= SPEEDUP_AIM
    print(f"  ratio             {ratio:10.2f} x   (aim >= {SPEEDUP_AIM:.0f}x) {verdict(passed)}")

    calls = score_layout_per_second(50_000 if args.quick else 300_000)
    print(
        f"score_layout        {calls:10.0f} calls/s (aim > {SCORE_LAYOUT_AIM:,}) "
        f"{verdict(calls > SCORE_LAYOUT_AIM)}"
    )

    if args.speed:
        return 0

    timed = [("expert", "play-nine", 20 if args.quick else 100)]
    timed += [("master", variant, 5 if args.quick else 30) for variant in sorted(VARIANTS)]
    for level, variant, holes in timed:
        times = sorted(decision_times(level, holes, variant=variant))
        median = statistics.median(times)
        p95 = times[int(0.95 * (len(times) - 1))]
        if level == "expert":
            aim, passed = f"median < {EXPERT_MEDIAN_AIM_MS:.0f} ms", median < EXPERT_MEDIAN_AIM_MS
        else:
            aim, passed = f"p95 <= {MASTER_P95_AIM_MS:.0f} ms", p95 <= MASTER_P95_AIM_MS
        print(
            f"{level} decision, {variant}: median {median:.2f} ms, p95 {p95:.2f} ms over "
            f"{len(times)} decisions (aim {aim}) {verdict(passed)}"
        )

    if args.timing:
        return 0

    for bots, strong, weak in (
        ("expert,greedy,greedy,greedy", "expert", "greedy"),
        ("greedy,random,random,random", "greedy", "random"),
    ):
        first, first_ci, rest, rest_ci, passed = strength(bots, strength_holes)
        print(
            f"strength {strong} vs {weak}, {strength_holes} holes: {strong} {first:.2f} "
            f"± {first_ci:.2f}, {weak} seats {rest:.2f} ± {rest_ci:.2f} strokes/hole "
            f"(aim: separate 95% intervals) {verdict(passed)}"
        )

    for variant in sorted(VARIANTS):
        # Play Nine's aim is over 2000 holes; the other games' (slower) over a quarter.
        holes = strength_holes if variant == "play-nine" else strength_holes // 4
        result = simulate(variant, 4, holes, "master,expert,expert,expert", seed=1)
        lead, half = result.first_less_rest
        if variant == "play-nine":
            aim, passed = f"<= {MASTER_LEAD_AIM} at 95%", lead + half <= MASTER_LEAD_AIM
        else:
            aim, passed = "level or better", lead - half <= 0
        print(
            f"master vs experts, {variant}, {holes} holes: master less the experts' "
            f"mean {lead:+.2f} ± {half:.2f} strokes/hole (aim {aim}) {verdict(passed)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

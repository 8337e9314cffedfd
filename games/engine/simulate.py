"""Play many holes between bots and report how each seat scored.

    python -m games.engine.simulate --variant play-nine --players 4 --holes 2000 \\
        --bots expert,greedy,greedy,greedy --seed 1

Prints a table (per seat: bot, mean strokes per hole with a 95% interval, holes
won), seat 0's strokes less the other seats' mean on the same holes (with its 95%
interval: how a bot fares against a table of others), the speed, and as its last
line one JSON object with the same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from .bots import BOT_LEVELS, choose_action
from .deal import new_hole
from .hole import OVER, TEE_OFF, HoleState, apply_action
from .variants import get_variant

MAX_ACTIONS = 20_000  # a hole this long means a bot cannot finish it: stop, loudly


@dataclass(frozen=True)
class SimResult:
    """The outcome of a simulation: per seat means, 95% half-widths and wins."""

    variant: str
    players: int
    holes: int
    bots: tuple[str, ...]
    seconds: float
    mean_scores: tuple[float, ...]
    ci95: tuple[float, ...]
    wins: tuple[float, ...]
    #: Every hole's scores, one tuple per hole.
    scores: tuple[tuple[int, ...], ...]

    @property
    def first_less_rest(self) -> tuple[float, float]:
        """Seat 0's strokes less the other seats' mean, hole by hole: mean and half-width."""
        rest = self.players - 1
        return mean_ci95([row[0] - sum(row[1:]) / rest for row in self.scores])

    @property
    def holes_per_second(self) -> float:
        """How many holes the simulation played per second."""
        return self.holes / self.seconds if self.seconds > 0 else math.inf

    def as_dict(self) -> dict:
        """The summary as JSON-ready data (without the per-hole scores)."""
        return {
            "variant": self.variant,
            "players": self.players,
            "holes": self.holes,
            "bots": list(self.bots),
            "seconds": round(self.seconds, 3),
            "holes_per_second": round(self.holes_per_second, 1),
            "mean_scores": [round(mean, 3) for mean in self.mean_scores],
            "ci95": [round(half, 3) for half in self.ci95],
            "wins": list(self.wins),
            "first_less_rest": [round(figure, 3) for figure in self.first_less_rest],
        }


def mean_ci95(values: Sequence[float]) -> tuple[float, float]:
    """The mean of `values` and the half-width of its normal 95% interval."""
    count = len(values)
    if count == 0:
        return math.nan, math.nan
    mean = sum(values) / count
    if count == 1:
        return mean, math.inf
    variance = sum((value - mean) ** 2 for value in values) / (count - 1)
    return mean, 1.96 * math.sqrt(variance / count)


def play_hole(
    variant: str, players: int, bots: Sequence[str], rng: random.Random, dealer: int = 0
) -> HoleState:
    """Deal one hole from `rng` and let the bots play it to the end."""
    state = new_hole(variant, players, seed=rng.getrandbits(63), dealer=dealer)
    for _ in range(MAX_ACTIONS):
        if state.phase == OVER:
            return state
        seat = seat_to_ask(state, dealer)
        state = apply_action(state, seat, choose_action(state, seat, bots[seat], rng))
    raise RuntimeError(f"A hole of {variant} did not end within {MAX_ACTIONS} actions.")


def seat_to_ask(state: HoleState, dealer: int) -> int:
    """The seat a bot decides for next: at the tee off, the first from the dealer's left
    not yet teed off (each bot is asked once); then the seat whose turn it is."""
    if state.phase != TEE_OFF:
        return state.turn
    players = len(state.teed_off)
    return next(
        (dealer + offset) % players
        for offset in range(1, players + 1)
        if not state.teed_off[(dealer + offset) % players]
    )


def simulate(
    variant: str,
    players: int,
    holes: int,
    bots: str | Sequence[str],
    seed: int | None = None,
    *,
    progress: bool = False,
) -> SimResult:
    """Play `holes` holes with the dealer moving left; `bots` is one level or one per seat."""
    get_variant(variant)
    seats = _seat_bots(bots, players)
    rng = random.Random(seed)
    scores: list[tuple[int, ...]] = []
    wins = [0.0] * players
    started = time.perf_counter()
    for hole in range(holes):
        state = play_hole(variant, players, seats, rng, dealer=hole % players)
        result = tuple(state.scores)
        scores.append(result)
        best = min(result)
        winners = [seat for seat, strokes in enumerate(result) if strokes == best]
        for seat in winners:
            wins[seat] += 1 / len(winners)  # a shared win is shared
        if progress:
            _progress(hole + 1, holes, started)
    seconds = time.perf_counter() - started
    if progress:
        sys.stderr.write("\n")
    summaries = [mean_ci95([row[seat] for row in scores]) for seat in range(players)]
    means = [mean for mean, _ in summaries]
    halves = [half for _, half in summaries]
    return SimResult(
        variant=variant,
        players=players,
        holes=holes,
        bots=tuple(seats),
        seconds=seconds,
        mean_scores=tuple(means),
        ci95=tuple(halves),
        wins=tuple(round(won, 2) for won in wins),
        scores=tuple(scores),
    )


def _seat_bots(bots: str | Sequence[str], players: int) -> list[str]:
    names = bots.split(",") if isinstance(bots, str) else list(bots)
    names = [name.strip() for name in names]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise ValueError(f"Give one bot for every seat, or one for all; got {len(names)}.")
    unknown = [name for name in names if name not in BOT_LEVELS]
    if unknown:
        raise ValueError(f"Unknown bot {unknown[0]!r}; choose from {', '.join(BOT_LEVELS)}.")
    return names


def _progress(done: int, total: int, started: float) -> None:
    width = 30
    filled = width * done // total
    rate = done / max(time.perf_counter() - started, 1e-9)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {rate:.0f}/s")
    sys.stderr.flush()


def format_table(result: SimResult) -> str:
    """The readable table of a simulation."""
    game = get_variant(result.variant).full_name
    lines = [
        f"{result.holes} holes of {game}, {result.players} players",
        f"{'seat':>4}  {'bot':<7}  {'strokes/hole':>12}  {'95% CI':>8}  {'wins':>7}",
    ]
    for seat in range(result.players):
        lines.append(
            f"{seat:>4}  {result.bots[seat]:<7}  {result.mean_scores[seat]:>12.2f}"
            f"  {'±':>2}{result.ci95[seat]:>6.2f}  {result.wins[seat]:>7.1f}"
        )
    difference, half = result.first_less_rest
    lines.append(f"seat 0 less the others' mean: {difference:+.2f} ± {half:.2f} strokes/hole")
    lines.append(f"{result.holes_per_second:.1f} holes per second ({result.seconds:.2f} s)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: simulate, print the table and the JSON summary."""
    parser = argparse.ArgumentParser(prog="python -m games.engine.simulate", description=__doc__)
    parser.add_argument("--variant", default="play-nine")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--holes", type=int, default=1000)
    parser.add_argument("--bots", default="random", help="one level for all, or one per seat")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        result = simulate(
            args.variant,
            args.players,
            args.holes,
            args.bots,
            args.seed,
            progress=sys.stderr.isatty(),
        )
    except ValueError as error:
        parser.error(str(error))
    print(format_table(result))
    print(json.dumps(result.as_dict()))
    return 0


if __name__ == "__main__":
    sys.exit(main())

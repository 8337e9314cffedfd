"""Learn the master bot's weights for one game from holes played out.

    python -m games.engine.train --variant play-nine --holes 1300 --seed 777

Experts play 4-player holes. At about a third of the decisions where a seat holds a
drawn card, the expert's use of it and one other of greedy's best eight are each
played out to the end of the hole by experts, on the same cards and the same dice.
The difference between the two outcomes (what the seat scored less the others' mean)
is fitted by least squares on the difference between the two uses' `Judge.features`:
what a feature is worth is learned from what the same choice came to either way,
never from what the expert happened to prefer. Prints the weights as they go in the
game's `Variant` in `variants.py`.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool

from .bots import GREEDY, MASTER_FEATURES, Judge, _options, choose_action
from .deal import new_hole
from .evaluate import play_out
from .hole import OVER, PLAY, apply_action, view
from .scene import Estimator, Scene
from .simulate import seat_to_ask

PLAYERS = 4
SAMPLED = 0.3  # the share of holding decisions played out both ways
RIVALS = 8  # the alternative is one of greedy's best this many


def _relative(scores: Sequence[int], seat: int) -> float:
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - sum(others) / len(others)


def samples(variant: str, seed: int) -> list[tuple[list[float], float]]:
    """One hole's samples: the difference in features and in outcome of two uses."""
    rng = random.Random(seed)
    dealer = seed % PLAYERS
    state = new_hole(variant, PLAYERS, seed=seed, dealer=dealer)
    found = []
    while state.phase != OVER:
        seat = seat_to_ask(state, dealer)
        action = choose_action(state, seat, "expert", rng)
        if state.phase == PLAY and state.holding == seat and rng.random() < SAMPLED:
            scene = Scene.from_view(view(state, seat))
            estimator = Estimator.of(scene)
            now = estimator.estimate(scene.layouts[seat])
            ranked = _options(scene, estimator, now, scene.held, scene.held_from, GREEDY)
            rivals = [use for _, _, use, _ in ranked[:RIVALS] if use != action]
            if rivals:
                rival = rng.choice(rivals)
                dice = rng.getrandbits(30)
                ours = play_out(apply_action(state, seat, action), random.Random(dice), "expert")
                theirs = play_out(apply_action(state, seat, rival), random.Random(dice), "expert")
                judge = Judge(scene, (0.0,) * len(MASTER_FEATURES))
                mine, other = judge.features(scene.held, action), judge.features(scene.held, rival)
                found.append(
                    (
                        [a - b for a, b in zip(mine, other, strict=True)],
                        _relative(ours.scores, seat) - _relative(theirs.scores, seat),
                    )
                )
        state = apply_action(state, seat, action)
    return found


def least_squares(rows: Sequence[Sequence[float]], targets: Sequence[float]) -> list[float]:
    """The weights minimising the squared error, by the normal equations."""
    size = len(rows[0])
    matrix = [[sum(row[i] * row[j] for row in rows) for j in range(size)] for i in range(size)]
    vector = [
        sum(row[i] * target for row, target in zip(rows, targets, strict=True)) for i in range(size)
    ]
    for i in range(size):
        matrix[i][i] += 1e-6  # a feature that never varies gets weight 0, not an error
    for column in range(size):
        pivot = max(range(column, size), key=lambda row: abs(matrix[row][column]))
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        vector[column], vector[pivot] = vector[pivot], vector[column]
        for row in range(size):
            if row != column:
                factor = matrix[row][column] / matrix[column][column]
                matrix[row] = [
                    a - factor * b for a, b in zip(matrix[row], matrix[column], strict=True)
                ]
                vector[row] -= factor * vector[column]
    return [vector[i] / matrix[i][i] for i in range(size)]


def _hole(job: tuple[str, int]) -> list[tuple[list[float], float]]:
    return samples(*job)


def train(variant: str, holes: int, seed: int, processes: int = 2) -> tuple[list[float], int]:
    """The fitted weights for `variant` and how many samples they rest on."""
    rng = random.Random(seed)
    jobs = [(variant, rng.getrandbits(40)) for _ in range(holes)]
    with Pool(processes) as pool:
        found = [row for hole in pool.map(_hole, jobs, chunksize=4) for row in hole]
    return least_squares([row for row, _ in found], [target for _, target in found]), len(found)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: train and print the weights."""
    parser = argparse.ArgumentParser(prog="python -m games.engine.train", description=__doc__)
    parser.add_argument("--variant", default="play-nine")
    parser.add_argument("--holes", type=int, default=1300)
    parser.add_argument("--seed", type=int, default=777)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    weights, count = train(args.variant, args.holes, args.seed, args.processes)
    print(f"# {args.variant}: {count} samples from {args.holes} holes, seed {args.seed}")
    print("            master_weights=(")
    for weight in weights:
        print(f"                {weight:.3f},")
    print("            ),")
    return 0


if __name__ == "__main__":
    sys.exit(main())

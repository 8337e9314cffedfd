"""The simulator: its function and its command line."""

from __future__ import annotations

import json

import pytest

from games.engine.simulate import main, simulate


def test_simulate_reports_per_seat_means_intervals_and_wins():
    """One result per seat; every hole has one winner share in total."""
    result = simulate("golf-6", 3, 20, "greedy,random,expert", seed=1)
    assert result.bots == ("greedy", "random", "expert")
    assert len(result.mean_scores) == len(result.ci95) == len(result.wins) == 3
    assert sum(result.wins) == pytest.approx(20)
    assert len(result.scores) == 20
    assert result.holes_per_second > 0


def test_the_same_seed_plays_the_same_holes():
    """Simulations are reproducible."""
    first = simulate("play-nine", 2, 5, "greedy", seed=4)
    second = simulate("play-nine", 2, 5, "greedy", seed=4)
    assert first.scores == second.scores


def test_command_line_prints_a_table_then_one_json_line(capsys):
    """The last stdout line is one JSON object with the figures."""
    assert (
        main(
            [
                "--variant",
                "golf-4",
                "--players",
                "3",
                "--holes",
                "10",
                "--bots",
                "random",
                "--seed",
                "1",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    summary = json.loads(lines[-1])
    for key in (
        "variant",
        "players",
        "holes",
        "seconds",
        "holes_per_second",
        "mean_scores",
        "wins",
        "ci95",
    ):
        assert key in summary
    assert summary["variant"] == "golf-4" and summary["holes"] == 10
    assert "strokes/hole" in "\n".join(lines[:-1])


def test_a_bot_list_must_fit_the_table():
    """One bot for all seats, or exactly one per seat."""
    with pytest.raises(ValueError):
        simulate("play-nine", 3, 1, "greedy,random", seed=1)
    with pytest.raises(ValueError):
        simulate("play-nine", 2, 1, "wizard", seed=1)

"""The load benchmark's goal lines: each figure against its goal, read from its record."""

from __future__ import annotations

import json

from tests.bench import goals


def test_goal_lines_say_which_figures_hold_and_which_miss(tmp_path):
    record = tmp_path / "load.jsonl"
    rows = [
        {
            "scenario": "fanout",
            "tables": 100,
            "processes": 1,
            "rate": 100.0,
            "p99": 4.0,
            "cpu": 16.0,
            "errors": 0,
        },
        {
            "scenario": "table",
            "tables": 100,
            "processes": 1,
            "rate": 100.0,
            "p99": 14.0,
            "cpu": 36.0,
            "errors": 0,
            "steal": 12.4,
        },
    ]
    record.write_text(
        json.dumps({"run": rows}) + "\n" + json.dumps({"search": {"1": 300, "2": 250}}) + "\n"
    )
    lines = goals.goals(*goals.read(record))
    assert lines[0].startswith("goal: 100 tables, 1 process: p99 14.0 ms, 3.5x")
    assert lines[0].endswith("MISSES")
    # A host that took much of the machine meanwhile is told beside the figures it bent.
    assert "(the host stole up to 12% of the machine)" in lines[0] and "stole" in lines[1]
    assert "3.60 ms CPU a move, 2.2x the fan-out's 1.60" in lines[1] and lines[1].endswith("holds")
    assert lines[2].endswith("holds")
    # Two processes must hold at least as many tables as one.
    assert "250 tables" in lines[3] and lines[3].endswith("MISSES")


def test_a_figure_not_measured_is_said_to_be_missing(tmp_path):
    record = tmp_path / "load.jsonl"
    record.write_text(json.dumps({"search": {"1": 250}}) + "\n")
    lines = goals.goals(*goals.read(record))
    assert lines[0].endswith("missing") and lines[-1].endswith("missing")

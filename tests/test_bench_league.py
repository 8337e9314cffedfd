"""The league-history benchmark, built tiny: every figure it names is timed at both
points, and its lines judge each against its goal."""

from __future__ import annotations

import pytest

from games.models import Table
from leagues.models import NightTable, ScoreCorrection, Season
from tests.bench import bench_league


@pytest.mark.django_db
def test_a_tiny_league_is_built_and_every_figure_timed_at_both_points():
    size = bench_league.Size(seasons=1, nights=2, tables=2)
    outcome = bench_league.run(size, say=lambda text: None, repeats=1)

    named = {*bench_league.WRITES, *bench_league.PAGES}
    for point in (outcome.early, outcome.late):
        assert set(point.times) == named
        assert all(ms > 0 for ms in point.times.values())
    assert outcome.build_seconds > 0

    # The timed writes were rolled back: every table entered once, the night's one
    # correction each, the season open.
    assert not NightTable.objects.exclude(table__status=Table.Status.FINISHED).exists()
    assert ScoreCorrection.objects.count() == 2
    assert not Season.objects.get().is_closed

    lines = bench_league.lines(outcome, information=False)
    assert len(lines) == 1 + len(named) + 3
    assert lines[1].startswith("enter one table's results (organiser)")
    assert all(line.endswith(("holds", ")")) for line in lines[-3:])
    assert lines[-1].startswith("goal: no figure over 1.5x from 1 night to 1 season:")


def test_the_goal_lines_name_what_misses():
    early = bench_league.Point("4 nights", dict.fromkeys(bench_league.WRITES, 10.0))
    early.times |= dict.fromkeys(bench_league.PAGES, 10.0)
    late = bench_league.Point("3 seasons", dict(early.times))
    late.times["season page (standings)"] = 80.0
    late.times["correction"] = 14.0
    outcome = bench_league.Outcome(build_seconds=1.0, early=early, late=late)

    lines = bench_league.lines(outcome, information=False)
    assert lines[-3] == (
        "goal: every page within 50 ms at 3 seasons: MISSES (season page (standings) 80.0 ms)"
    )
    assert lines[-2] == "goal: every write within 60 ms at 3 seasons: holds"
    assert lines[-1] == (
        "goal: no figure over 1.5x from 4 nights to 3 seasons: "
        "MISSES (season page (standings) 8.0x)"
    )
    informed = bench_league.lines(outcome, information=True)
    assert informed[-1].startswith("information (the goals are on SQLite): no figure")

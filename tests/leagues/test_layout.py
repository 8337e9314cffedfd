"""leagues stays a house a newcomer can walk: no module too long to read through, and no
import that comes back round to the module it left from."""

from __future__ import annotations

from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
LONGEST = 600


def test_no_module_of_leagues_is_over_600_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "leagues").rglob("*.py"))
        if "migrations" not in path.parts
        and (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert too_long == {}


def test_no_import_of_leagues_comes_back_round():
    """Every import counts here, those inside a function and those for type checking
    alone too (import-linter's contracts leave the latter out): a reader follows them all."""
    graph = grimp.build_graph("leagues", exclude_type_checking_imports=False, cache_dir=None)
    circles = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back:
                circles.add(" -> ".join((module, *back)))
    assert sorted(circles) == []

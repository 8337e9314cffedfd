"""The project stays a house a newcomer can walk: no module too long to read through,
and no import circle, for a reader as for Python: imports inside functions and those
made for type checking only count too (the import-linter contracts leave the latter
out). Both hold over every package of the project. And nothing the code or its docs
cite lives outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "leagues", "config")
LONGEST = 600


def test_no_module_of_the_project_is_over_600_lines():
    too_long = {
        str(path.relative_to(ROOT)): lines
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
        and (lines := len(path.read_text().splitlines())) > LONGEST
    }
    assert too_long == {}


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every group of modules that import each other, round and round (Tarjan)."""
    modules = sorted(m for m in graph.modules if m.startswith(PACKAGES))
    edges = {
        m: sorted(i for i in graph.find_modules_directly_imported_by(m) if i.startswith(PACKAGES))
        for m in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in edges[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while True:
                other = stack.pop()
                group.append(other)
                if other == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return found


def test_no_module_of_the_project_imports_itself_round_a_circle():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False, cache_dir=None)
    assert circles(graph) == []


def test_a_circle_is_found_when_there_is_one():
    graph = grimp.ImportGraph()
    for importer, imported in [
        ("games.a", "games.b"),
        ("games.b", "games.a"),
        ("games.b", "games.c"),
    ]:
        graph.add_import(importer=importer, imported=imported)
    assert circles(graph) == [["games.a", "games.b"]]


#: A document named in code or docs (a name ending in ".md"), a folder before it or not.
CITED = re.compile(r"(?<![\w.-])([\w./-]*[A-Za-z_]\w*\.md)\b")


def test_every_document_the_code_and_docs_cite_is_in_the_repository():
    """A document cited by name (README.md, docs/ARCHITECTURE.md, games/engine/README.md)
    is one of the repository's: a reader who follows a citation finds it here."""
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    documents = {path for path in tracked if path.endswith(".md")}
    names = {path.rsplit("/", 1)[-1] for path in documents}
    missing = {}
    for path in tracked:
        if "/migrations/" in path or not (ROOT / path).is_file():
            continue
        if not path.endswith((".py", ".md", ".txt", ".toml", ".html", ".js", ".css", ".sh")):
            continue
        for cited in CITED.findall((ROOT / path).read_text(errors="ignore")):
            folder = str((ROOT / path).parent.relative_to(ROOT))
            beside = str(Path(folder, cited)) if folder != "." else cited
            found = (
                cited in documents
                or beside in documents
                or ("/" not in cited and cited in names)
                or any(d.endswith("/" + cited) for d in documents)
            )
            if not found:
                missing.setdefault(cited, path)
    assert missing == {}

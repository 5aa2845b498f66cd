"""The arena's shape (issue 35): layers whose imports only point down, no import circles,
no function over 60 lines, and ARCHITECTURE.md saying the same as `arena.LAYERS`.

Every `import` under arena/ counts: at module level, inside a function (lazy) and under
`if TYPE_CHECKING:` (type hints only), with `from . import x` resolved, and the arena's
`importlib.import_module("arena.x")` and lazy CLI commands ("arena.cli.x:name"). An import of
`a.b.c` is an arrow to `a.b.c` alone: Python runs `a/__init__.py` and `a/b/__init__.py` first,
but a package's `__init__` importing its own parts is no circle.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import arena

ROOT = Path(__file__).resolve().parent.parent
MAX_FUNCTION_LINES = 60
_COMMAND = re.compile(r"(arena(?:\.\w+)+):\w+")
"""A lazy CLI command's "module:attribute" (arena/cli/main.py)."""


@dataclass(frozen=True)
class Arrow:
    """One import: `source` imports `target`, at `line`, of a `kind`."""

    source: str
    target: str
    line: int
    kind: str
    """"module level", "lazy" (inside a function) or "type hints" (under TYPE_CHECKING)."""

    def __str__(self) -> str:
        return f"{self.source} imports {self.target} (line {self.line}, {self.kind})"


def modules(root: Path, package: str = "arena") -> dict[str, Path]:
    """Every module of `package` (a folder under `root`), by dotted name."""
    found = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _type_only(tree: ast.AST) -> set[ast.AST]:
    """The import statements under an `if TYPE_CHECKING:`."""
    marked: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                marked.update(ast.walk(inner))
    return marked


def _lazy(tree: ast.AST) -> set[ast.AST]:
    """Every node inside a function."""
    inside: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.iter_child_nodes(node):
                inside.update(ast.walk(inner))
    return inside


def _named(name: str, module: str, known: dict[str, Path]) -> str | None:
    """The known module `name` is or lies in (`a.b.C` -> `a.b`), or None outside."""
    while name and name not in known:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name if name and name != module else None


def _targets(node: ast.AST, module: str, known: dict[str, Path]) -> list[str]:
    """The dotted names one node imports (before `_named`)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if known[module].name != "__init__.py":
                package.pop()
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
    if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module"):
        first = node.args[0] if node.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return [first.value]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        command = _COMMAND.fullmatch(node.value)
        return [command.group(1)] if command else []
    return []


def arrows(root: Path, package: str = "arena") -> Iterator[Arrow]:
    """Every import between modules of `package`."""
    known = modules(root, package)
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        type_only, lazy = _type_only(tree), _lazy(tree)
        for node in ast.walk(tree):
            for name in _targets(node, module, known):
                target = _named(name, module, known)
                if target is not None:
                    kind = (
                        "type hints"
                        if node in type_only
                        else "lazy"
                        if node in lazy
                        else "module level"
                    )
                    yield Arrow(module, target, getattr(node, "lineno", 0), kind)


def circles(found: list[Arrow]) -> list[tuple[list[str], set[str]]]:
    """Each strongly connected group of modules, with one circle through it as a path that
    ends where it starts (Tarjan's groups, then the shortest way round from the group's
    first module)."""
    graph: dict[str, set[str]] = {}
    for arrow in found:
        graph.setdefault(arrow.source, set()).add(arrow.target)
        graph.setdefault(arrow.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # recursion depth: the longest import chain, a few dozen
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [(_way_round(graph, group), group) for group in groups]


def _way_round(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """The shortest path from the group's first module back to it, inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"no way round {sorted(group)}")


def layer_of(module: str) -> int | None:
    """The index in `arena.LAYERS` of the layer that holds `module` (longest name wins)."""
    if module == "arena":
        return 0
    best: tuple[int, int] | None = None
    for number, (_, names) in enumerate(arena.LAYERS):
        for name in names:
            full = f"arena.{name}"
            held = module == full or module.startswith(full + ".")
            if held and (best is None or len(full) > best[0]):
                best = (len(full), number)
    return None if best is None else best[1]


def long_functions(root: Path, most: int = MAX_FUNCTION_LINES) -> list[str]:
    """Every function over `most` lines (a nested one counts inside its parent)."""
    found = []
    for path in sorted((root / "arena").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        outer: list[ast.AST] = [tree]
        while outer:
            node = outer.pop()
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                    length = (child.end_lineno or child.lineno) - child.lineno + 1
                    if length > most:
                        where = path.relative_to(root)
                        found.append(f"{child.name} in {where}:{child.lineno}: {length} lines")
                else:
                    outer.append(child)
    return sorted(found)


def _layer_name(module: str) -> str:
    number = layer_of(module)
    return "no layer" if number is None else f"layer {number + 1}, {arena.LAYERS[number][0]}"


# ---------------------------------------------------------------- the walker, checked


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_walker_sees_lazy_type_only_and_relative_imports_and_reports_the_circle(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low.py": "def f():\n    from pkg.top import g\n",
            "pkg/mid.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from . import low\n",
            "pkg/top.py": "from .mid import x\nimport importlib\n"
            "importlib.import_module('pkg.sub.leaf')\n",
            "pkg/sub/__init__.py": "from .. import low\n",
            "pkg/sub/leaf.py": "from . import helper\n",
        },
    )
    found = {(a.source, a.target, a.kind) for a in arrows(tmp_path, "pkg")}
    assert found == {
        ("pkg.low", "pkg.top", "lazy"),
        ("pkg.mid", "pkg.low", "type hints"),
        ("pkg.top", "pkg.mid", "module level"),
        ("pkg.top", "pkg.sub.leaf", "module level"),
        ("pkg.sub", "pkg.low", "module level"),
        ("pkg.sub.leaf", "pkg.sub", "module level"),
    }
    assert circles(list(arrows(tmp_path, "pkg"))) == [
        (
            ["pkg.low", "pkg.top", "pkg.mid", "pkg.low"],
            {"pkg.low", "pkg.mid", "pkg.top", "pkg.sub", "pkg.sub.leaf"},
        )
    ]


def test_the_length_check_counts_nested_functions_inside_their_parent(tmp_path: Path) -> None:
    body = "".join(f"            x{n} = {n}\n" for n in range(60))
    _write(tmp_path, {"arena/a.py": f"class C:\n    def m(self):\n        def inner():\n{body}"})
    assert long_functions(tmp_path) == ["m in arena/a.py:2: 62 lines"]


# ---------------------------------------------------------------- the arena


def test_every_module_is_in_a_layer() -> None:
    homeless = [name for name in modules(ROOT) if layer_of(name) is None]
    assert not homeless, f"Add these modules to arena.LAYERS and ARCHITECTURE.md: {homeless}"


def test_every_import_points_down_or_stays_in_its_layer() -> None:
    up = [
        f"{arrow}: {_layer_name(arrow.source)} -> {_layer_name(arrow.target)}"
        for arrow in arrows(ROOT)
        if (layer_of(arrow.source) or 0) < (layer_of(arrow.target) or 0)
    ]
    assert not up, "Imports that point up a layer:\n" + "\n".join(up)


def test_no_import_circles() -> None:
    found = list(arrows(ROOT))
    told = []
    for circle, group in circles(found):
        steps = []
        for source, target in zip(circle, circle[1:], strict=False):
            arrow = next(a for a in found if a.source == source and a.target == target)
            steps.append(f"  {arrow}")
        others = sorted(group - set(circle))
        also = f"\n  (in the same tangle: {', '.join(others)})" if others else ""
        told.append(" -> ".join(circle) + "\n" + "\n".join(steps) + also)
    assert not told, f"{len(told)} import circles:\n" + "\n".join(told)


def test_no_function_is_over_60_lines() -> None:
    found = long_functions(ROOT)
    assert not found, f"{len(found)} functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(
        found
    )


def test_architecture_page_lists_the_layers_as_the_table_does() -> None:
    page = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| *(\d+) *\| *([^|]+?) *\| *([^|]+?) *\|", page, re.MULTILINE)
    shown = [
        (int(number), name, sorted(re.findall(r"`([\w.]+)`", held))) for number, name, held in rows
    ]
    table = [(n + 1, name, sorted(held)) for n, (name, held) in enumerate(arena.LAYERS)]
    assert shown == table
    assert "ARCHITECTURE.md" in (ROOT / "README.md").read_text(encoding="utf-8")

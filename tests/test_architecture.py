"""The package's shape: imports go one way (no cycles, counting the imports inside
functions too), no module imports another's private names, every finding kind is in the
checks registry, and no module grows past ~500 lines without saying why at its top."""

from __future__ import annotations

import ast
from pathlib import Path

import zhenglossary

PACKAGE = Path(zhenglossary.__file__).parent
LONG = 500


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """module → the package modules it imports (anywhere in its body)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        package = name if is_pkg else name.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in modules:
                        edges.add(sub)
                    elif target in modules:
                        edges.add(target)
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_walk_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_graph_sees_relative_and_lazy_imports():
    graph = import_graph()
    assert "zhenglossary.api" in graph["zhenglossary.cli.glossary"]        # lazy, relative
    assert "zhenglossary.cli.console" in graph["zhenglossary.cli.translate"]


def test_no_import_cycles():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " → ".join(cycle)



def emitted_finding_ids() -> dict[str, list[str]]:
    """check id → where the package makes a Finding with it: ``Finding("id", ...)`` and calls
    of every helper that passes its first parameter on as a Finding's check id (found by
    walking the source, so a new helper is followed without being named here)."""
    trees = {path: ast.parse(path.read_text("utf-8")) for path in PACKAGE.rglob("*.py")}

    def callee(call: ast.Call) -> str | None:
        f = call.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None

    factories, grew = {"Finding"}, True
    while grew:
        grew = False
        for tree in trees.values():
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef) or fn.name in factories:
                    continue
                params = [a.arg for a in fn.args.args if a.arg not in ("self", "cls")]
                if params and any(isinstance(c, ast.Call) and callee(c) in factories and c.args
                                  and isinstance(c.args[0], ast.Name)
                                  and c.args[0].id == params[0] for c in ast.walk(fn)):
                    factories.add(fn.name)
                    grew = True
    found: dict[str, list[str]] = {}
    for path, tree in trees.items():
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and callee(call) in factories and call.args \
                    and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
                found.setdefault(call.args[0].value, []).append(
                    f"{path.relative_to(PACKAGE)}:{call.lineno}")
    return found


def test_every_finding_kind_is_registered():
    from zhenglossary.checks import all_checks

    emitted = emitted_finding_ids()
    # the scan sees the kinds of each part: glossary loading, note checks, translate
    assert {"yaml-syntax", "term-unused", "term-missing", "unrendered", "note-unreadable"} \
        <= set(emitted)
    registered = {c.id for c in all_checks()}
    missing = {check: places for check, places in emitted.items() if check not in registered}
    assert not missing, f"finding kinds missing from the checks registry: {missing}"


def test_list_checks_lists_the_translate_findings(tmp_path):
    import json

    from typer.testing import CliRunner

    from zhenglossary.cli import app

    result = CliRunner().invoke(app, ["glossary", "check", "--list-checks", "--format", "json"])
    rows = {c["id"]: c for c in json.loads(result.stdout)}
    assert rows["lock-failed"]["scope"] == "translate" and rows["lock-failed"]["severity"] == "error"
    assert {"unrendered", "empty-translation", "unparsed", "note-unreadable"} <= set(rows)


def test_no_module_imports_another_modules_private_names():
    private = []
    modules = _modules()
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                private += [f"{name}: {a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert not private, f"private names imported across modules: {private}"


def test_long_modules_say_why():
    unexplained = []
    for name, path in _modules().items():
        text = path.read_text("utf-8")
        if text.count("\n") > LONG:
            doc = ast.get_docstring(ast.parse(text)) or ""
            if "Why this module is long" not in doc:
                unexplained.append(f"{name} ({text.count(chr(10))} lines)")
    assert not unexplained, ("modules over ~500 lines need a 'Why this module is long:' "
                             "paragraph in their docstring: " + ", ".join(unexplained))


FLOOR = {"glossary", "notes", "findings", "errors", "textutil", "segment", "cedict", "fileio", "apart", "english", "lexicon",
         "paths", "bilingual", "align", "prose", "markdown", "pinyin",
         "document", "terms"}


def test_the_floor_imports_nothing_above_it():
    """docs/architecture.md: data flows downward; the floor modules import only each other."""
    floor = {f"zhenglossary.{name}" for name in FLOOR} | {"zhenglossary"}
    graph = import_graph()
    upward = {m: sorted(d for d in graph[m] if d not in floor) for m in floor if m in graph}
    assert not {m: d for m, d in upward.items() if d}, upward


def test_every_module_the_architecture_names_exists():
    """docs/architecture.md names modules and packages in backticks: each must exist, so the
    page cannot outlive a move."""
    import re

    root = Path(__file__).parent.parent
    doc = (root / "docs" / "architecture.md").read_text("utf-8")
    package = root / "src" / "zhenglossary"
    named = set(re.findall(r"`((?:[a-z_]+/)?[a-z_]+\.py|[a-z_]+/)`", doc))
    assert len(named) > 30
    missing = []
    for name in named:
        candidates = [package / name, *package.glob(f"*/{name}"), root / name,
                      root / "tests" / name, root / "tests" / "support" / name]
        if not any(c.exists() for c in candidates):
            missing.append(name)
    assert not missing

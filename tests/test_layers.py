"""Layers only look down: model <- formats <- check, solve, generate <- handrecords <- app <- ui <- cli.

Every ``import`` in ``bridgeview/`` (at the top of a module or inside a function)
is read with ``ast``; an import of a higher layer, or of Qt below ``ui``, fails.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bridgeview"

#: what each layer may import (besides itself and the package's top-level modules)
ALLOWED = {
    "model": set(),
    "formats": {"model"},
    "check": {"model", "formats"},
    "solve": {"model", "formats"},
    "generate": {"model", "formats"},
    "handrecords": {"model", "formats", "check", "solve"},
    "app": {"model", "formats", "check", "solve", "generate", "handrecords"},
    "ui": {"model", "formats", "check", "solve", "generate", "handrecords", "app"},
    "cli": {"model", "formats", "check", "solve", "generate", "handrecords", "app", "ui"},
}
QT_FREE = {"model", "formats", "check", "solve", "generate", "handrecords", "app"}


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute dotted module) of every import in ``path``."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    here = parts if path.name == "__init__.py" else parts[:-1]  # the module's package
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [f"{target}.{a.name}" for a in node.names] if not node.module else [target]
                out += [(node.lineno, n) for n in names]
            else:
                out.append((node.lineno, node.module or ""))
    return out


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "bridgeview" else None


MODULES = sorted(p for p in PACKAGE.rglob("*.py"))


def violations(path: Path, layer: str) -> list[str]:
    """The imports of ``path`` (a module of ``layer``) that look up or sideways, or at Qt below ``ui``."""
    bad = []
    for line, module in _imports(path):
        target = _layer(module)
        if module.split(".")[0] in ("PySide6", "shiboken6") and layer in QT_FREE:
            bad.append(f"line {line}: {module} (the {layer} layer is Qt-free)")
        if target is None or target == layer or target not in ALLOWED:
            continue  # outside bridgeview, its own layer, or a top-level module (the version, resources)
        if target not in ALLOWED[layer]:
            bad.append(f"line {line}: {module} (the {layer} layer may not import {target})")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_look_down(path: Path):
    rel = path.relative_to(PACKAGE)
    if len(rel.parts) == 1:
        return  # bridgeview/__init__.py, __main__.py, resources.py: the top, free to start the cli
    bad = violations(path, rel.parts[0])
    assert not bad, f"bridgeview/{rel}: " + "; ".join(bad)


def test_every_layer_is_known():
    """A new sub-package must be placed in the layer map above (and in CONTRIBUTING.md)."""
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages == set(ALLOWED)


def test_the_check_catches_a_leak():
    """Relative, absolute and in-function imports upward are all caught (so the test above can fail)."""
    fake = PACKAGE / "model" / "_layer_probe.py"
    src = (
        "from PySide6.QtCore import Qt\nfrom . import cards\nfrom .. import __version__\n"
        "def f():\n    from ..ui import diagram\n    import bridgeview.cli.main\n    from ..formats import pbn\n"
    )
    try:
        fake.write_text(src, encoding="utf-8")
        bad = violations(fake, "model")
    finally:
        fake.unlink()
    assert [b.split(":")[0] for b in bad] == ["line 1", "line 5", "line 6", "line 7"], bad


# -- no import cycles, no private imports -------------------------------------
#: the layers checked for cycles and private imports (#27); ``ui``, restructured on its own, joins once its
#: cycle is broken
CHECKED = set(ALLOWED) - {"ui"}


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_graph(root: Path = PACKAGE) -> tuple[dict[str, set[str]], list[str]]:
    """Every module of the package under ``root`` with the package's modules it imports (at the top, inside
    functions or for type checking alike: an import inside a function still ties the two modules), and the
    imports of another module's ``_private`` names (``module: line: name from where``)."""
    paths = {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    private: list[str] = []
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        graph[name] = edges = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules_named: dict[str, str] = {}  # a local name bound to one of the package's modules
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in paths:
                        edges.add(alias.name)
                        if alias.asname:
                            modules_named[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - (node.level - 1)] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                for alias in node.names:
                    if f"{source}.{alias.name}" in paths:  # a module of a package
                        edges.add(f"{source}.{alias.name}")
                        modules_named[alias.asname or alias.name] = f"{source}.{alias.name}"
                    elif source in paths:
                        edges.add(source)
                        if alias.name.startswith("_") and not alias.name.startswith("__"):
                            private.append(f"{name}: line {node.lineno}: {alias.name} from {source}")
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules_named
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                private.append(f"{name}: line {node.lineno}: {node.attr} of {modules_named[node.value.id]}")
        edges.discard(name)
    return graph, private


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import each other in a loop, each loop once (strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                loop = []
                while True:
                    member = stack.pop()
                    loop.append(member)
                    if member == node:
                        break
                if len(loop) > 1:
                    found.append(sorted(loop))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def _checked(module: str) -> bool:
    parts = module.split(".")
    return len(parts) < 2 or parts[1] in CHECKED


def test_no_import_cycles():
    """No two modules import each other, however far round (imports inside functions count): a cycle is a
    seam nobody can take apart, and the order modules load in stops being one."""
    graph, _private = module_graph()
    found = [loop for loop in cycles(graph) if all(_checked(m) for m in loop)]
    assert not found, "import cycles: " + "; ".join(" <-> ".join(loop) for loop in found)


def test_no_module_imports_another_modules_private_names():
    """A ``_name`` is its module's own: a module that needs another's makes it public under a proper name."""
    _graph, private = module_graph()
    found = [p for p in private if _checked(p.split(":")[0])]
    assert not found, "; ".join(found)


def test_the_cycle_and_private_checks_can_fail(tmp_path):
    """A loop through an import inside a function, and a private name taken, are both found."""
    root = tmp_path / "pkg"
    (root / "sub").mkdir(parents=True)
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (root / "a.py").write_text("from .sub import b\n_hidden = 1\n", encoding="utf-8")
    (root / "sub" / "b.py").write_text("def f():\n    from ..c import g\n", encoding="utf-8")
    (root / "c.py").write_text("from . import a\nfrom .a import _hidden\nx = a._hidden\ng = 1\n", encoding="utf-8")
    graph, private = module_graph(root)
    assert cycles(graph) == [["pkg.a", "pkg.c", "pkg.sub.b"]]
    assert private == ["pkg.c: line 2: _hidden from pkg.a", "pkg.c: line 3: _hidden of pkg.a"]

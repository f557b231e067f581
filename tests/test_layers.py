"""Layers only look down: model <- formats <- check, solve, generate <- handrecords <- app <- ui <- cli.

Every ``import`` in ``bridgeview/`` (at the top of a module, inside a function, or
under ``if TYPE_CHECKING``) is read with ``ast``; an import of a higher layer, or of
Qt below ``ui``, fails.  So does an import cycle between any two modules of the
package (issue 27: a cycle dodged by an import inside a function is still a cycle),
and an import of another module's ``_private`` name.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
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


# -- folders a reader can take in at a glance (issue 27) ----------------------------------------------------

#: the most modules one folder of the package may hold (``__init__.py`` counts): past it, split by feature
MAX_MODULES = 20


def crowded_folders(top: Path = PACKAGE) -> dict[str, int]:
    """The folders under ``top`` (itself included) holding more than :data:`MAX_MODULES` modules, with
    their counts, by path from ``top``'s parent (``bridgeview/ui``)."""
    folders = [top, *(p for p in sorted(top.rglob("*")) if p.is_dir() and p.name != "__pycache__")]
    counts = {str(f.relative_to(top.parent)): len(list(f.glob("*.py"))) for f in folders}
    return {folder: n for folder, n in counts.items() if n > MAX_MODULES}


def test_every_folder_holds_at_most_20_modules():
    """A newcomer finds a module by its folder's name: a flat folder of 40 modules tells nothing."""
    found = crowded_folders()
    assert not found, f"folders of more than {MAX_MODULES} modules (split them into packages by feature): " + (
        ", ".join(f"{folder} ({n})" for folder, n in sorted(found.items()))
    )


def test_the_folder_check_counts_every_module(tmp_path):
    """21 modules in a folder (``__init__`` among them) fail; 20 pass, at the top and deeper down."""
    top = tmp_path / "bridgeview"
    (top / "feature").mkdir(parents=True)
    (top / "__pycache__").mkdir()
    for i in range(30):
        (top / "__pycache__" / f"m{i}.py").write_text("", encoding="utf-8")  # not a folder of the package
    for name in ["__init__", *(f"m{i}" for i in range(19))]:
        (top / f"{name}.py").write_text("", encoding="utf-8")
        (top / "feature" / f"{name}.py").write_text("", encoding="utf-8")
    (top / "feature" / "notes.txt").write_text("", encoding="utf-8")
    assert crowded_folders(top) == {}
    (top / "feature" / "m19.py").write_text("", encoding="utf-8")
    assert crowded_folders(top) == {"bridgeview/feature": 21}


# -- no import cycles, no private names of other modules (issue 27) -------------------------------------


def module_name(path: Path, top: Path = PACKAGE.parent) -> str:
    """``bridgeview/ui/diagram/ddgrid.py`` -> ``bridgeview.ui.diagram.ddgrid`` (``__init__`` is the package)."""
    parts = list(path.relative_to(top).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_modules(top: Path = PACKAGE.parent) -> dict[str, Path]:
    """Every module of the package under ``top``, by dotted name."""
    return {module_name(p, top): p for p in sorted((top / "bridgeview").rglob("*.py"))}


def imports_of(path: Path, modules: dict[str, Path], top: Path = PACKAGE.parent) -> list[tuple[int, str, list, str]]:
    """(line, module of the package, names taken from it, local name bound to the module or "") of every
    import in ``path``, anywhere in it.  ``from . import pbn`` imports the module ``pbn`` (bound as ``pbn``);
    ``from .registry import read_file`` the module ``registry`` (the name ``read_file``); imports of other
    packages are left out."""
    here = module_name(path, top).split(".")
    if path.name != "__init__.py":
        here = here[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:  # ``import a.b`` binds ``a``; ``import a.b as m`` binds the module
                    out.append((node.lineno, alias.name, [], alias.asname or ""))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = []
            for alias in node.names:
                if f"{base}.{alias.name}" in modules:
                    out.append((node.lineno, f"{base}.{alias.name}", [], alias.asname or alias.name))
                else:
                    names.append(alias.name)
            if names and base in modules:
                out.append((node.lineno, base, names, ""))
    return out


def import_graph(modules: dict[str, Path], top: Path = PACKAGE.parent) -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (anywhere in it)."""
    return {
        name: {target for _line, target, _names, _bound in imports_of(path, modules, top) if target != name}
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: each a strongly connected set of two or more modules (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def enter(node: str) -> Iterator[str]:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        return iter(sorted(graph.get(node, ())))

    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, enter(start))]  # iterative: no recursion limit to meet
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    work.append((target, enter(target)))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while not component or component[-1] != node:
                        component.append(stack.pop())
                        on_stack.discard(component[-1])
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def describe_cycle(component: list[str], graph: dict[str, set[str]]) -> str:
    """``a -> b, c; b -> a``: who imports whom inside one cycle."""
    inside = set(component)
    return "; ".join(f"{m} -> {', '.join(sorted(graph[m] & inside))}" for m in component)


def private_uses(path: Path, modules: dict[str, Path], top: Path = PACKAGE.parent) -> list[str]:
    """Where ``path`` takes another module's ``_private`` name: ``from x import _y``, or ``x._y`` on a module
    it imported as ``x``.  A package's own private modules (``from . import _helper``) are its business."""
    me = module_name(path, top)
    found: list[tuple[int, str]] = []
    bound: dict[str, str] = {}  # local name -> the module of the package it stands for
    for line, target, names, local in imports_of(path, modules, top):
        if target == me:
            continue
        found += [(line, f"from {target} import {n}") for n in names if n.startswith("_") and not n.startswith("__")]
        package, _dot, last = target.rpartition(".")
        if not names and last.startswith("_") and not last.startswith("__") and not me.startswith(package + "."):
            found.append((line, f"import of {target} (a private module of another package)"))
        if local:
            bound[local] = target
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append((node.lineno, f"{node.value.id}.{node.attr} of {bound[node.value.id]}"))
    return [f"line {line}: {text}" for line, text in sorted(set(found))]


def test_no_import_cycles():
    """No module imports, even inside a function, what imports it: a cycle is a seam nobody can take apart."""
    graph = import_graph(package_modules())
    found = cycles(graph)
    assert not found, "import cycles (no module may import, even inside a function, what imports it):\n" + "\n".join(
        f"{len(c)} modules: {describe_cycle(c, graph)}" for c in found
    )


def test_no_module_uses_another_modules_private_names():
    """A ``_name`` is its module's own: a module that needs another's makes it public under a proper name."""
    modules = package_modules()
    found = {str(p.relative_to(PACKAGE.parent)): private_uses(p, modules) for p in modules.values()}
    found = {path: uses for path, uses in found.items() if uses}
    assert not found, "private names of other modules (make the name public, or keep the work in its module): " + (
        "; ".join(f"{path}: {', '.join(uses)}" for path, uses in sorted(found.items()))
    )


def ui_package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The import graph of ``ui/``'s feature packages (``ui.replay``) and top-level modules (``ui.theme``)."""

    def part(module: str) -> str | None:
        parts = module.split(".")
        return ".".join(parts[:3]) if parts[:2] == ["bridgeview", "ui"] and len(parts) > 2 else None

    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        here = part(module)
        if here is not None:
            out.setdefault(here, set()).update(t for t in map(part, targets) if t is not None and t != here)
    return out


def test_the_ui_packages_import_each_other_one_way():
    """Above the shared modules (theme, plaintext, card_text, dialogs), ``diagram`` and ``document`` are at
    the bottom and ``mainwindow`` at the top; the feature packages between them (replay, analysis, editor,
    window, desk, then boardset and cribbage) never import one another both ways, so a package can be read
    knowing only those it imports (docs/architecture.md draws them)."""
    graph = ui_package_graph(import_graph(package_modules()))
    found = cycles(graph)
    assert not found, "ui/ packages importing each other both ways:\n" + "\n".join(
        describe_cycle(c, graph) for c in found
    )


def _probe_package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = tmp_path / "bridgeview" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package_modules(tmp_path)


def test_the_cycle_check_sees_every_kind_of_import(tmp_path):
    """A cycle through an import inside a function, under TYPE_CHECKING, relative or absolute, is found and
    named; a package's ``__init__`` importing its module, and imports that only look down, are no cycle."""
    modules = _probe_package(
        tmp_path,
        {
            "__init__.py": "",
            "probe/__init__.py": "from .a import f\n",
            "probe/a.py": "def f():\n    from . import b\n",
            "probe/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bridgeview.probe.c import C\n",
            "probe/c.py": "import bridgeview.probe.a\nfrom ..probe.d import D\n",
            "probe/d.py": "from . import e\n",
            "probe/e.py": "X = 1\n",
        },
    )
    graph = import_graph(modules, tmp_path)
    assert cycles(graph) == [["bridgeview.probe.a", "bridgeview.probe.b", "bridgeview.probe.c"]]
    assert describe_cycle(cycles(graph)[0], graph) == (
        "bridgeview.probe.a -> bridgeview.probe.b; bridgeview.probe.b -> bridgeview.probe.c; "
        "bridgeview.probe.c -> bridgeview.probe.a"
    )


def test_the_private_check_sees_both_forms(tmp_path):
    modules = _probe_package(
        tmp_path,
        {
            "__init__.py": "",
            "probe/__init__.py": "",
            "probe/lib.py": "_hidden = 1\nshown = 2\n",
            "probe/_own.py": "",
            "other/__init__.py": "",
            "other/user.py": (
                "from ..probe.lib import _hidden, shown\nfrom ..probe import lib\nfrom ..probe.lib import __doc__\n"
                "import bridgeview.probe.lib as plib\nfrom ..probe import _own\n"
                "def f():\n    return lib._hidden + lib.shown + plib._hidden\n"
            ),
            "probe/friend.py": "from . import _own\nfrom .lib import shown\n",
        },
    )
    assert private_uses(modules["bridgeview.other.user"], modules, tmp_path) == [
        "line 1: from bridgeview.probe.lib import _hidden",
        "line 5: import of bridgeview.probe._own (a private module of another package)",
        "line 7: lib._hidden of bridgeview.probe.lib",
        "line 7: plib._hidden of bridgeview.probe.lib",
    ]
    assert private_uses(modules["bridgeview.probe.friend"], modules, tmp_path) == []

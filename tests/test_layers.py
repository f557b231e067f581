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

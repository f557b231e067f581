"""The benchmark scripts in bench/ still import what they name from bridgeview.

The benches run outside the suite (minutes to hours each), so a module moved in a
refactor broke `bench/bench_fuzz.py` without any test noticing.  This reads each
script's imports and checks every `from bridgeview... import name` resolves.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(BENCH.glob("*.py"))


def bridgeview_imports(script: Path) -> list[tuple[str, str | None, int]]:
    """(module, name or None, line) for every bridgeview import in ``script``, nested ones too."""
    found: list[tuple[str, str | None, int]] = []
    for node in ast.walk(ast.parse(script.read_text(encoding="utf-8"), str(script))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "bridgeview":
                found += [(node.module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == "bridgeview"]
    return found


def test_there_are_bench_scripts_with_bridgeview_imports() -> None:
    assert len(SCRIPTS) >= 5
    assert sum(len(bridgeview_imports(s)) for s in SCRIPTS) >= 20


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_bridgeview_import_in_a_bench_script_resolves(script: Path) -> None:
    broken = []
    for module_name, name, line in bridgeview_imports(script):
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            broken.append(f"{script.name}:{line}: {module_name}: {e}")
            continue
        if name is not None and name != "*" and not hasattr(module, name):
            try:
                importlib.import_module(f"{module_name}.{name}")
            except ImportError:
                broken.append(f"{script.name}:{line}: {module_name} has no {name}")
    assert not broken, "\n".join(broken)
